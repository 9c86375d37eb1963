/**
 * buildApp(config) composes every face of Latchkey on one HTTP host and returns start/stop, so
 * `main.ts` and the tests run the very same service (tests on port 0, in-process).
 *
 * Order matters: security headers, request ids and the per-request EntityManager fork apply to
 * every route; the error handler is the one place that turns errors into wire bodies.
 */
import type { AddressInfo } from 'node:net';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import fastifyHelmet from '@fastify/helmet';
import type { EntityManager } from '@mikro-orm/postgresql';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { type DestinationStream, type Logger, pino } from 'pino';
import type { Config } from './config.ts';
import { registerConsole } from './console/routes.ts';
import { type Database, openDatabase } from './db/orm.ts';
import { serverSecret } from './db/server-secrets.ts';
import { registerErrorHandling } from './http/error-handling.ts';
import { loggerOptions } from './http/logger.ts';
import { requestId } from './http/request-id.ts';
import { registerHealth } from './ops/health.ts';
import { registerMetrics } from './ops/metrics.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** This request's own EntityManager (a fork); never the global one. */
    em: EntityManager;
  }
}

export interface BuildOptions {
  /** Tests: run the embedded database in memory instead of in DATA_DIR. */
  embeddedInMemory?: boolean;
  /** Where log lines go (stdout by default); tests read them to prove nothing secret is logged. */
  logDestination?: DestinationStream;
}

export interface App {
  server: FastifyInstance;
  db: Database;
  config: Config;
  /** Listens on `port` (0 for any) and resolves to the bound address. */
  start(port?: number): Promise<{ port: number; url: string }>;
  /** Stops accepting, lets in-flight requests finish, then closes the database. */
  stop(): Promise<void>;
}

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<App> {
  const logger = pino(loggerOptions(config.logLevel), options.logDestination ?? process.stdout);
  const db = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    embeddedInMemory: options.embeddedInMemory,
    log: (message) => logger.info({ component: 'orm' }, message),
  });
  try {
    const server = await composeServer(config, db, logger);
    return {
      server,
      db,
      config,
      async start(port = config.port) {
        await server.listen({ port, host: config.host });
        const address = server.server.address() as AddressInfo;
        return { port: address.port, url: `http://${config.host}:${address.port}` };
      },
      async stop() {
        await server.close();
        await db.close();
      },
    };
  } catch (error) {
    await db.close();
    throw error;
  }
}

async function composeServer(config: Config, db: Database, logger: Logger) {
  const cookieSecret = await serverSecret(db.orm.em.fork(), 'cookie-signing');
  const server = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    genReqId: requestId,
    requestIdHeader: false,
    bodyLimit: config.bodyLimit,
    trustProxy: config.trustProxy,
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
  });

  server.decorateRequest('em', null as unknown as EntityManager);
  server.addHook('onRequest', async (request, reply) => {
    request.em = db.orm.em.fork() as EntityManager;
    reply.header('x-request-id', request.id);
  });

  registerErrorHandling(server);
  await server.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        formAction: ["'self'", ...config.socialProviders.map((p) => new URL(p.issuer).origin)],
        frameAncestors: ["'none'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        upgradeInsecureRequests: config.publicBaseUrl.startsWith('https:') ? [] : null,
      },
    },
    strictTransportSecurity: config.publicBaseUrl.startsWith('https:'),
  });
  await server.register(fastifyCookie, { secret: cookieSecret });
  await server.register(fastifyFormbody, { bodyLimit: config.bodyLimit });

  registerHealth(server, db.orm);
  registerMetrics(server);
  await server.register(registerConsole(config), { prefix: config.consolePath });
  return server;
}
