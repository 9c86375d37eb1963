/**
 * Identity-assertion signing keys: generated once on first start (instances agree), published at
 * jwks_uri, rotatable without invalidating live assertions, or given by environment.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { decodeProtectedHeader, exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { retire, rotate } from '../../src/auth/rotate-signing-key.ts';
import {
  loadKeyRing,
  refreshKeyRing,
  retireSigningKey,
  rotateSigningKey,
} from '../../src/auth/signing-keys.ts';
import { sweepOnce } from '../../src/auth/sweeper.ts';
import { freePort, startTestApp, type TestApp } from '../helpers/app.ts';
import { claimedAgent, email, get, jwtBearer, token } from './support.ts';

describe('keys kept in the database', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.stop());

  test('the first start generates one key; later or racing loads agree on it', async () => {
    const rows = await t.app.db.orm.em
      .fork()
      .getConnection()
      .execute('select kid, generation from signing_key');
    expect(rows).toHaveLength(1);
    const rings = await Promise.all(
      Array.from({ length: 4 }, () =>
        loadKeyRing(t.app.db.orm.em.fork(), undefined, t.app.db.sealer),
      ),
    );
    for (const ring of rings) expect(ring.signingKey().kid).toBe(rows[0].kid);
    expect(
      await t.app.db.orm.em.fork().getConnection().execute('select kid from signing_key'),
    ).toHaveLength(1);
    expect(t.app.server.agentAuth.keys.signingKey().kid).toBe(rows[0].kid);
  });

  test('assertions carry the kid of the signing key', async () => {
    const agent = await claimedAgent(t, email('kid'));
    expect(decodeProtectedHeader(agent.assertion)).toEqual({
      alg: 'RS256',
      kid: t.app.server.agentAuth.keys.signingKey().kid,
      typ: 'oauth-id-jag+jwt',
    });
  });
});

describe('rotation', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'latchkey-keys-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  test('a rotated key signs new assertions while assertions of the old key stay valid', async () => {
    // Same data and same PUBLIC_BASE_URL: the issuer an assertion names must stay the same.
    const port = await freePort();
    const before = await startTestApp({ dataDir, port });
    const oldKid = before.app.server.agentAuth.keys.signingKey().kid;
    const agent = await claimedAgent(before, email('rotation'));
    await before.stop();
    // The operator command, on the stopped service's data directory.
    const { kid: newKid } = await rotate([], { DATA_DIR: dataDir });

    const after = await startTestApp({ dataDir, port });
    try {
      expect(after.app.server.agentAuth.keys.signingKey().kid).toBe(newKid);
      const jwks = (await get(`${after.baseUrl}/oauth2/jwks`)).body;
      expect(jwks.keys.map((k: { kid: string }) => k.kid).sort()).toEqual([oldKid, newKid].sort());
      // The old assertion still refreshes…
      const refreshed = await token(after, { grant_type: jwtBearer, assertion: agent.assertion });
      expect(refreshed.status).toBe(200);
      // …and new claims are signed with the new key.
      const fresh = await claimedAgent(after, email('rotation-new'));
      expect(decodeProtectedHeader(fresh.assertion).kid).toBe(newKid);

      // Once the old key is past its retirement (every assertion it signed has expired), the
      // sweeper removes it.
      const [old] = await after.app.db.orm.em
        .fork()
        .getConnection()
        .execute('select retires_at from signing_key where kid = ?', [oldKid]);
      expect(new Date(old.retires_at).getTime()).toBeGreaterThan(Date.now() + 2591000_000);
      await sweepOnce(after.app.db.orm, new Date(new Date(old.retires_at).getTime() + 1000));
      const left = await after.app.db.orm.em
        .fork()
        .getConnection()
        .execute('select kid from signing_key');
      expect((left as { kid: string }[]).map((r) => r.kid)).toEqual([newKid]);
    } finally {
      await after.stop();
    }
  }, 120_000);
});

test('the rotation command refuses environment-given keys and a bad delay', async () => {
  await expect(
    rotate([], { IDENTITY_SIGNING_KEYS: '[{"kty":"EC","crv":"P-256","d":"x","kid":"k"}]' }),
  ).rejects.toThrow('IDENTITY_SIGNING_KEYS is set');
  await expect(rotate(['--activate-in', 'soon'], {})).rejects.toThrow(
    '--activate-in takes a whole number of seconds',
  );
});

describe('keys given by environment (IDENTITY_SIGNING_KEYS)', () => {
  let t: TestApp;
  const kids = ['env-new', 'env-old'];
  beforeAll(async () => {
    const keys = await Promise.all(
      kids.map(async (kid) => ({
        ...(await exportJWK((await generateKeyPair('ES256', { extractable: true })).privateKey)),
        kid,
      })),
    );
    t = await startTestApp({ env: { IDENTITY_SIGNING_KEYS: JSON.stringify(keys) } });
  });
  afterAll(() => t?.stop());

  test('the first signs (ES256 keys work too), all are published, none is stored', async () => {
    const jwks = (await get(`${t.baseUrl}/oauth2/jwks`)).body;
    expect(jwks.keys.map((k: { kid: string }) => k.kid).sort()).toEqual([...kids].sort());
    for (const key of jwks.keys) expect(key).not.toHaveProperty('d');
    const agent = await claimedAgent(t, email('env'));
    expect(decodeProtectedHeader(agent.assertion)).toMatchObject({ kid: 'env-new', alg: 'ES256' });
    expect((await token(t, { grant_type: jwtBearer, assertion: agent.assertion })).status).toBe(
      200,
    );
    expect(
      await t.app.db.orm.em.fork().getConnection().execute('select kid from signing_key'),
    ).toEqual([]);
  });
});

describe('retirement without a restart (issue 11 §3)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Re-read every second, so the running instance is seen picking changes up by itself.
    t = await startTestApp({ env: { SIGNING_KEYS_REFRESH_INTERVAL: '1' } });
  });
  afterAll(() => t?.stop());

  const publishedKids = async () =>
    ((await get(`${t.baseUrl}/oauth2/jwks`)).body.keys as { kid: string }[])
      .map((k) => k.kid)
      .sort();

  test('a retired key leaves jwks_uri and its assertions stop refreshing, while the new key serves', async () => {
    const oldKid = t.app.server.agentAuth.keys.signingKey().kid;
    const agent = await claimedAgent(t, email('retired'));
    const em = t.app.db.orm.em.fork();
    const newKid = await rotateSigningKey(em, t.app.db.sealer, { assertionTtl: 3600 });
    // The running instance publishes the new key and signs with it, with no restart.
    await expect.poll(publishedKids, { timeout: 5000 }).toEqual([oldKid, newKid].sort());
    expect(t.app.server.agentAuth.keys.signingKey().kid).toBe(newKid);
    expect((await token(t, { grant_type: jwtBearer, assertion: agent.assertion })).status).toBe(
      200,
    );

    // The old key is compromised: retired now, on the running instance.
    expect(await retireSigningKey(em, oldKid)).toBe(true);
    await expect.poll(publishedKids, { timeout: 5000 }).toEqual([newKid]);
    const refused = await token(t, { grant_type: jwtBearer, assertion: agent.assertion });
    expect(refused.body).toEqual({
      error: 'invalid_grant',
      error_description: 'the identity assertion is not valid',
    });
    const fresh = await claimedAgent(t, email('after-retirement'));
    expect(decodeProtectedHeader(fresh.assertion).kid).toBe(newKid);
    expect((await token(t, { grant_type: jwtBearer, assertion: fresh.assertion })).status).toBe(
      200,
    );
  });

  test('a key stops verifying at its retirement time, before the keys are even re-read', async () => {
    const agent = await claimedAgent(t, email('retires-later'));
    const kid = decodeProtectedHeader(agent.assertion).kid!;
    const retiresAt = new Date(Date.now() + 3600_000);
    await t.app.db.orm.em
      .fork()
      .getConnection()
      .execute('update signing_key set retires_at = ? where kid = ?', [retiresAt, kid]);
    await refreshKeyRing(t.app.db.orm.em.fork(), t.app.db.sealer, t.app.server.agentAuth.keys);
    const { assertions } = t.app.server.agentAuth;
    await expect(assertions.verify(agent.assertion)).resolves.toMatchObject({
      registrationId: agent.registration.registration_id,
    });
    // An hour later the assertion itself is still unexpired (ASSERTION_TTL), but its key is not.
    await expect(
      assertions.verify(agent.assertion, new Date(retiresAt.getTime() + 1000)),
    ).rejects.toThrow('the identity assertion is not valid');
  });

  test('the retire command refuses environment-given keys and a missing kid', async () => {
    await expect(
      retire(['--retire', 'k'], {
        IDENTITY_SIGNING_KEYS: '[{"kty":"EC","crv":"P-256","d":"x","kid":"k"}]',
      }),
    ).rejects.toThrow('IDENTITY_SIGNING_KEYS is set');
    await expect(retire(['--retire'], {})).rejects.toThrow('--retire takes the kid of a key');
  });
});
