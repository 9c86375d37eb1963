/**
 * buildApp(config) composes every face of Latchkey on one HTTP host and returns start/stop, so
 * `main.ts` and the tests run the very same service (tests on port 0, in-process).
 *
 * Order matters: security headers, request ids and the per-request EntityManager fork apply to
 * every route; the host's error handler (http/error-handling.ts) turns errors into problem+json,
 * and the faces with another wire format (console pages, OAuth bodies) scope their own.
 */
import type { AddressInfo } from 'node:net';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import type { EntityManager } from '@mikro-orm/postgresql';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyRequest,
} from 'fastify';
import helmet from 'helmet';
import { type DestinationStream, type Logger, pino } from 'pino';
import { registerAuth } from './auth/index.ts';
import type { Config } from './config.ts';
import { registerConsole } from './console/routes.ts';
import { type Database, openDatabase } from './db/orm.ts';
import { serverSecret } from './db/server-secrets.ts';
import type { ChallengeDeps } from './domain/context.ts';
import { type ChallengeRuntime, startChallengeRuntime } from './domain/runtime.ts';
import { annotateRequestSpan } from './domain/spans.ts';
import { AppError } from './errors/index.ts';
import { registerCors } from './http/cors.ts';
import { registerErrorDocs } from './http/error-docs.ts';
import { registerErrorHandling } from './http/error-handling.ts';
import { loggerOptions } from './http/logger.ts';
import { sendProblem, toAppError } from './http/problem.ts';
import { requestId } from './http/request-id.ts';
import { transportLimits } from './http/transport-limits.ts';
import { trustProxyOption } from './http/trust-proxy.ts';
import { MailReader } from './ingest/email/mail-reader.ts';
import { createSenderAuthenticator, type SenderAuthenticator } from './ingest/email/sender-auth.ts';
import { type SmtpListener, startSmtpListener } from './ingest/email/smtp.ts';
import { registerIngest } from './ingest/routes.ts';
import { registerHealth } from './ops/health.ts';
import { registerMetrics } from './ops/metrics.ts';
import { registerFaces } from './rest-compat/index.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** This request's own EntityManager (a fork); never the global one. */
    em: EntityManager;
  }
  interface FastifyInstance {
    /** The challenge-session operations' dependencies: faces call `withEm(challenges, request.em)`. */
    challenges: ChallengeDeps;
  }
}

export interface BuildOptions {
  /** Tests: run the embedded database in memory instead of in DATA_DIR. */
  embeddedInMemory?: boolean;
  /** Where log lines go (stdout by default); tests read them to prove nothing secret is logged. */
  logDestination?: DestinationStream;
  /**
   * Benchmarks: another sender authentication in place of mailauth on DNS_SERVERS (the bench's
   * "off" run measures inbound mail without it); never set by the service itself.
   */
  senderAuthenticator?: SenderAuthenticator;
  /**
   * Tests: the clock every operation reads (the domain's, the claim ceremony's, API keys' and
   * identity assertions'), so a test moves time instead of sleeping. The wall clock by default.
   */
  clock?: () => Date;
}

export interface App {
  server: FastifyInstance;
  db: Database;
  config: Config;
  /** What the challenge-session operations need (events, sealing, waiters, clock). */
  challenges: ChallengeDeps;
  /** Listens on `port` (0 for any) and SMTP_PORT, and resolves to the bound addresses. */
  start(port?: number): Promise<{ port: number; url: string; smtpPort: number }>;
  /** The inbound SMTP listener's port once started (SMTP_PORT 0 picks a free one). */
  readonly smtpPort: number | undefined;
  /** Stops accepting, lets in-flight requests finish, then closes the database. */
  stop(): Promise<void>;
}

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<App> {
  const logger = pino(loggerOptions(config.logLevel), options.logDestination ?? process.stdout);
  // Inbound email is parsed and extracted off the event loop, in this pool of workers; they load
  // their modules while the database opens, and start() waits for them before SMTP listens.
  const mailReader = new MailReader({
    threads: config.extractionThreads,
    budgetMs: config.extractionBudgetMs,
    log: logger,
  });
  const warm = mailReader.warmUp();
  warm.catch(() => {}); // Reported by start(); not an unhandled rejection before it is awaited.
  let db: Database;
  try {
    db = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      embeddedInMemory: options.embeddedInMemory,
      log: (message) => logger.info({ component: 'orm' }, message),
      connectTimeout: config.databaseConnectTimeout,
      poolMax: config.databasePoolMax,
      sealingKeys: config.secretsKey,
    });
  } catch (error) {
    await mailReader.close();
    throw error;
  }
  let started: ChallengeRuntime | undefined;
  try {
    const runtime = await startChallengeRuntime(config, db.orm, logger, db.sealer, options.clock);
    started = runtime;
    const server = await composeServer(config, db, logger, runtime.deps, mailReader);
    let smtp: SmtpListener | undefined;
    return {
      server,
      db,
      config,
      challenges: runtime.deps,
      get smtpPort() {
        return smtp?.port;
      },
      async start(port = config.port) {
        await server.listen({ port, host: config.host });
        const address = server.server.address() as AddressInfo;
        await warm;
        smtp = await startSmtpListener(
          config,
          runtime.deps,
          mailReader,
          options.senderAuthenticator ??
            createSenderAuthenticator({
              dnsServers: config.dnsServers,
              mta: config.inboundEmailDomain,
              log: logger,
            }),
        );
        return {
          port: address.port,
          url: `http://${config.host}:${address.port}`,
          smtpPort: smtp.port,
        };
      },
      async stop() {
        // Open waits answer first, so the HTTP server's graceful close is not held up by them.
        runtime.deps.waiters.close();
        await server.close();
        await smtp?.close();
        await mailReader.close();
        await runtime.stop();
        await db.close();
      },
    };
  } catch (error) {
    await mailReader.close();
    await started?.stop();
    await db.close();
    throw error;
  }
}

