/**
 * Ids and inbox addresses (src/entities/base.ts, sessions/open.ts): their random bytes come from
 * the CSPRNG drawn in 4 KiB blocks (issue 16). Across block refills no draw repeats or overlaps
 * another, and every id keeps its shape.
 */
import { expect, test } from 'vitest';
import { newInboxAddress } from '../../src/domain/sessions/open.ts';
import { newId, pooledRandomBytes } from '../../src/entities/base.ts';

test('ids are prefixed, 22 base64url characters of 16 random bytes, and never repeat across pool refills', () => {
  // 2,000 ids span several 4 KiB draws (256 ids each).
  const ids = Array.from({ length: 2000 }, () => newId('ses'));
  for (const id of ids) {
    expect(id).toMatch(/^ses_[A-Za-z0-9_-]{22}$/);
    expect(Buffer.from(id.slice(4), 'base64url')).toHaveLength(16);
  }
  expect(new Set(ids).size).toBe(ids.length);
});

test('draws of mixed sizes are the lengths asked for and all differ; inbox addresses keep their shape', () => {
  const draws = Array.from({ length: 1000 }, (_, i) => {
    const bytes = pooledRandomBytes(i % 2 ? 15 : 16);
    expect(bytes).toHaveLength(i % 2 ? 15 : 16);
    // A view onto the pool: keep a copy to compare after later draws.
    return Buffer.from(bytes).toString('hex');
  });
  expect(new Set(draws).size).toBe(draws.length);
  const inboxes = Array.from({ length: 600 }, () => newInboxAddress('in.example.test'));
  for (const address of inboxes) expect(address).toMatch(/^[a-z2-7]{24}@in\.example\.test$/);
  expect(new Set(inboxes).size).toBe(inboxes.length);
});
