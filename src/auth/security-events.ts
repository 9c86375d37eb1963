/**
 * `POST /agent/event/notify`: Security Event Tokens (RFC 8417) pushed as in RFC 8935, from the
 * issuers in EVENTS_TRUSTED_ISSUERS. The one supported event,
 * `{events_schema_base}/events/agent/auth/identity/assertion/revoked`, names a registration as an
 * RFC 9493 `iss_sub` subject (`iss` = this issuer, `sub` = registration id) and revokes it together
 * with every access token derived from it; later jwt-bearer exchanges are `invalid_grant`.
 *
 * Checks, in order: content type `application/secevent+jwt`; a compact JWS; a trusted `iss`;
 * the signature with that issuer's keys (never `alg: none`); header `typ` secevent+jwt; `aud` =
 * PUBLIC_BASE_URL; `iat` no older than EVENTS_MAX_AGE (and not in the future); a `jti`; the event.
 * Answers: 202 on success; 400 `{err, description}` with RFC 8935 codes otherwise. A `jti` seen
 * before (remembered in the database for longer than EVENTS_MAX_AGE) is acknowledged with 202 and
 * changes nothing. Receipt, revocation and token and key deletion commit together; then the
 * revocation is announced to every instance, which ends the agent's open subscriptions, streams
 * and waits (revocation.ts).
 */
import type { MikroORM } from '@mikro-orm/postgresql';
import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  type JSONWebKeySet,
  errors as joseErrors,
  jwtVerify,
} from 'jose';
import type { Config } from '../config.ts';
import { revokeRegistration } from '../domain/agents/registrations.ts';
import { type SecurityEventErrorCode, securityEventErrorCodes } from '../errors/index.ts';
import type { EventBus } from '../events/bus.ts';
import { paths, revokedEventType } from './metadata.ts';
import { announceRevocation } from './revocation.ts';
import { sha256Hex } from './secrets.ts';

const bodyLimit = 16 * 1024;
const futureSkewSeconds = 60;
const acceptedAlgorithms = ['ES256', 'ES384', 'ES512', 'RS256', 'PS256', 'EdDSA'];

/** The RFC 8935 codes an event is refused with (src/errors/oauth.ts lists every code sent). */
type ErrCode = Exclude<SecurityEventErrorCode, 'temporarily_unavailable' | 'internal_error'>;

class EventRefused extends Error {
  readonly err: ErrCode;
  constructor(err: ErrCode, description: string) {
    super(description);
    this.err = err;
  }
}

type KeySet = ReturnType<typeof createLocalJWKSet> | ReturnType<typeof createRemoteJWKSet>;

export interface SecurityEventsDeps {
  config: Config;
  orm: MikroORM;
  /** Where the revocation is announced after commit, to end open connections everywhere. */
  events: EventBus;
  /** The runtime's clock: the revocation is stamped with it. */
  clock: () => Date;
}

