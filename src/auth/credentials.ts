/**
 * Credentials on the resource side, the one module every face (/v1, /mcp, /graphql and its
 * WebSocket) calls: `authenticate()` turns a Bearer access token or an `x-api-key` into a
 * Principal; `requireScope()` is the Fastify preHandler built on it.
 *
 * Bearer tokens (RFC 6750 §2.1, header only) must be ours (`agt_`), found in storage (so neither
 * revoked nor swept), unexpired with no tolerance, and addressed to this API (`aud` =
 * PUBLIC_BASE_URL, RFC 8707). Failures are `401` with exactly
 * `WWW-Authenticate: Bearer resource_metadata="…/.well-known/oauth-protected-resource"`; a
 * missing scope is `403` with `Bearer error="insufficient_scope", scope="…"` (RFC 6750 §3.1).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { Config } from '../config.ts';
import { executePrepared, prepared } from '../db/prepared.ts';
import { apiKeyLive, resolveApiKey, toScopes } from '../domain/agents/api-keys.ts';
import { AppError } from '../errors/index.ts';
import { accessTokenLive } from './adapter.ts';
import { consoleSessionLive } from './console-principal.ts';
import { unauthenticatedChallenge } from './metadata.ts';
import type { Principal, Scope } from './principal.ts';
import { accessTokenPrefix } from './provider-internals.ts';
import { tokenHandle } from './revocation.ts';

/** "Last used" is kept to the minute: at most one write per agent a minute, not one a request. */
const touchEveryMs = 60_000;

/** Sent with every Bearer request (it changes a row at most once a minute): prepared (issue 16). */
const TOUCH_REGISTRATION = prepared(
  'agent_registration_touch',
  'update agent_registration set last_used_at = ? where id = ? and (last_used_at is null or last_used_at < ?)',
);

/** Records that the registration's access token was just accepted (the console's "last used"). */
async function touchRegistration(orm: MikroORM, registrationId: string, now: Date) {
  await executePrepared(orm.em.fork(), TOUCH_REGISTRATION, [
    now,
    registrationId,
    new Date(now.getTime() - touchEveryMs),
  ]);
}

/** A refused credential, with the `WWW-Authenticate` value every face must send with it. */
export class CredentialError extends AppError {
  override name = 'CredentialError';
  readonly challenge: string;
  constructor(
    code: 'unauthenticated' | 'insufficient_scope' | 'invalid_request',
    detail: string,
    challenge: string,
  ) {
    super(code, detail);
    this.challenge = challenge;
  }
}

export type CredentialInput =
  | { authorization?: string | undefined; apiKey?: string | undefined }
  | IncomingHttpHeaders;

const single = (value: unknown): string | undefined | null =>
  value === undefined ? undefined : typeof value === 'string' ? value : null;

export class Credentials {
  readonly #provider: Provider;
  readonly #orm: MikroORM;
  readonly #resource: string;
  readonly #challenge: string;
  readonly #clock: () => Date;

  constructor(
    provider: Provider,
    orm: MikroORM,
    config: Pick<Config, 'publicBaseUrl'>,
    /** The runtime's clock: a token's `exp` and a key's last use are judged by it. */
    clock = () => new Date(),
  ) {
    this.#provider = provider;
    this.#orm = orm;
    this.#clock = clock;
    this.#resource = config.publicBaseUrl;
    this.#challenge = unauthenticatedChallenge(config);
  }

  /** The `WWW-Authenticate` value of a 401. */
  get challenge() {
    return this.#challenge;
  }

  /**
   * The refusal of a request whose credential was revoked while it ran (a wait, a stream): 401
   * `unauthenticated`, with RFC 6750 §3.1's `invalid_token` added to the usual challenge.
   */
  revoked(): CredentialError {
    return new CredentialError(
      'unauthenticated',
      'The credential was revoked while the request was running',
      `${this.#challenge}, error="invalid_token", error_description="The credential was revoked"`,
    );
  }

  #refuse(detail: string): never {
    throw new CredentialError('unauthenticated', detail, this.#challenge);
  }

  /** Resolves the caller; throws CredentialError (401, or 400 for two credentials at once). */
  async authenticate(input: CredentialInput): Promise<Principal> {
    const authorization = single(input.authorization);
    const apiKey = single(
      'apiKey' in input ? input.apiKey : (input as IncomingHttpHeaders)['x-api-key'],
    );
    if (authorization === null || apiKey === null) this.#refuse('Send each credential once');
    if (authorization !== undefined && apiKey !== undefined) {
      throw new CredentialError(
        'invalid_request',
        'Send either an Authorization header or an x-api-key header, not both',
        this.#challenge,
      );
    }
    if (authorization !== undefined) return this.#bearer(authorization);
    if (apiKey !== undefined) return this.#apiKey(apiKey);
    return this.#refuse('Credentials are missing: send Authorization: Bearer <token> or x-api-key');
  }

