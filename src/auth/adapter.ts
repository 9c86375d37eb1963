/**
 * node-oidc-provider's storage adapter on MikroORM (one `oidc_payload` table for every model).
 *
 * Invariants:
 * - Keys are SHA-256 of `model:id`; for opaque tokens the id is the bearer token itself, so the
 *   table never holds a usable token. `jti` is dropped from the stored payload and restored on
 *   `find` from the value the caller already has.
 * - A row whose `expiresAt <= now` is not found (stricter than the provider's clock tolerance).
 * - An AccessToken belongs to a registration (`accountId` = `reg_…`, tenant in `extra.account`).
 *   It is stored only while that registration is claimed by that tenant (a conditional INSERT, so
 *   the grant answers `invalid_grant` for a revoked registration), and — the guarantee — it is
 *   *found* only while that still holds: `find` joins the registration. A token issued in the
 *   instant a revocation commits, on any instance, is therefore dead on arrival, with no row lock
 *   on the hot path (a FOR SHARE lock per issuance cut jwt-bearer throughput sharply on PGlite).
 * - Every call works on its own `em.fork()` (never the global EntityManager).
 */
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { executePrepared, prepared } from '../db/prepared.ts';
import type { OidcPayload } from '../entities/oidc-payload.ts';
import type { RowOf } from '../entities/row.ts';
import { sha256Hex } from './secrets.ts';

/** Thrown by `upsert` when an access token's registration is no longer live. */
export class RegistrationNotLiveError extends Error {
  override name = 'RegistrationNotLiveError';
}

const storageKey = (model: string, id: string) => sha256Hex(`${model}:${id}`);

/** A stored payload; the jsonb column is read whether the driver parsed it or not. */
type Row = Pick<RowOf<OidcPayload>, 'consumed_at'> & {
  payload: RowOf<OidcPayload>['payload'] | string;
};

/** An access token is found only while its registration is claimed under the token's tenant. */
const FIND_ACCESS_TOKEN = prepared(
  'oidc_find_access_token',
  `select p.payload, p.consumed_at from oidc_payload p
   join agent_registration r on r.id = p.account_id and r.status = 'claimed'
     and r.account_id = p.payload->'extra'->>'account'
   where p.id = ? and p.model = ? and p.expires_at > ?`,
  { readOnly: true },
);
const FIND_PAYLOAD = prepared(
  'oidc_find_payload',
  `select payload, consumed_at from oidc_payload
   where id = ? and model = ? and (expires_at is null or expires_at > ?)`,
  { readOnly: true },
);

export function createAdapterFactory(orm: MikroORM) {
  const em = () => orm.em.fork();

  return (model: string): Adapter => ({
    async upsert(id, payload, expiresIn) {
      const { jti: _jti, ...stored } = payload;
      const expiresAt = payload.exp
        ? new Date(payload.exp * 1000)
        : expiresIn
          ? new Date(Date.now() + expiresIn * 1000)
          : null;
      const values = [
        storageKey(model, id),
        model,
        JSON.stringify(stored),
        payload.grantId ?? null,
        payload.accountId ?? null,
        expiresAt,
      ];
      const onConflict = `on conflict (id) do update set payload = excluded.payload,
        grant_id = excluded.grant_id, account_id = excluded.account_id, expires_at = excluded.expires_at`;
      if (model === 'AccessToken') {
        const tenant = (payload.extra as { account?: unknown } | undefined)?.account;
        // One statement: the row is inserted only if the registration is live for that tenant.
        const result = await em().execute(
          `insert into oidc_payload (id, model, payload, grant_id, account_id, expires_at)
           select ?, ?, ?::jsonb, ?, r.id, ? from agent_registration r
           where r.id = ? and r.status = 'claimed' and r.account_id = ?
           ${onConflict}`,
          [
            values[0],
            model,
            values[2],
            values[3],
            expiresAt,
            payload.accountId ?? null,
            typeof tenant === 'string' ? tenant : null,
          ],
          'run',
        );
        if ((result as { affectedRows?: number }).affectedRows !== 1) {
          throw new RegistrationNotLiveError('registration is not live');
        }
        return;
      }
      await em().execute(
        `insert into oidc_payload (id, model, payload, grant_id, account_id, expires_at)
         values (?, ?, ?::jsonb, ?, ?, ?) ${onConflict}`,
        values,
      );
    },

    async find(id) {
      // Every Bearer request looks its access token up: a named prepared statement (issue 16).
      const [row] = await executePrepared<Row>(
        em(),
        model === 'AccessToken' ? FIND_ACCESS_TOKEN : FIND_PAYLOAD,
        [storageKey(model, id), model, new Date()],
      );
      if (!row) return undefined;
      const payload = typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload;
      return {
        ...payload,
        jti: id,
        ...(row.consumed_at
          ? { consumed: Math.floor(new Date(row.consumed_at).getTime() / 1000) }
          : {}),
      };
    },

    async findByUserCode() {
      // Only the device flow looks codes up this way; it is disabled (our claim codes live on the
      // registration). Failing loudly beats silently finding nothing if it is ever switched on.
      throw new Error('findByUserCode is not supported: the device flow is disabled');
    },

    async findByUid(uid) {
      // Sessions of the MCP-host authorization flow (mcp-hosts.ts) are looked up by uid.
      const [row] = await em().execute<Row[]>(
        `select payload, consumed_at from oidc_payload
         where model = ? and payload->>'uid' = ? and (expires_at is null or expires_at > ?)`,
        [model, uid, new Date()],
      );
      if (!row) return undefined;
      const payload = typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload;
      return payload as AdapterPayload;
    },

    async consume(id) {
      await em().execute('update oidc_payload set consumed_at = ? where id = ? and model = ?', [
        new Date(),
        storageKey(model, id),
        model,
      ]);
    },

    async destroy(id) {
      await em().execute('delete from oidc_payload where id = ? and model = ?', [
        storageKey(model, id),
        model,
      ]);
    },

    async revokeByGrantId(grantId) {
      await em().execute('delete from oidc_payload where grant_id = ? and model = ?', [
        grantId,
        model,
      ]);
    },
  });
}

/**
 * Whether the access token stored under `storageKey` would still be found: present, unexpired,
 * and its registration still claimed by its tenant (the same rule as `find`). For re-checking
 * open connections by the token's handle (revocation.ts) without holding the token itself.
 */
export async function accessTokenLive(orm: MikroORM, storageKey: string, now = new Date()) {
  const rows = await orm.em.fork().execute<{ one: number }[]>(
    `select 1 as one from oidc_payload p
     join agent_registration r on r.id = p.account_id and r.status = 'claimed'
       and r.account_id = p.payload->'extra'->>'account'
     where p.id = ? and p.model = 'AccessToken' and p.expires_at > ?`,
    [storageKey, now],
  );
  return rows.length === 1;
}

/** Removes expired rows; safe to run from any number of instances at once. */
export async function sweepExpiredPayloads(orm: MikroORM, now = new Date()) {
  await orm.em.fork().execute('delete from oidc_payload where expires_at <= ?', [now]);
}
