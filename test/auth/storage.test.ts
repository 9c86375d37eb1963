/**
 * At rest: every token, code, claim token and key is stored only as a digest; storage treats an
 * expired row as absent; the sweeper removes expired rows and is safe to run concurrently.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createAdapterFactory } from '../../src/auth/adapter.ts';
import { sweepOnce } from '../../src/auth/sweeper.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import {
  attemptToken,
  bearer,
  claimedAgent,
  email,
  jwtBearer,
  postJson,
  register,
  token,
} from './support.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.stop());

const sql = (query: string, params: unknown[] = []) =>
  t.app.db.orm.em.fork().getConnection().execute(query, params);

describe('digests only', () => {
  test('no secret handed out appears anywhere in the database', async () => {
    const agent = await claimedAgent(t, email('rest'), { scope: 'keys:manage' });
    const refreshed = (await token(t, { grant_type: jwtBearer, assertion: agent.assertion })).body
      .access_token;
    const key = (
      await postJson(`${t.baseUrl}/v1/api-keys`, { name: 'k' }, bearer(agent.accessToken))
    ).body.key;
    const pending = await register(t, email('rest-pending'));

    const secrets = [
      agent.accessToken,
      agent.accessToken.slice(4),
      refreshed,
      refreshed.slice(4),
      agent.registration.claim_token,
      attemptToken(agent.registration),
      agent.registration.claim.user_code,
      agent.registration.claim.user_code.replace('-', ''),
      pending.claim_token,
      attemptToken(pending),
      pending.claim.user_code.replace('-', ''),
      key,
      key.slice(8),
      agent.assertion,
      agent.assertion.split('.')[2]!,
    ];
    const tables = await sql(
      "select table_name from information_schema.tables where table_schema = 'public'",
    );
    for (const { table_name } of tables as { table_name: string }[]) {
      const dump = JSON.stringify(await sql(`select * from "${table_name}"`));
      for (const secret of secrets)
        expect(dump, `${table_name} holds a secret`).not.toContain(secret);
    }
  });

  test('access tokens are agt_ plus 256 random bits', async () => {
    const agent = await claimedAgent(t, email('shape'));
    expect(agent.accessToken).toMatch(/^agt_[A-Za-z0-9_-]{43}$/);
  });
});

describe('the provider adapter', () => {
  test('a row whose expiry has passed is not found, whatever the provider tolerates', async () => {
    const adapter = createAdapterFactory(t.app.db.orm)('ClientCredentials');
    await adapter.upsert(
      'probe-token',
      { clientId: 'c', exp: Math.floor(Date.now() / 1000) + 60, iat: 1 },
      60,
    );
    expect(await adapter.find('probe-token')).toMatchObject({ clientId: 'c', jti: 'probe-token' });
    await sql(
      "update oidc_payload set expires_at = now() - interval '1 millisecond' where model = 'ClientCredentials'",
    );
    expect(await adapter.find('probe-token')).toBeUndefined();
  });

  test('consume marks and destroy removes; the stored payload has no jti', async () => {
    const adapter = createAdapterFactory(t.app.db.orm)('ClientCredentials');
    await adapter.upsert('probe-2', { clientId: 'c', jti: 'probe-2' }, 60);
    const [row] = await sql(
      "select payload from oidc_payload where model = 'ClientCredentials' and payload->>'clientId' = 'c' and expires_at > now()",
    );
    expect(JSON.stringify(row.payload)).not.toContain('probe-2');
    await adapter.consume('probe-2');
    expect((await adapter.find('probe-2'))?.consumed).toEqual(expect.any(Number));
    await adapter.destroy('probe-2');
    expect(await adapter.find('probe-2')).toBeUndefined();
  });

  test('a token of a revoked registration is never honoured, even before it is deleted', async () => {
    const agent = await claimedAgent(t, email('undeleted'), { scope: 'keys:manage' });
    // Revoke the registration the way a racing instance might see it: status first, rows still there.
    // (revokeRegistration deletes the rows in the same transaction; a racing reader may still
    // see the status change alone.)
    await sql("update agent_registration set status = 'revoked' where id = ?", [
      agent.registration.registration_id,
    ]);
    expect(
      await sql('select id from oidc_payload where account_id = ?', [
        agent.registration.registration_id,
      ]),
    ).toHaveLength(1);
    await expect(
      t.app.server.credentials.authenticate(bearer(agent.accessToken)),
    ).rejects.toMatchObject({ status: 401 });
  });

  test('a stored token whose tenant was tampered with is not found', async () => {
    const agent = await claimedAgent(t, email('tampered'), { scope: 'keys:manage' });
    await sql(
      `update oidc_payload set payload = jsonb_set(payload, '{extra,account}', '"acc_someoneelse"') where account_id = ?`,
      [agent.registration.registration_id],
    );
    await expect(
      t.app.server.credentials.authenticate(bearer(agent.accessToken)),
    ).rejects.toMatchObject({ status: 401 });
  });

  test('an access token for a registration that is not claimed is never stored', async () => {
    const adapter = createAdapterFactory(t.app.db.orm)('AccessToken');
    const pending = await register(t, email('not-live'));
    await expect(
      adapter.upsert(
        'agt_forged',
        {
          accountId: pending.registration_id,
          extra: { account: 'acc_x' },
          exp: Math.floor(Date.now() / 1000) + 60,
        },
        60,
      ),
    ).rejects.toThrow('registration is not live');
    expect(await adapter.find('agt_forged')).toBeUndefined();
  });
});

describe('the sweeper', () => {
  test('removes expired rows only, and may run on several instances at once', async () => {
    const agent = await claimedAgent(t, email('sweep'), { scope: 'keys:manage' });
    const stale = await register(t, email('stale'));
    const past = new Date(Date.now() - 3 * 24 * 3600 * 1000);
    await sql(
      'update agent_registration set claim_token_expires_at = ?, code_expires_at = ? where id = ?',
      [past, past, stale.registration_id],
    );
    await sql(
      "insert into oidc_payload (id, model, payload, expires_at) values ('expired-row', 'AccessToken', '{}', ?)",
      [past],
    );
    await sql(
      "insert into security_event_receipt (id, issuer, received_at, expires_at) values ('old-receipt', 'x', ?, ?)",
      [past, past],
    );

    await Promise.all([sweepOnce(t.app.db.orm), sweepOnce(t.app.db.orm), sweepOnce(t.app.db.orm)]);

    expect(await sql("select id from oidc_payload where id = 'expired-row'")).toEqual([]);
    expect(await sql("select id from security_event_receipt where id = 'old-receipt'")).toEqual([]);
    expect(
      await sql('select id from agent_registration where id = ?', [stale.registration_id]),
    ).toEqual([]);
    // Live things stay.
    expect(
      await sql('select id from agent_registration where id = ?', [
        agent.registration.registration_id,
      ]),
    ).toHaveLength(1);
    expect((await t.app.server.credentials.authenticate(bearer(agent.accessToken))).kind).toBe(
      'agent',
    );
  });
});
