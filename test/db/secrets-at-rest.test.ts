/**
 * Issue 11 §5: the embedded database's files hold neither the sealing key nor anything it seals in
 * the clear. A real SMS goes in through the Twilio webhook, its code comes out through a wait, and
 * then every file under DATA_DIR/pgdata is searched for the key (raw and as text), the message,
 * the code, the server's own secrets and the signing key's private part.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { serverSecret } from '../../src/db/server-secrets.ts';
import { openSession } from '../../src/domain/sessions/open.ts';
import { waitForVerdict } from '../../src/domain/verdicts/wait.ts';
import {
  createAccount,
  ctxOf,
  postTwilio,
  principalFor,
  startChallengeApp,
} from '../helpers/challenges.ts';

const dataDir = await mkdtemp(path.join(tmpdir(), 'latchkey-at-rest-'));
afterAll(() => rm(dataDir, { recursive: true, force: true }));

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

/** Which of `needles` occur in any file under `dir`. */
async function foundIn(dir: string, needles: Record<string, Buffer>): Promise<string[]> {
  const found = new Set<string>();
  for (const file of await filesUnder(dir)) {
    const bytes = await readFile(file);
    for (const [name, needle] of Object.entries(needles)) {
      if (bytes.includes(needle)) found.add(`${name} in ${path.relative(dir, file)}`);
    }
  }
  return [...found];
}

test('the database files hold neither the sealing key nor a sealed message, code or secret', async () => {
  const t = await startChallengeApp({ dataDir });
  const marker = `at-rest-${Date.now().toString(36)}`;
  const code = `730${String(Math.floor(Math.random() * 1000)).padStart(3, '0')}`;
  const body = `Your ${marker} verification code is ${code}`;
  let needles: Record<string, Buffer>;
  let accountId: string;
  try {
    accountId = await createAccount(t.app);
    const principal = principalFor(accountId);
    const session = await openSession(ctxOf(t.app), principal);
    expect((await postTwilio(t.baseUrl, { to: session.number!, body })).status).toBe(200);
    const verdict = await waitForVerdict(ctxOf(t.app), principal, session.id, { timeout: 5 });
    expect(verdict).toMatchObject({ otpCode: code });

    const em = t.app.db.orm.em.fork();
    const [sealing] = t.app.db.sealingKeys;
    const cookieSecret = await serverSecret(em, t.app.db.sealer, 'cookie-signing');
    const pepper = await serverSecret(em, t.app.db.sealer, 'user-code-pepper');
    const privatePart = t.app.server.agentAuth.keys.providerJwks().keys[0]!.d!;
    // Every stored secret is sealed, naming the key; the in-database key of old is gone.
    const secrets = await em.execute<{ name: string; value: string }[]>(
      'select name, value from server_secret',
    );
    expect(secrets.map((s) => s.name).sort()).toEqual([
      'cookie-signing',
      'oidc-cookie-signing',
      'user-code-pepper',
    ]);
    for (const { value } of secrets) expect(value.startsWith(`v2.${sealing!.kid}.`)).toBe(true);
    const jwks = await em.execute<{ private_jwk: string }[]>('select private_jwk from signing_key');
    for (const { private_jwk } of jwks) expect(private_jwk.startsWith('v2.')).toBe(true);

    needles = {
      'the sealing key': sealing!.key,
      'the sealing key as base64url': Buffer.from(sealing!.key.toString('base64url')),
      'the sealing key as base64': Buffer.from(sealing!.key.toString('base64')),
      'the message': Buffer.from(marker),
      'the code': Buffer.from(`"otp_code":"${code}"`),
      'the cookie secret': Buffer.from(cookieSecret),
      'the user-code pepper': Buffer.from(pepper),
      "the signing key's private part": Buffer.from(privatePart),
    };
  } finally {
    await t.stop();
  }
  const pgdata = path.join(dataDir, 'pgdata');
  expect((await filesUnder(pgdata)).length).toBeGreaterThan(100);
  expect(await foundIn(pgdata, needles)).toEqual([]);
  // The search does find what is there: plaintext rows written by the same run (an account's
  // id), and the key in its own file, outside the database.
  expect(await foundIn(pgdata, { account: Buffer.from(accountId!) })).not.toEqual([]);
  expect(await foundIn(dataDir, { key: needles['the sealing key as base64url']! })).toEqual([
    'key in secrets.key',
  ]);
}, 120_000);
