/**
 * Where the sealing keys come from (issue 11 §5): SECRETS_KEY, checked at start with errors naming
 * the variable, else a 0600 key file in DATA_DIR made on first start; a start with a key file
 * others could read is refused with a one-line message.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { keyFilePath, loadSealingKeys, readKeyFile } from '../../src/db/sealing-keys.ts';

const scratch = await mkdtemp(path.join(tmpdir(), 'latchkey-keys-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));

const key = () => randomBytes(32).toString('base64url');

describe('SECRETS_KEY', () => {
  test('a list of kid:key entries gives the keys in order, the first sealing', () => {
    const [a, b] = [randomBytes(32), randomBytes(32)];
    const config = loadConfig({
      SECRETS_KEY: `new:${a.toString('base64url')}, old:${b.toString('base64')}`,
    });
    expect(config.secretsKey!.map((k) => k.kid)).toEqual(['new', 'old']);
    expect(config.secretsKey![0]!.key.equals(a)).toBe(true);
    expect(config.secretsKey![1]!.key.equals(b)).toBe(true);
  });

  test('a bare key gets an id derived from it, the same on every start', () => {
    const value = key();
    const first = loadConfig({ SECRETS_KEY: value }).secretsKey![0]!.kid;
    expect(first).toMatch(/^k_[0-9a-f]{8}$/);
    expect(loadConfig({ SECRETS_KEY: value }).secretsKey![0]!.kid).toBe(first);
  });

  test.each([
    ['too short', 'abc', /^SECRETS_KEY: entry 1: the key must be 32 random bytes/],
    ['a bad key id', `bad id!:${key()}`, /^SECRETS_KEY: entry 1: the key id must be/],
    ['a second entry too short', `a:${key()},b:Zm9v`, /^SECRETS_KEY: entry 2: /],
    [
      'a repeated key id',
      `a:${key()},a:${key()}`,
      /^SECRETS_KEY: entry 2: key id "a" appears twice/,
    ],
    ['no key at all', ',', /^SECRETS_KEY: no key given/],
  ])(
    '%s is refused with an error naming SECRETS_KEY, never echoing it',
    (_case, value, message) => {
      let error: unknown;
      try {
        loadConfig({ SECRETS_KEY: value });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(message);
      for (const part of value.split(/[,:]/).filter((p) => p.length > 8)) {
        expect((error as Error).message).not.toContain(part);
      }
    },
  );
});

describe('the key file in DATA_DIR', () => {
  test('the first start creates DATA_DIR/secrets.key with mode 0600; later starts read the same key', async () => {
    const dataDir = path.join(scratch, 'fresh');
    const first = await loadSealingKeys({ secretsKey: undefined, dataDir });
    expect(first).toHaveLength(1);
    const file = keyFilePath(dataDir);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readFile(file, 'utf8')).toContain(
      `${first[0]!.kid}:${first[0]!.key.toString('base64url')}`,
    );
    const again = await loadSealingKeys({ secretsKey: undefined, dataDir });
    expect(again[0]!.kid).toBe(first[0]!.kid);
    expect(again[0]!.key.equals(first[0]!.key)).toBe(true);
  });

  test('SECRETS_KEY takes precedence and no key file is written', async () => {
    const dataDir = path.join(scratch, 'from-env');
    const given = loadConfig({ SECRETS_KEY: `env:${key()}` }).secretsKey;
    expect(await loadSealingKeys({ secretsKey: given, dataDir })).toBe(given);
    await expect(stat(keyFilePath(dataDir))).rejects.toThrow(/ENOENT/);
  });

  test('a key file readable by others is refused', async () => {
    const dataDir = path.join(scratch, 'loose');
    await loadSealingKeys({ secretsKey: undefined, dataDir });
    await chmod(keyFilePath(dataDir), 0o640);
    await expect(readKeyFile(keyFilePath(dataDir))).rejects.toThrow(
      /has mode 0640; it must be 0600 .*chmod 600/,
    );
  });

  test('the service refuses to start on a 0644 key file, with a one-line message and no stack trace', async () => {
    const dataDir = path.join(scratch, 'start-refused');
    await loadSealingKeys({ secretsKey: undefined, dataDir });
    await chmod(keyFilePath(dataDir), 0o644);
    const node = path.resolve('node_modules/.bin/node');
    const child = spawn(node, ['src/main.ts'], {
      env: { PATH: process.env.PATH, DATA_DIR: dataDir, PORT: '0', SMTP_PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(78);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(
      /^latchkey: cannot start: .*secrets\.key has mode 0644; it must be 0600/,
    );
  });
});
