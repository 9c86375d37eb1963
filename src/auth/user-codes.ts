/**
 * Claim user codes (RFC 8628 §6.1 style): 8 characters from a 20-letter alphabet without vowels
 * or look-alikes (`BCDFGHJKLMNPQRSTVWXZ`), shown as `XXXX-XXXX`: 20^8 ≈ 2^34.6 codes. With the
 * claim locked after 5 wrong codes (§5.1) a guesser's chance is 5 / 20^8 ≈ 2·10^-10.
 *
 * People may type them in any case and with or without separators; `normalizeUserCode` folds that
 * away before the keyed digest is computed.
 */
import { randomInt } from 'node:crypto';
import { hmacHex } from './secrets.ts';

export const userCodeAlphabet = 'BCDFGHJKLMNPQRSTVWXZ';
export const userCodeLength = 8;

export function generateUserCode(): string {
  let code = '';
  for (let i = 0; i < userCodeLength; i += 1) code += userCodeAlphabet[randomInt(20)];
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** Upper-cases and drops everything that is not a letter or digit (spaces, dashes, dots). */
export const normalizeUserCode = (typed: string) =>
  typed
    .normalize('NFKC')
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '');

export const userCodeDigest = (pepper: string, typed: string) =>
  hmacHex(pepper, `user-code:${normalizeUserCode(typed)}`);
