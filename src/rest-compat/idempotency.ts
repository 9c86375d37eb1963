/**
 * `Idempotency-Key` for the /v1 routes that create or bill (POST /v1/sessions, POST
 * /v1/sessions/:id/reroute, POST /v1/webhooks): 24 h per credential.
 *
 * Insert first: the request reserves (credential, key) with its fingerprint before it runs, in
 * one statement, so of two identical requests racing only one executes; the other is told the
 * first is still in progress (409, `Retry-After`) and, once it finished, gets its answer replayed.
 * The same key with another route or body is `idempotency_key_reused` (422). A request that
 * failed releases its key, so the client may retry with the same key. Stored answers can carry
 * secrets (a webhook's `whsec_…`), so they are sealed at rest like message bodies.
 */
import { createHash } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { ChallengeDeps } from '../domain/context.ts';
import { AppError } from '../errors/index.ts';

export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export type Reservation = { kind: 'new' } | { kind: 'replay'; status: number; body: unknown };

/** JSON with object keys sorted, so `{a,b}` and `{b,a}` are the same request. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export function fingerprint(route: string, params: unknown, body: unknown): string {
  return createHash('sha256')
    .update(`${route}\n${canonical(params)}\n${canonical(body)}`)
    .digest('hex');
}

export function checkKey(raw: string | string[] | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (key === undefined || !KEY_PATTERN.test(key)) {
    throw new AppError('invalid_request', 'Idempotency-Key: 1 to 255 visible ASCII characters', {
      extra: { field: 'Idempotency-Key' },
    });
  }
  return key;
}

export class IdempotencyStore {
  readonly #orm: MikroORM;
  readonly #deps: ChallengeDeps;

  constructor(orm: MikroORM, deps: ChallengeDeps) {
    this.#orm = orm;
    this.#deps = deps;
  }

  async begin(credentialId: string, key: string, hash: string): Promise<Reservation> {
    const now = this.#deps.clock();
    const em = this.#orm.em.fork();
    // A new reservation, or a lapsed one (older than 24 h) taken over — one statement.
    const reserved = await em.execute<{ key: string }[]>(
      `insert into idempotency_key (credential_id, key, request_hash, created_at)
       values (?, ?, ?, ?)
       on conflict (credential_id, key) do update
         set request_hash = excluded.request_hash, status_code = null, response = null,
           created_at = excluded.created_at
         where idempotency_key.created_at <= ?
       returning key`,
      [credentialId, key, hash, now, new Date(now.getTime() - IDEMPOTENCY_TTL_MS)],
    );
    if (reserved.length) return { kind: 'new' };
    const [row] = await em.execute<
      { request_hash: string; status_code: number | null; response: Buffer | null }[]
    >(
      'select request_hash, status_code, response from idempotency_key where credential_id = ? and key = ?',
      [credentialId, key],
    );
    if (!row) {
      // Released between our insert and this read (the first request failed): try once more.
      return this.begin(credentialId, key, hash);
    }
    if (row.request_hash !== hash) {
      throw new AppError(
        'idempotency_key_reused',
        'This Idempotency-Key was already used for a different request',
      );
    }
    if (row.status_code === null) {
      throw new AppError(
        'idempotency_request_in_progress',
        'The first request with this Idempotency-Key has not finished yet',
        { retryAfter: 1 },
      );
    }
    const body = row.response
      ? JSON.parse(this.#deps.sealer.open(row.response, this.#aad(credentialId, key)).toString())
      : null;
    return { kind: 'replay', status: row.status_code, body };
  }

  async complete(credentialId: string, key: string, status: number, body: unknown) {
    const sealed =
      body === null || body === undefined
        ? null
        : this.#deps.sealer.seal(Buffer.from(JSON.stringify(body)), this.#aad(credentialId, key));
    await this.#orm.em
      .fork()
      .execute(
        'update idempotency_key set status_code = ?, response = ? where credential_id = ? and key = ?',
        [status, sealed, credentialId, key],
      );
  }

  async release(credentialId: string, key: string) {
    await this.#orm.em
      .fork()
      .execute(
        'delete from idempotency_key where credential_id = ? and key = ? and status_code is null',
        [credentialId, key],
      );
  }

  #aad = (credentialId: string, key: string) => `idempotency:${credentialId}:${key}`;
}
