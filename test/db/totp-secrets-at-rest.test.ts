/**
 * Issue 20: an authenticator's secret is a credential for somebody else's account. Stored through
 * /v1, used by a totp challenge, listed over REST and GraphQL, then deleted: the secret (base32,
 * lower case, and its raw bytes) is in no answer, no log line (at debug level) and no file of the
 * embedded database, whose column holds it sealed under the sealing key; deleting erases the row.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as OTPAuth from 'otpauth';
import { afterAll, expect, test } from 'vitest';
import { resealColumns, sealedColumns } from '../../src/db/sealed-columns.ts';
import { startTestApp } from '../helpers/app.ts';
import { graphql, rest } from '../helpers/faces.ts';
import { apiKey, newAccount } from '../helpers/principals.ts';

const dataDir = await mkdtemp(path.join(tmpdir(), 'latchkey-totp-at-rest-'));
afterAll(() => rm(dataDir, { recursive: true, force: true }));

async function foundIn(dir: string, needles: Record<string, Buffer>): Promise<string[]> {
  const found = new Set<string>();
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  for (const entry of entries.filter((e) => e.isFile())) {
    const bytes = await readFile(path.join(entry.parentPath, entry.name));
    for (const [name, needle] of Object.entries(needles)) {
      if (bytes.includes(needle)) found.add(`${name} in ${entry.name}`);
    }
  }
  return [...found];
}

test('a TOTP secret is sealed at rest and absent from the database files, the log and every answer', async () => {
  const logLines: string[] = [];
  const t = await startTestApp({ dataDir, logLines });
  const secret = new OTPAuth.Secret({ size: 20 });
  const uri = `otpauth://totp/AtRest:agent?secret=${secret.base32}&issuer=AtRest`;
  const needles = {
    'the secret': Buffer.from(secret.base32),
    'the secret in lower case': Buffer.from(secret.base32.toLowerCase()),
    "the secret's bytes": Buffer.from(secret.bytes),
  };
  const answers: string[] = [];
  let id: string;
  try {
    const key = await apiKey(t, await newAccount(t));
    const created = await rest(t, 'POST', '/v1/authenticators', key, {
      target: 'at-rest.example',
      otpauth_uri: uri,
    });
    expect(created.status).toBe(201);
    id = created.body.id;
    answers.push(created.text);
    const opened = await rest(t, 'POST', '/v1/sessions', key, {
      channel: 'totp',
      target: 'at-rest.example',
    });
    answers.push(opened.text);
    const waited = await rest(t, 'POST', `/v1/sessions/${opened.body.session_id}/wait`, key, {
      timeout: 60,
    });
    expect(waited.body.verdict).toBe('otp_code');
    answers.push(waited.text);
    answers.push((await rest(t, 'GET', '/v1/authenticators', key)).text);
    answers.push(
      (await graphql(t, key, '{ authenticators { edges { node { id target label issuer } } } }'))
        .text,
    );
    answers.push((await rest(t, 'GET', `/v1/sessions/${opened.body.session_id}`, key)).text);
    // A refused duplicate field, so the refusal path logs too.
    answers.push(
      (
        await rest(t, 'POST', '/v1/authenticators', key, {
          target: 'x.example',
          otpauth_uri: uri,
          secret: secret.base32,
        })
      ).text,
    );

    const em = t.app.db.orm.em.fork();
    const [row] = await em.execute<{ secret: string }[]>(
      'select secret from authenticator where id = ?',
      [id],
    );
    const [sealing] = t.app.db.sealingKeys;
    expect(row!.secret.startsWith(`v2.${sealing!.kid}.`)).toBe(true);
    // Rotation re-seals it: the column is listed, and a pass with the same key finds it sealed.
    expect(sealedColumns.map((c) => `${c.table}.${c.column}`)).toContain('authenticator.secret');
    const report = await resealColumns(em, t.app.db.sealer, 'all');
    expect(report.byKeyId[sealing!.kid]).toBeGreaterThan(0);

    expect((await rest(t, 'DELETE', `/v1/authenticators/${id}`, key)).status).toBe(204);
    const left = await em.execute('select 1 from authenticator where id = ?', [id]);
    expect(left).toEqual([]);
  } finally {
    await t.stop();
  }
  for (const answer of answers) {
    for (const needle of Object.values(needles)) expect(answer).not.toContain(needle.toString());
  }
  expect(logLines.length).toBeGreaterThan(10);
  const log = Buffer.from(logLines.join('\n'));
  for (const [name, needle] of Object.entries(needles))
    expect(log.includes(needle), name).toBe(false);
  const pgdata = path.join(dataDir, 'pgdata');
  expect(await foundIn(pgdata, needles)).toEqual([]);
  // The search finds what is there in the clear: the target of the same row.
  expect(await foundIn(pgdata, { target: Buffer.from('at-rest.example') })).not.toEqual([]);
});
