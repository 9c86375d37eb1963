/**
 * Issue 11 §5: sealing keys rotate. `npm run secrets:rotate` (rotateSecretsKey) puts a new key
 * first and re-seals every stored value, after which the old key is no longer needed; and a
 * database from before keys lived outside it (plaintext secrets, version 1 blobs sealed with a key
 * kept in the database) is upgraded at start and loses that key. Always on the embedded database.
 */
import { createCipheriv, randomBytes } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import { afterAll, describe, expect, test } from 'vitest';
import { openDatabase } from '../../src/db/orm.ts';
import { rotateSecretsKey } from '../../src/db/rotate-secrets-key.ts';
import { sealedColumns, signingKeyOwner } from '../../src/db/sealed-columns.ts';
import type { Sealer } from '../../src/db/sealer.ts';
import { keyFilePath, readKeyFile } from '../../src/db/sealing-keys.ts';
import { serverSecret } from '../../src/db/server-secrets.ts';
import { openSession } from '../../src/domain/sessions/open.ts';
import { waitForVerdict } from '../../src/domain/verdicts/wait.ts';
import { newId } from '../../src/entities/base.ts';
import {
  createAccount,
  ctxOf,
  postTwilio,
  principalFor,
  startChallengeApp,
} from '../helpers/challenges.ts';

const scratch = await mkdtemp(path.join(tmpdir(), 'latchkey-rotate-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));
const quiet = () => {};

/** The key id every sealed value in the database names, counted. */
async function keyIdsInUse(em: EntityManager, sealer: Sealer): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const column of sealedColumns) {
    const rows = await em.execute<{ v: Buffer | string }[]>(
      `select ${column.column} as v from ${column.table} where ${column.column} is not null`,
    );
    for (const { v } of rows) {
      const kid = sealer.keyIdOf(v) ?? 'unsealed';
      counts[kid] = (counts[kid] ?? 0) + 1;
    }
  }
  return counts;
}

describe('npm run secrets:rotate', () => {
  test('with the key file: a new key seals, every value is re-sealed and still opens, the old key leaves the file', async () => {
    const dataDir = path.join(scratch, 'file');
    const code = '482913';
    const first = await startChallengeApp({ dataDir });
    const oldKid = first.app.db.sealer.keyId;
    const accountId = await createAccount(first.app);
    const principal = principalFor(accountId);
    const session = await openSession(ctxOf(first.app), principal);
    const cookie = await serverSecret(
      first.app.db.orm.em.fork(),
      first.app.db.sealer,
      'cookie-signing',
    );
    try {
      const body = `Your rotation code is ${code}`;
      expect((await postTwilio(first.baseUrl, { to: session.number!, body })).status).toBe(200);
    } finally {
      await first.stop();
    }

    const result = await rotateSecretsKey({ DATA_DIR: dataDir });
    expect(result.keyId).not.toBe(oldKid);
    expect(result).toMatchObject({ unused: [oldKid], stillUsed: [], removedFromFile: true });
    // cookie secret, user-code pepper, signing key, message body, verdict code
    expect(result.resealed).toBeGreaterThanOrEqual(5);
    const file = keyFilePath(dataDir);
    expect((await readKeyFile(file)).map((k) => k.kid)).toEqual([result.keyId]);
    expect((await stat(file)).mode & 0o777).toBe(0o600);

    const second = await startChallengeApp({ dataDir });
    try {
      const em = second.app.db.orm.em.fork();
      expect(second.app.db.sealer.keyId).toBe(result.keyId);
      expect(await keyIdsInUse(em, second.app.db.sealer)).toEqual({
        [result.keyId]: expect.any(Number),
      });
      expect(await serverSecret(em, second.app.db.sealer, 'cookie-signing')).toBe(cookie);
      const waited = await waitForVerdict(ctxOf(second.app), principal, session.id, { timeout: 5 });
      expect(waited).toMatchObject({ otpCode: code });
    } finally {
      await second.stop();
    }
  });

  test('with SECRETS_KEY: the first key re-seals everything and the old one can then be dropped', async () => {
    const dataDir = path.join(scratch, 'env');
    const oldKey = `old:${randomBytes(32).toString('base64url')}`;
    const newKey = `new:${randomBytes(32).toString('base64url')}`;
    const before = await startChallengeApp({ dataDir, env: { SECRETS_KEY: oldKey } });
    await before.stop();

    const result = await rotateSecretsKey({
      DATA_DIR: dataDir,
      SECRETS_KEY: `${newKey},${oldKey}`,
    });
    expect(result).toMatchObject({ keyId: 'new', unused: ['old'], removedFromFile: false });
    await expect(stat(keyFilePath(dataDir))).rejects.toThrow(/ENOENT/);

    // Only the old key: the secrets no longer open, and the start says which key is missing.
    await expect(
      openDatabase({
        databaseUrl: undefined,
        dataDir,
        sealingKeys: parse(oldKey),
        log: quiet,
      }).then(async (db) => {
        try {
          return await serverSecret(db.orm.em.fork(), db.sealer, 'cookie-signing');
        } finally {
          await db.close();
        }
      }),
    ).rejects.toThrow(/sealed with key "new"/);
    // Only the new key: everything opens.
    const after = await startChallengeApp({ dataDir, env: { SECRETS_KEY: newKey } });
    try {
      expect(await keyIdsInUse(after.app.db.orm.em.fork(), after.app.db.sealer)).toEqual({
        new: expect.any(Number),
      });
    } finally {
      await after.stop();
    }
  });
});