/** Where a request keeps its EntityManager fork once `request.em` has made it. */
const requestFork = Symbol('request EntityManager fork');

async function composeServer(
  config: Config,
  db: Database,
  logger: Logger,
  challenges: ChallengeDeps,
  mailReader: MailReader,
) {
  const cookieSecret = await serverSecret(db.orm.em.fork(), db.sealer, 'cookie-signing');
  const server = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    genReqId: requestId,
    requestIdHeader: false,
    bodyLimit: config.bodyLimit,
    trustProxy: trustProxyOption(config.trustProxy),
    ...transportLimits(config),
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    // The router's own refusals (bad percent-encoding, an over-long path parameter) are the
    // client's mistake and get problem+json like every other error.
    frameworkErrors: (error, _request, reply) =>
      sendProblem(
        reply,
        error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? new AppError('invalid_request', 'A path parameter is too long')
          : toAppError(error).error,
      ),
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
  });

  // Beyond this many open sockets (WebSockets included) new connections are dropped at accept,
  // before they cost a parser, a fork or a database connection.
  server.server.maxConnections = config.httpMaxConnections;

  // A request's fork is made when a route first reads `request.em`, not for every request: the
  // /v1 routes, /graphql and /mcp run on forks of their own (SchemaOperations, the GraphQL
  // context), and a fork per request they never use was a measurable share of their CPU (issue 16).
  server.decorateRequest(requestFork, null);
  server.decorateRequest('em', {
    getter(this: FastifyRequest) {
      const request = this as FastifyRequest & { [requestFork]: EntityManager | null };
      request[requestFork] ??= db.orm.em.fork() as EntityManager;
      return request[requestFork];
    },
  });
  server.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    annotateRequestSpan(request.method, request.routeOptions.url, request.id);
    done();
  });

  registerErrorHandling(server);
  server.decorate('problemTypeBase', config.publicBaseUrl);
  registerErrorDocs(server);
  // helmet's middleware is built once and applied to every response. (@fastify/helmet, used
  // before, called helmet(options) per request, parsing the policy each time: a measurable share
  // of a /v1 request's CPU, issue 16.) The headers are the same on every route.
  const securityHeaders = helmet({
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
  server.addHook('onRequest', (request, reply, done) => {
    securityHeaders(request.raw, reply.raw, (error) => done(error as Error | undefined));
  });
  await registerCors(server, config.corsOrigins);
  await server.register(fastifyCookie, { secret: cookieSecret });
  await server.register(fastifyFormbody, { bodyLimit: config.bodyLimit });

  registerHealth(server, db.orm, { redisUrl: config.redisUrl });
  const metrics = registerMetrics(server);
  metrics.registerMetric(mailReader.histogram);
  challenges.webhooks.register(metrics);
  challenges.metrics.register(metrics);
  // Agent authentication first: the console and the resource faces use its decorations.
  await registerAuth(server, {
    config,
    db,
    logger,
    events: challenges.events,
    clock: challenges.clock,
  });
  // GraphQL, /v1 (+ /openapi.json) and /mcp, all over the one schema.
  await registerFaces(server, { config, db, challenges });
  server.decorate('challenges', challenges);
  await registerIngest(server, config, challenges);
  await server.register(registerConsole(config), { prefix: config.consolePath });
  return server;
}
