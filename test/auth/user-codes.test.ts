/** Claim user codes: RFC 8628 §6.1-style alphabet and format, case- and separator-insensitive. */
import { describe, expect, test } from 'vitest';
import {
  generateUserCode,
  normalizeUserCode,
  userCodeAlphabet,
  userCodeDigest,
} from '../../src/auth/user-codes.ts';

describe('user codes', () => {
  test('are 8 letters of a 20-letter alphabet without vowels, shown as XXXX-XXXX', () => {
    expect(userCodeAlphabet).toBe('BCDFGHJKLMNPQRSTVWXZ');
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i += 1) {
      const code = generateUserCode();
      expect(code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
      for (const c of code.replace('-', '')) seen.add(c);
    }
    // Every letter of the alphabet turns up: the generator uses all 20 (≈ 34.6 bits per code).
    expect([...seen].sort().join('')).toBe(userCodeAlphabet);
  });

  test('normalise typed input: case, spaces, dashes and dots do not matter', () => {
    expect(normalizeUserCode(' bcdf-ghjk ')).toBe('BCDFGHJK');
    expect(normalizeUserCode('BCDF GHJK')).toBe('BCDFGHJK');
    expect(normalizeUserCode('bc.df.gh.jk')).toBe('BCDFGHJK');
    expect(normalizeUserCode('ＢＣＤＦ－ＧＨＪＫ')).toBe('BCDFGHJK'); // full-width forms (NFKC)
  });

  test('are compared by a keyed digest of the normalised form', () => {
    const pepper = 'pepper';
    expect(userCodeDigest(pepper, 'bcdf-ghjk')).toBe(userCodeDigest(pepper, 'BCDFGHJK'));
    expect(userCodeDigest(pepper, 'BCDFGHJK')).not.toBe(userCodeDigest('other', 'BCDFGHJK'));
    expect(userCodeDigest(pepper, 'BCDFGHJK')).not.toBe(userCodeDigest(pepper, 'BCDFGHJL'));
    expect(userCodeDigest(pepper, 'BCDFGHJK')).toMatch(/^[0-9a-f]{64}$/);
  });
});