const parse = (entry: string) => {
  const [kid, key] = entry.split(':');
  return [{ kid: kid!, key: Buffer.from(key!, 'base64url') }];
};

/** How the service sealed message bodies before keys lived outside the database (version 1). */
function sealV1(key: Buffer, plaintext: Buffer, owner: string): Buffer {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(owner, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([Buffer.from([1]), nonce, cipher.getAuthTag(), body]);
}

describe('databases from before sealing keys lived outside them', () => {
  test('plaintext secrets and version 1 blobs are sealed with the outside key at start, and the in-database key is deleted', async () => {
    const dataDir = path.join(scratch, 'legacy');
    const legacyKey = randomBytes(32);
    const messageId = newId('msg');
    const body = Buffer.from('Your legacy code is 605112');
    let cookie: string;
    let jwk: { kid: string; json: string };
    const old = await openDatabase({ databaseUrl: undefined, dataDir, log: quiet });
    try {
      // Bring the database to the state the previous release left it in.
      const em = old.orm.em.fork();
      cookie = await serverSecret(em, old.sealer, 'cookie-signing');
      const kid = 'sk_legacy';
      jwk = { kid, json: JSON.stringify({ kid, kty: 'RSA', d: 'private-part' }) };
      await em.execute(`update server_secret set value = ? where name = 'cookie-signing'`, [
        cookie,
      ]);
      await em.execute(
        `insert into signing_key (kid, generation, alg, private_jwk, created_at, activates_at)
         values (?, 1, 'RS256', ?, now(), now())`,
        [jwk.kid, jwk.json],
      );
      await em.execute(
        `insert into server_secret (name, value, created_at) values ('message-sealing-key', ?, now())`,
        [legacyKey.toString('base64url')],
      );
      await em.execute(
        `insert into inbound_message (id, medium, carrier, to_address, from_address, raw_body,
           size_bytes, outcome, received_at) values (?, 'sms', 'twilio', '+12125550100', '+14155550100', ?, ?, 'otp_code', now())`,
        [messageId, sealV1(legacyKey, body, messageId), body.length],
      );
    } finally {
      await old.close();
    }

    const upgraded = await openDatabase({ databaseUrl: undefined, dataDir, log: quiet });
    try {
      const em = upgraded.orm.em.fork();
      const { sealer } = upgraded;
      // The cookie secret, the signing key and the message body.
      expect(await keyIdsInUse(em, sealer)).toEqual({ [sealer.keyId]: 3 });
      const names = await em.execute<{ name: string }[]>('select name from server_secret');
      expect(names.map((n) => n.name)).not.toContain('message-sealing-key');
      expect(await serverSecret(em, sealer, 'cookie-signing')).toBe(cookie);
      const [key] = await em.execute<{ private_jwk: string }[]>(
        'select private_jwk from signing_key where kid = ?',
        [jwk.kid],
      );
      expect(sealer.openText(key!.private_jwk, signingKeyOwner(jwk.kid))).toBe(jwk.json);
      const [message] = await em.execute<{ raw_body: Buffer }[]>(
        'select raw_body from inbound_message where id = ?',
        [messageId],
      );
      expect(sealer.open(message!.raw_body, messageId).equals(body)).toBe(true);
    } finally {
      await upgraded.close();
    }
  });
});
