/**
 * Mounts oidc-provider inside the Fastify host for an allowlist of routes only:
 *   POST /oauth2/token, POST /oauth2/revoke, GET /oauth2/jwks,
 *   GET /.well-known/oauth-authorization-server, and for MCP hosts (mcp-hosts.ts)
 *   GET /oauth2/authorize (+ its resume route /oauth2/authorize/:uid) and POST /oauth2/register,
 *   the latter limited per client address (oidc-provider leaves rate limits to its host).
 * The raw request is handed to `provider.callback()` (`reply.hijack()`), so the provider keeps its
 * own parsing, checks and wire format; nothing else of the provider is reachable. The one
 * exception is GET /oauth2/jwks, answered from the live key ring (signing-keys.ts): the provider's
 * key set is fixed at start, and a retired key must leave jwks_uri without a restart.
 *
 * Client-less requests (the interface's token and revocation requests carry no client_id): the
 * provider authenticates a client before anything else, and without one answers every request,
 * even an unknown grant type, with "no client authentication mechanism provided". We read the
 * form body here and, when the request has no client authentication at all (no Authorization
 * header, no client_id, client_secret or client_assertion), add `client_id=latchkey-agent`, the
 * default public client (option A of docs/notes/oidc-provider-findings.md §4). Chosen over
 * injecting a fake Basic header (option B) because the client then really is public
 * (`token_endpoint_auth_method: none`, as discovery says), and a stock client that sends
 * `client_id=latchkey-agent` itself (oauth4webapi's `None()` does) is served the same way.
 * What this relies on beyond the provider's documented API (the pre-read body, its body limit, its
 * session cookie) lives in provider-internals.ts, the one seam for the library's internals.
 */
import type { MikroORM } from '@mikro-orm/postgresql';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { hit } from '../domain/throttle/counter.ts';
import { OAuthError } from '../errors/index.ts';
import { oauthClientError, sendOAuthError } from '../http/oauth-error.ts';
import { paths } from './metadata.ts';
import { defaultClientId } from './provider.ts';
import { presetBody, providerBodyLimit, withoutProviderSession } from './provider-internals.ts';

const clientAuthFields = ['client_id', 'client_secret', 'client_assertion'];

function withDefaultClient(request: FastifyRequest, body: string): string {
  if (request.headers.authorization !== undefined) return body;
  const type = request.headers['content-type'] ?? '';
  if (!/^application\/x-www-form-urlencoded\b/i.test(type)) return body;
  const form = new URLSearchParams(body);
  if (clientAuthFields.some((field) => form.has(field))) return body;
  const joiner = body === '' || body.endsWith('&') ? '' : '&';
  return `${body}${joiner}client_id=${encodeURIComponent(defaultClientId)}`;
}

export interface MountOptions {
  orm: MikroORM;
  /** Dynamic client registrations allowed per client address per window. */
  registrationLimit: { max: number; windowSeconds: number };
}

export function mountProvider(
  provider: Provider,
  jwks: () => { keys: unknown[] },
  options: MountOptions,
) {
  const callback = provider.callback();

  const handOver = (request: FastifyRequest, reply: FastifyReply, body?: string) => {
    // Headers Fastify hooks already set (request id, security headers) would be lost by hijack.
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined) reply.raw.setHeader(name, value);
    }
    if (body !== undefined) presetBody(request.raw, body);
    reply.hijack();
    callback(request.raw, reply.raw);
  };

  return async function providerRoutes(app: FastifyInstance) {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser(
      '*',
      { parseAs: 'string', bodyLimit: providerBodyLimit },
      (_request, body, done) => done(null, body),
    );
    app.setErrorHandler((error, request, reply) => {
      const refused = oauthClientError(error, {
        malformed: 'request is malformed',
        tooLarge: 'request body is too large',
      });
      if (refused) return sendOAuthError(reply, refused);
      request.log.error({ err: error }, 'unexpected error before the authorization server');
      return sendOAuthError(reply, new OAuthError('server_error', 'an unexpected error occurred'));
    });

    for (const url of [paths.token, paths.revocation]) {
      app.post(url, (request, reply) => {
        if (request.headers['content-type'] === undefined) {
          // The provider would read this as "no client authentication"; say what is wrong.
          return sendOAuthError(
            reply,
            new OAuthError(
              'invalid_request',
              `only application/x-www-form-urlencoded content-type bodies are supported on POST ${url}`,
            ),
          );
        }
        const raw = typeof request.body === 'string' ? request.body : '';
        // RFC 6749 §5.1 wants Pragma beside the provider's Cache-Control: no-store.
        reply.header('pragma', 'no-cache');
        handOver(request, reply, withDefaultClient(request, raw));
      });
    }
    app.get(paths.authorizationServerMetadata, (request, reply) => handOver(request, reply));
    for (const url of [paths.authorization, `${paths.authorization}/:uid`]) {
      app.get(url, (request, reply) => {
        withoutProviderSession(provider, request.raw);
        handOver(request, reply);
      });
    }
    app.post(paths.registration, async (request, reply) => {
      const { max, windowSeconds } = options.registrationLimit;
      const counted = await hit(
        options.orm.em.fork(),
        `mcp-registration:${request.ip}`,
        windowSeconds,
      );
      if (counted.count > max) {
        const retryAfter = Math.max(
          1,
          Math.ceil((counted.windowEndsAt.getTime() - Date.now()) / 1000),
        );
        return sendOAuthError(
          reply,
          new OAuthError(
            'rate_limited',
            `too many client registrations from this address; retry in ${retryAfter} seconds`,
            { retryAfter },
          ),
        );
      }
      handOver(request, reply, typeof request.body === 'string' ? request.body : '');
    });
    app.get(paths.jwks, (_request, reply) =>
      reply.type('application/jwk-set+json; charset=utf-8').send(jwks()),
    );
  };
}
