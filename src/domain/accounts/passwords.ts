/**
 * Password hashing with scrypt from node:crypto (no native addon): a per-user 16-byte salt,
 * N=2^15, r=8, p=1, a 32-byte key, stored as `scrypt$N$r$p$salt$key`. Verification is
 * constant-time, and an unknown user costs the same work as a known one (`burnPasswordCheck`).
 */
import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

const params = { N: 2 ** 15, r: 8, p: 1 } as const;
const keyLength = 32;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize('NFKC'),
      salt,
      keyLength,
      { ...options, maxmem: 64 * 1024 * 1024 },
      (e, key) => (e ? reject(e) : resolve(key)),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, params);
  return [
    'scrypt',
    params.N,
    params.r,
    params.p,
    salt.toString('base64url'),
    key.toString('base64url'),
  ].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

let decoy: Promise<string> | undefined;
/** Spends the time of one verification, so "no such user" cannot be told from "wrong password". */
export async function burnPasswordCheck(password: string): Promise<void> {
  decoy ??= hashPassword('decoy-password-never-matches');
  await verifyPassword(password, await decoy);
}