export function securityEventRoutes({ config, orm, events, clock }: SecurityEventsDeps) {
  const trusted = new Map<string, KeySet>();
  for (const entry of config.trustedEventIssuers) {
    trusted.set(
      entry.issuer,
      'jwks_uri' in entry
        ? createRemoteJWKSet(new URL(entry.jwks_uri))
        : createLocalJWKSet(entry.jwks as unknown as JSONWebKeySet),
    );
  }
  const eventType = revokedEventType(config);

  async function verify(raw: string) {
    let issuer: unknown;
    try {
      const header = decodeProtectedHeader(raw);
      if (!header.alg || header.alg === 'none') {
        throw new EventRefused('invalid_key', 'the event must be signed');
      }
      issuer = decodeJwt(raw).iss;
    } catch (error) {
      if (error instanceof EventRefused) throw error;
      throw new EventRefused('invalid_request', 'the body is not a signed JWT');
    }
    const keys = typeof issuer === 'string' ? trusted.get(issuer) : undefined;
    if (!keys) throw new EventRefused('invalid_issuer', 'the issuer is not trusted');
    try {
      const { payload } = await jwtVerify(raw, keys, {
        issuer: issuer as string,
        audience: config.publicBaseUrl,
        typ: 'secevent+jwt',
        algorithms: acceptedAlgorithms,
        requiredClaims: ['jti', 'iat', 'events'],
        maxTokenAge: config.eventsMaxAge,
        clockTolerance: futureSkewSeconds,
      });
      return payload;
    } catch (error) {
      throw refusalOf(error);
    }
  }

  async function receive(raw: string): Promise<string[] | null> {
    const payload = await verify(raw);
    const now = Math.floor(Date.now() / 1000);
    if (typeof payload.iat !== 'number' || payload.iat > now + futureSkewSeconds) {
      throw new EventRefused('invalid_request', 'iat is in the future');
    }
    if (typeof payload.jti !== 'string' || payload.jti === '' || payload.jti.length > 500) {
      throw new EventRefused('invalid_request', 'jti is required');
    }
    const events = payload.events as Record<string, unknown> | undefined;
    const event = events && typeof events === 'object' ? events[eventType] : undefined;
    if (!event || typeof event !== 'object') {
      throw new EventRefused('invalid_request', `no supported event; supported: ${eventType}`);
    }
    const subject =
      (event as { subject?: unknown }).subject ?? (payload as { sub_id?: unknown }).sub_id;
    const { format, iss, sub } = (subject ?? {}) as Record<string, unknown>;
    if (format !== 'iss_sub' || typeof sub !== 'string' || typeof iss !== 'string') {
      throw new EventRefused(
        'invalid_request',
        'the subject must be an iss_sub subject identifier',
      );
    }
    if (iss !== config.publicBaseUrl) {
      throw new EventRefused('invalid_request', 'the subject was not issued by this server');
    }
    const receiptExpires = new Date((payload.iat + config.eventsMaxAge + futureSkewSeconds) * 1000);
    return orm.em.fork().transactional(async (tx) => {
      const fresh = await tx.execute<{ id: string }[]>(
        `insert into security_event_receipt (id, issuer, received_at, expires_at)
         values (?, ?, ?, ?) on conflict (id) do nothing returning id`,
        [sha256Hex(`${payload.iss}\n${payload.jti}`), payload.iss, new Date(), receiptExpires],
      );
      if (fresh.length === 0) return null; // a replay: acknowledged, nothing changes
      // The status change is what stops the tokens and keys (adapter.ts and
      // domain/agents/api-keys.ts find none of a revoked registration); deleting them keeps
      // nothing usable at rest.
      return revokeRegistration({ em: tx, clock }, sub);
    });
  }

  const refuse = (
    reply: FastifyReply,
    err: SecurityEventErrorCode,
    description: string,
    status: number = securityEventErrorCodes[err].status,
  ) => reply.status(status).header('cache-control', 'no-store').send({ err, description });

  return async function securityEvents(app: FastifyInstance) {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser(
      /^application\/secevent\+jwt\b/i,
      { parseAs: 'string', bodyLimit },
      (_request, body, done) => done(null, body),
    );
    app.setErrorHandler((error, request, reply) => {
      if (error instanceof EventRefused) return refuse(reply, error.err, error.message);
      const status = (error as { statusCode?: number }).statusCode;
      if (status === 413) return refuse(reply, 'invalid_request', 'the body is too large', 413);
      if (status && status >= 400 && status < 500) {
        return refuse(reply, 'invalid_request', 'the body must be application/secevent+jwt');
      }
      if (error instanceof KeysUnavailable) {
        return refuse(reply, 'temporarily_unavailable', error.message);
      }
      request.log.error({ err: error }, 'security event failed');
      return refuse(reply, 'internal_error', 'an unexpected error occurred');
    });

    app.post(paths.events, async (request, reply) => {
      if (typeof request.body !== 'string' || request.body.trim() === '') {
        throw new EventRefused('invalid_request', 'the body must be application/secevent+jwt');
      }
      const revoked = await receive(request.body.trim());
      // Committed: now end what runs under the revoked credentials, on every instance.
      if (revoked) await announceRevocation(events, revoked, request.log);
      request.log.info({ component: 'events' }, 'security event accepted');
      return reply.status(202).header('cache-control', 'no-store').send();
    });
  };
}

/** The issuer's keys could not be fetched: the sender should retry later. */
class KeysUnavailable extends Error {
  override name = 'KeysUnavailable';
}

function refusalOf(error: unknown): Error {
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    if (error.claim === 'aud')
      return new EventRefused('invalid_audience', 'aud must be this server');
    if (error.claim === 'iss')
      return new EventRefused('invalid_issuer', 'the issuer is not trusted');
    if (error.claim === 'iat') return new EventRefused('invalid_request', 'iat is in the future');
    return new EventRefused('invalid_request', `claim check failed: ${error.claim}`);
  }
  if (error instanceof joseErrors.JWTExpired) {
    return new EventRefused(
      'invalid_request',
      error.claim === 'iat' ? 'the event is too old (iat)' : 'the event has expired',
    );
  }
  if (
    error instanceof joseErrors.JWKSTimeout ||
    error instanceof joseErrors.JWKSInvalid ||
    !(error instanceof joseErrors.JOSEError)
  ) {
    // Timeouts, unreachable or garbled JWKS URLs (fetch errors are not JOSE errors).
    return new KeysUnavailable('the issuer keys could not be fetched; retry later');
  }
  if (
    error instanceof joseErrors.JWSSignatureVerificationFailed ||
    error instanceof joseErrors.JWKSNoMatchingKey ||
    error instanceof joseErrors.JWKSMultipleMatchingKeys ||
    error instanceof joseErrors.JOSEAlgNotAllowed ||
    error instanceof joseErrors.JOSENotSupported
  ) {
    return new EventRefused('invalid_key', 'the signature does not verify with the issuer keys');
  }
  return new EventRefused('invalid_request', 'the event is not a valid security event token');
}
