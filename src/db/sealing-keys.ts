/**
 * The sealing keys: AES-256 keys kept outside the database, so a copy of the database (a backup,
 * the embedded data files) reveals nothing sealed in it.
 *
 * Where they come from, in order:
 * - `SECRETS_KEY`: comma-separated entries `kid:key` (or a bare `key`, whose id is derived from
 *   it); each key is 32 random bytes in base64url (or base64). The first entry seals, every entry
 *   opens. Several instances sharing a database must share this value.
 * - otherwise `DATA_DIR/secrets.key`, one `kid:key` line per key (first seals), created with one
 *   fresh key on first start. It must be mode 0600 and owned by the service's user: a start with a
 *   looser file is refused rather than trusting a key others may have read or replaced.
 *
 * Key ids are what sealed values carry (sealer.ts), so a key can be added, made primary and retired
 * (`npm run secrets:rotate`, db/rotate-secrets-key.ts) without guessing which key sealed what.
 */
import { createHash, randomBytes } from 'node:crypto';
import { chmod, link, mkdir, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';

export interface SealingKey {
  kid: string;
  key: Buffer;
}

/** A start-up problem with the keys; `main.ts` prints it as a one-line configuration error. */
export class SealingKeyError extends Error {
  override name = 'SealingKeyError';
}

export const KEY_FILE_NAME = 'secrets.key';
const KID = /^[A-Za-z0-9_-]{1,32}$/;
const KEY_TEXT = /^[A-Za-z0-9+/_-]{43}=?$/;

/** A fresh random key with a random id (`k_` + 8 hex digits, never reused in practice). */
export function newSealingKey(): SealingKey {
  return { kid: `k_${randomBytes(4).toString('hex')}`, key: randomBytes(32) };
}

/** The id a bare key (no `kid:`) gets: stable, so the same SECRETS_KEY always names the same key. */
const derivedKid = (key: Buffer) =>
  `k_${createHash('sha256').update(key).digest('hex').slice(0, 8)}`;

/**
 * Parses a key list (SECRETS_KEY or the key file); `entries` are already split. Messages never
 * repeat a key's text, only its position and id.
 */
function parseEntries(entries: string[]): SealingKey[] {
  if (entries.length === 0) throw new SealingKeyError('no key given');
  const keys: SealingKey[] = [];
  for (const [index, entry] of entries.entries()) {
    const colon = entry.indexOf(':');
    const kidText = colon === -1 ? undefined : entry.slice(0, colon).trim();
    const keyText = (colon === -1 ? entry : entry.slice(colon + 1)).trim();
    if (kidText !== undefined && !KID.test(kidText)) {
      throw new SealingKeyError(
        `entry ${index + 1}: the key id must be 1-32 letters, digits, "_" or "-"`,
      );
    }
    if (!KEY_TEXT.test(keyText)) {
      throw new SealingKeyError(
        `entry ${index + 1}: the key must be 32 random bytes in base64url (43 characters), ` +
          'e.g. from `openssl rand -base64 32`',
      );
    }
    const key = Buffer.from(
      keyText,
      keyText.includes('+') || keyText.includes('/') ? 'base64' : 'base64url',
    );
    if (key.length !== 32) {
      throw new SealingKeyError(`entry ${index + 1}: the key must decode to exactly 32 bytes`);
    }
    const kid = kidText ?? derivedKid(key);
    if (keys.some((k) => k.kid === kid)) {
      throw new SealingKeyError(`entry ${index + 1}: key id "${kid}" appears twice`);
    }
    keys.push({ kid, key });
  }
  return keys;
}

/** SECRETS_KEY's value: `kid:key,kid:key,…` (or bare keys), first one seals. */
export function parseSecretsKey(value: string): SealingKey[] {
  return parseEntries(
    value
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
  );
}

export const keyFilePath = (dataDir: string) => path.join(dataDir, KEY_FILE_NAME);

const formatKeyFile = (keys: SealingKey[]) =>
  [
    '# Latchkey sealing keys (kid:key, base64url). The first line seals; every line opens.',
    '# Keep this file mode 0600 and back it up apart from the database. Rotate with',
    '# `npm run secrets:rotate`.',
    ...keys.map(({ kid, key }) => `${kid}:${key.toString('base64url')}`),
    '',
  ].join('\n');

/** Reads the key file, refusing one that others could read or write, or that someone else owns. */
export async function readKeyFile(file: string): Promise<SealingKey[]> {
  const info = await stat(file);
  const mode = info.mode & 0o777;
  if ((mode & 0o077) !== 0) {
    throw new SealingKeyError(
      `${file} has mode ${mode.toString(8).padStart(4, '0')}; it must be 0600 (only the service's ` +
        `user may read it): run \`chmod 600 ${file}\` and start again`,
    );
  }
  if (typeof process.getuid === 'function' && info.uid !== process.getuid()) {
    throw new SealingKeyError(`${file} is owned by uid ${info.uid}, not by the service's user`);
  }
  const text = await readFile(file, 'utf8');
  try {
    return parseEntries(
      text
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line && !line.startsWith('#')),
    );
  } catch (error) {
    throw new SealingKeyError(`${file}: ${(error as Error).message}`);
  }
}

/** Writes `keys` to a fresh 0600 temporary file beside `file` and returns its path. */
async function writeTemporary(file: string, keys: SealingKey[]): Promise<string> {
  const temporary = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  const handle = await open(temporary, 'wx', 0o600);
  try {
    await handle.writeFile(formatKeyFile(keys));
    await handle.sync();
  } finally {
    await handle.close();
  }
  // The mode given to open() passes through the umask, which can only narrow it; say it anyway.
  await chmod(temporary, 0o600);
  return temporary;
}

/**
 * Replaces the key file atomically (a complete temporary file renamed over it), so a crash leaves
 * either the old list or the new one, never half a key.
 */
export async function writeKeyFile(file: string, keys: SealingKey[]): Promise<void> {
  await rename(await writeTemporary(file, keys), file);
}

/**
 * The keys this instance seals and opens with: SECRETS_KEY when given, else the key file in
 * `dataDir`, created when missing. Creation links a complete temporary file into place, so two
 * racing starts agree on one key and neither ever reads a half-written file.
 */
export async function loadSealingKeys(options: {
  secretsKey: SealingKey[] | undefined;
  dataDir: string;
}): Promise<SealingKey[]> {
  if (options.secretsKey) return options.secretsKey;
  const file = keyFilePath(options.dataDir);
  await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
  if (!(await exists(file))) {
    const temporary = await writeTemporary(file, [newSealingKey()]);
    try {
      await link(temporary, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      await unlink(temporary);
    }
  }
  return readKeyFile(file);
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}
