/**
 * GraphQL at `/graphql`: queries and mutations over HTTP (graphql-yoga, inside the Fastify host,
 * SSE subscriptions included) and subscriptions over WebSocket with the `graphql-transport-ws`
 * protocol (graphql-ws on the same HTTP server and path).
 *
 * Credentials: HTTP requests carry `Authorization: Bearer …` or `x-api-key` and are refused with
 * 401 and the spec's `WWW-Authenticate` before GraphQL runs; WebSocket clients send them in the
 * `connection_init` payload (`{authorization}` or `{"x-api-key"}`) and a bad one closes the
 * socket with 4403 (graphql-ws's refusal of `connection_init`). A credential that cannot be
 * checked (database down) is not a refused one: at connect the socket closes with 1013 so the
 * client retries, and an open socket stays open.
 *
 * Revocation (src/auth/revocation.ts): when the credential of an open socket is revoked, on any
 * instance, the socket is closed at once with 4401 `Unauthorized` — graphql-ws's code for "not
 * authenticated", which its client treats as final instead of reconnecting in a loop with a
 * credential that can never work again. Every operation sent on a socket re-checks the credential
 * first, so nothing (say, minting an API key) runs under a revoked one even before the event
 * arrives. An SSE stream whose credential is revoked receives one `unauthenticated` error and
 * completes; a query or mutation blocked in a wait answers 401.
 */
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { FastifyInstance } from 'fastify';
import { GraphQLError, MaxIntrospectionDepthRule, type ValidationRule } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { createYoga, type Plugin } from 'graphql-yoga';
import { WebSocketServer } from 'ws';
import { consolePrincipal } from '../auth/console-principal.ts';
import {
  authenticateRequest,
  CredentialError,
  type Credentials,
  revocationSignal,
  withChallenge,
} from '../auth/credentials.ts';
import type { Principal } from '../auth/principal.ts';
import type { RevocationWatch } from '../auth/revocation.ts';
import { AppError, isDependencyUnavailable } from '../errors/index.ts';
import type { GraphQLContext, Services } from './context.ts';
import { isUnexpected, maskError } from './errors.ts';
import { graphiqlPage, registerGraphiQL } from './graphiql.ts';
import { schema } from './index.ts';
import { introspectionDepthRule, limitRules, tokenLimit } from './limits.ts';
import { singleWaitRule } from './single-wait.ts';

export interface GraphQLDeps {
  orm: MikroORM;
  credentials: Credentials;
  services: Services;
  revocations: RevocationWatch;
}

/** The largest WebSocket message a client may send, in bytes. */
export const WS_MAX_PAYLOAD = 64 * 1024;

interface ServerContext {
  principal: Principal | null;
  /** Aborted when the HTTP request's credential is revoked (WebSockets close instead). */
  revoked?: AbortSignal;
}

/** graphql-ws close code for a credential revoked while the socket is open. */
export const revokedCloseCode = 4401;
const revokedCloseReason = 'Unauthorized: the credential was revoked';

const revokedError = () =>
  new GraphQLError('The credential was revoked', {
    originalError: new AppError('unauthenticated', 'The credential was revoked'),
    extensions: { code: 'unauthenticated' },
  });

