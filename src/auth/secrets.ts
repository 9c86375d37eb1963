/**
 * Secrets handed to callers and how they are kept: random values with a recognisable prefix,
 * stored only as a digest.
 *
 * High-entropy secrets (≥ 256 bits: claim tokens, API keys, access tokens) are stored as SHA-256
 * and found by that digest; a timing difference in the database's index comparison can only leak
 * digest prefixes, which do not help to forge a preimage (RFC 6819 §5.1.4.1.3). Low-entropy user
 * codes are keyed with a server secret (HMAC) and compared with `timingSafeEqual`.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** `prefix_` + 256 random bits, base64url (43 characters). */
export const randomSecret = (prefix: string) =>
  `${prefix}_${randomBytes(32).toString('base64url')}`;

export const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');

export const hmacHex = (key: string, value: string) =>
  createHmac('sha256', key).update(value).digest('hex');

/** Constant-time equality of two hex digests (false for different lengths). */
export function digestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}
