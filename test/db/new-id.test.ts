/**
 * Ids (src/entities/base.ts): 128 random bits, URL-safe, prefixed. The bytes are drawn from the
 * CSPRNG in 4 KiB blocks (issue 16); across block refills no id repeats and every id keeps its shape.
 */
import { expect, test } from 'vitest';
import { newId } from '../../src/entities/base.ts';

test('ids are prefixed, 22 base64url characters of 16 random bytes, and never repeat across pool refills', () => {
  // 2,000 ids span several 4 KiB draws (256 ids each).
  const ids = Array.from({ length: 2000 }, () => newId('ses'));
  for (const id of ids) {
    expect(id).toMatch(/^ses_[A-Za-z0-9_-]{22}$/);
    expect(Buffer.from(id.slice(4), 'base64url')).toHaveLength(16);
  }
  expect(new Set(ids).size).toBe(ids.length);
});