export function createGraphQL(server: FastifyInstance, deps: GraphQLDeps) {
  const yoga = createYoga<ServerContext, GraphQLContext>({
    schema,
    graphqlEndpoint: '/graphql',
    logging: false,
    graphiql: false,
    landingPage: false,
    batching: false,
    plugins: [tokenLimit, stableValidation, endOnRevocation],
    maskedErrors: {
      maskError: (error) => {
        if (isUnexpected(error)) server.log.error({ err: error }, 'unexpected GraphQL error');
        return maskError(error);
      },
    },
    context: ({ principal, request, revoked }): GraphQLContext => ({
      principal,
      em: deps.orm.em.fork() as EntityManager,
      services: deps.services,
      // Over HTTP (and SSE), a client that goes away, or whose credential is revoked, stops its
      // waits and subscriptions.
      signal: request && revoked ? AbortSignal.any([request.signal, revoked]) : request?.signal,
      revoked,
    }),
  });

  // The console's dashboard streams `accountEvents` over SSE with its session cookie
  // (src/auth/console-principal.ts); every other caller presents a credential.
  const consoleOrigin = new URL(deps.services.config.consoleUrl).origin;
  server.route({
    url: '/graphql',
    method: ['GET', 'POST'],
    // A browser asking for a page gets GraphiQL before any credential is asked for; the console's
    // own live stream authenticates with its session cookie; everything else with a credential.
    preHandler: [
      graphiqlPage(deps.services.config.graphiql),
      async (request, reply) => {
        request.principal = await consolePrincipal(request, consoleOrigin);
        if (!request.principal) await authenticateRequest(request, reply);
      },
    ],
    handler: async (request, reply) => {
      const revoked = revocationSignal(request, reply);
      const response = await yoga.handleNodeRequestAndResponse(request, reply, {
        principal: request.principal,
        revoked,
      });
      // A query or mutation cut short by a revocation (a wait) answers 401, not its partial
      // result; a stream has started and ends itself (endOnRevocation).
      const streaming = /^text\/event-stream/.test(response.headers.get('content-type') ?? '');
      if (revoked.aborted && !streaming) {
        await response.body?.cancel();
        throw withChallenge(reply, request.server.credentials.revoked());
      }
      for (const [key, value] of response.headers) reply.header(key, value);
      reply.status(response.status);
      return reply.send(response.body);
    },
  });

  registerGraphiQL(server, deps.services.config.graphiql);

  const wss = new WebSocketServer({
    server: server.server,
    path: '/graphql',
    // Limits before (and after) authentication: a client frame over 64 KiB closes the socket with
    // 1009 instead of being buffered (ws defaults to 100 MiB); no compression, so a small frame
    // cannot inflate into a large one.
    maxPayload: WS_MAX_PAYLOAD,
    perMessageDeflate: false,
  });
  const sockets = useServer<
    Record<string, unknown> | undefined,
    {
      principal?: Principal;
      credential?: { authorization?: string; apiKey?: string };
      release?: () => void;
      operations?: Map<string, AbortController>;
    }
  >(
    {
      // A socket that does not authenticate in time is closed with 4408.
      connectionInitWaitTimeout: deps.services.config.wsConnectionInitTimeout * 1000,
      onConnect: async (ctx) => {
        const params = ctx.connectionParams ?? {};
        const credential = {
          authorization:
            typeof params.authorization === 'string' ? params.authorization : undefined,
          apiKey: typeof params['x-api-key'] === 'string' ? params['x-api-key'] : undefined,
        };
        let principal: Principal;
        try {
          principal = await deps.credentials.authenticate(credential);
        } catch (error) {
          if (error instanceof CredentialError) return false;
          // A credential that could not be checked (database down) is not a refused one: close
          // with 1013 "Try Again Later", which graphql-ws clients retry, never 4403 "Forbidden";
          // anything else is our fault (4500, as graphql-ws itself closes on an internal error).
          if (isDependencyUnavailable(error)) {
            server.log.warn({ err: error }, 'WebSocket credential could not be checked');
            ctx.extra.socket.close(1013, 'Service unavailable; try again later');
          } else {
            server.log.error({ err: error }, 'unexpected error checking a WebSocket credential');
            ctx.extra.socket.close(4500, 'Internal server error');
          }
          return false;
        }
        ctx.extra.principal = principal;
        ctx.extra.credential = credential;
        ctx.extra.release = deps.revocations.watch(principal, () =>
          ctx.extra.socket.close(revokedCloseCode, revokedCloseReason),
        );
        // The socket may have closed while we were authenticating.
        if (ctx.extra.socket.readyState !== ctx.extra.socket.OPEN) ctx.extra.release();
        return true;
      },
      onClose: (ctx) => {
        ctx.extra.release?.();
        for (const abort of ctx.extra.operations?.values() ?? []) abort.abort();
      },
      execute: (args) =>
        (args.rootValue as { execute: typeof import('graphql').execute }).execute(args),
      subscribe: (args) =>
        (args.rootValue as { subscribe: typeof import('graphql').subscribe }).subscribe(args),
      onSubscribe: async (ctx, id, payload) => {
        // Every operation re-checks the credential: a revocation whose event has not arrived
        // yet must not let anything run (such as minting an API key).
        try {
          await deps.credentials.authenticate(ctx.extra.credential ?? {});
        } catch (error) {
          // Only a refused credential ends the socket; an unreachable database fails this
          // operation and leaves the socket (and its other subscriptions) open.
          if (!(error instanceof CredentialError)) return [maskError(error)];
          ctx.extra.socket.close(revokedCloseCode, revokedCloseReason);
          return [revokedError()];
        }
        const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({
          ...ctx,
          req: ctx.extra.request,
          socket: ctx.extra.socket,
          params: payload,
          principal: ctx.extra.principal ?? null,
        });
        let document: ReturnType<typeof parse>;
        try {
          document = parse(payload.query);
        } catch (error) {
          return [maskError(error)];
        }
        const errors = validate(schema, document) as readonly GraphQLError[];
        if (errors.length) return errors.map(maskError);
        // Each operation gets a signal that fires when it completes or the socket closes, so a
        // subscription blocked in a wait stops at once instead of at its timeout.
        const abort = new AbortController();
        ctx.extra.operations ??= new Map();
        ctx.extra.operations.set(id, abort);
        return {
          schema,
          document,
          operationName: payload.operationName,
          variableValues: payload.variables,
          contextValue: { ...(await contextFactory()), signal: abort.signal },
          rootValue: { execute, subscribe },
        };
      },
      onComplete: (ctx, id) => {
        ctx.extra.operations?.get(id)?.abort();
        ctx.extra.operations?.delete(id);
      },
      onError: (_ctx, _id, _payload, errors) => errors.map(maskError),
    },
    wss,
  );
  // graphql-ws reports every socket error with console.error and a 1011 close. Socket errors are
  // the client's doing (a frame over maxPayload, which ws already closed with 1009, bad UTF-8, a
  // reset), so they go to the service log at debug, not to stderr at a rate a client chooses.
  wss.on('connection', (socket) => {
    socket.removeAllListeners('error');
    socket.on('error', (error) =>
      server.log.debug(
        { err: error, code: (error as { code?: string }).code },
        'WebSocket client error',
      ),
    );
  });

  return {
    yoga,
    async close() {
      for (const client of wss.clients) client.close(1001, 'Going away');
      await sockets.dispose();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

/**
 * Ends a subscription over SSE when the request's credential is revoked: one last result with an
 * `unauthenticated` error, then the stream completes (yoga then sends `event: complete`).
 */
const endOnRevocation: Plugin<GraphQLContext> = {
  onSubscribe: ({ args }) => ({
    onSubscribeResult: ({ result, setResult }) => {
      const revoked = (args.contextValue as GraphQLContext).revoked;
      if (!revoked || !(Symbol.asyncIterator in result)) return;
      setResult(untilRevoked(result, revoked));
    },
  }),
};

async function* untilRevoked<T>(source: AsyncIterable<T>, revoked: AbortSignal) {
  const iterator = source[Symbol.asyncIterator]();
  const ended = new Promise<'revoked'>((resolve) => {
    if (revoked.aborted) resolve('revoked');
    else revoked.addEventListener('abort', () => resolve('revoked'), { once: true });
  });
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), ended]);
      if (next === 'revoked') {
        yield { errors: [revokedError()] } as T;
        return;
      }
      if (next.done) return;
      yield next.value;
    }
  } finally {
    // Not awaited: a source blocked in a wait finishes on its own signal (the context's, which
    // the revocation aborts too); the stream must not wait for it.
    void Promise.resolve(iterator.return?.()).catch(() => {});
  }
}

/**
 * Validation answers with the stable codes (yoga would add GRAPHQL_VALIDATION_FAILED). Ordinary
 * operations are limited by GraphQL Armor's maintained rules (depth, aliases and cost; tokens at
 * parse time, below); introspection is left to graphql-js 16's own MaxIntrospectionDepthRule (a
 * specified rule), so the standard introspection query that GraphiQL, graphql-codegen, Postman
 * and Apollo send answers the full schema while the amplifying `fields { type { fields … } }`
 * nesting is still refused.
 */
const stableValidation: Plugin = {
  onValidate: ({ params, addValidationRule }) => {
    // The specified rules are in place already (yoga's engine adds them first).
    const rules = params.rules as ValidationRule[] | undefined;
    const introspection = rules?.indexOf(MaxIntrospectionDepthRule) ?? -1;
    if (rules && introspection >= 0) rules[introspection] = introspectionDepthRule;
    for (const rule of limitRules) addValidationRule(rule);
    addValidationRule(singleWaitRule);
    return ({ valid, result }) => {
      if (valid) return;
      for (const error of result)
        (error.extensions as Record<string, unknown>).code = maskError(error).extensions.code;
    };
  },
};