  async #bearer(header: string): Promise<Principal> {
    const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
    if (!match) this.#refuse('The Authorization header must be: Bearer <access token>');
    const value = match[1]!;
    if (!value.startsWith(accessTokenPrefix)) this.#refuse('The access token is not valid');
    const token = await this.#provider.AccessToken.find(value);
    const now = this.#clock().getTime();
    if (!token?.isValid || !token.exp || token.exp * 1000 <= now) {
      this.#refuse('The access token is not valid or has expired');
    }
    const audience = Array.isArray(token.aud) ? token.aud : [token.aud];
    if (audience.length !== 1 || audience[0] !== this.#resource) {
      this.#refuse('The access token is not meant for this API');
    }
    const account = (token.extra as { account?: unknown } | undefined)?.account;
    if (typeof account !== 'string') this.#refuse('The access token is not valid');
    await touchRegistration(this.#orm, token.accountId, new Date(now));
    return {
      kind: 'agent',
      accountId: account,
      credentialId: token.accountId,
      agentId: token.accountId,
      scopes: new Set(toScopes(token.scope ?? '')),
      lineage: [token.accountId, tokenHandle(value)],
    };
  }

  async #apiKey(secret: string): Promise<Principal> {
    const key = await resolveApiKey({ em: this.#orm.em.fork(), clock: this.#clock }, secret.trim());
    if (!key) this.#refuse('The API key is not valid');
    return {
      kind: 'api_key',
      accountId: key.accountId,
      credentialId: key.id,
      agentId: key.id,
      scopes: new Set(key.scopes),
      lineage: [key.id, key.parentKeyId, key.registrationId].filter((id) => id !== null),
    };
  }

  /**
   * Whether the credential behind an authenticated principal is still valid, looked up again
   * without the secret (for open connections: revocation.ts). An agent is judged by its very
   * token when the lineage names it, else by its registration.
   */
  async isLive(principal: Principal, now = this.#clock()): Promise<boolean> {
    if (principal.kind === 'api_key') {
      return apiKeyLive(this.#orm.em.fork(), principal.credentialId);
    }
    if (principal.kind === 'console') {
      return consoleSessionLive(this.#orm.em.fork(), principal.credentialId, now);
    }
    const handle = principal.lineage?.find((id) => id.startsWith('tok_'));
    if (handle) return accessTokenLive(this.#orm, handle.slice('tok_'.length), now);
    const rows = await this.#orm.em
      .fork()
      .execute<{ one: number }[]>(
        "select 1 as one from agent_registration where id = ? and status = 'claimed'",
        [principal.credentialId],
      );
    return rows.length === 1;
  }

  /** Throws the RFC 6750 `insufficient_scope` refusal unless the principal holds `scope`. */
  assertScope(principal: Principal, scope: Scope) {
    if (!principal.scopes.has(scope)) {
      throw new CredentialError(
        'insufficient_scope',
        `This operation needs the scope ${scope}`,
        insufficientScopeChallenge(scope),
      );
    }
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Resolves Bearer tokens and API keys (src/auth/credentials.ts). */
    credentials: Credentials;
  }
  interface FastifyRequest {
    /** The authenticated caller, set by `requireScope`. */
    principal: Principal | null;
  }
}

/** Sends a CredentialError's challenge header; the host's error handler then writes the body. */
export function withChallenge(reply: FastifyReply, error: unknown): unknown {
  if (error instanceof CredentialError && error.status !== 400) {
    reply.header('www-authenticate', error.challenge);
  }
  return error;
}

/** RFC 6750 §3.1: a missing scope is answered with the scope to ask for. */
export const insufficientScopeChallenge = (scope?: string) =>
  `Bearer error="insufficient_scope"${scope ? `, scope="${scope}"` : ''}`;

/**
 * A preHandler for every resource face (/v1, /mcp, /graphql): authenticates the caller and
 * leaves the principal on `request.principal`; a refusal carries its `WWW-Authenticate`.
 * Scopes are then the schema's business.
 */
export async function authenticateRequest(request: FastifyRequest, reply: FastifyReply) {
  try {
    request.principal = await request.server.credentials.authenticate(request.headers);
  } catch (error) {
    throw withChallenge(reply, error);
  }
}

/**
 * A signal aborted (reason `revoked`) if the request's credential is revoked while the request
 * runs, on any instance; the watch is released when the response ends. For requests that can
 * last (waits, streams); call after `authenticateRequest`.
 */
export function revocationSignal(request: FastifyRequest, reply: FastifyReply): AbortSignal {
  const { signal, release } = request.server.revocations.signal(request.principal!);
  reply.raw.once('close', release);
  return signal;
}

/**
 * A preHandler: authenticates the caller, demands `scope`, and leaves the principal on
 * `request.principal`.
 */
export function requireScope(scope: Scope) {
  return async function requireScopeHandler(request: FastifyRequest, reply: FastifyReply) {
    try {
      const principal = await request.server.credentials.authenticate(request.headers);
      request.server.credentials.assertScope(principal, scope);
      request.principal = principal;
    } catch (error) {
      throw withChallenge(reply, error);
    }
  };
}
