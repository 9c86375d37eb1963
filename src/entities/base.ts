/**
 * The properties every entity shares: an opaque prefixed string id and its timestamps.
 * Ids carry a prefix naming what they are (`acc_`, `usr_`, …) so a leaked id is recognisable and
 * one kind of id can never be mistaken for another in an API.
 */
import { randomBytes } from 'node:crypto';
import { p } from '@mikro-orm/core';

/** Bytes of the CSPRNG drawn at once for ids and tokens; each byte is handed out once. */
const RANDOM_POOL_BYTES = 4096;
let randomPool = Buffer.alloc(0);
let randomOffset = 0;

/**
 * `length` bytes from the CSPRNG, drawn 4 KiB at a time (as Node's own `randomUUID`
 * buffers them): one `randomBytes` call per 4 KiB instead of one per id, which was a measurable
 * share of an open's CPU (issue 16). A view onto bytes no other caller is given; read it before
 * the next call (it is not copied).
 */
export function pooledRandomBytes(length: number): Buffer {
  if (randomOffset + length > randomPool.length) {
    randomPool = randomBytes(Math.max(RANDOM_POOL_BYTES, length));
    randomOffset = 0;
  }
  const bytes = randomPool.subarray(randomOffset, randomOffset + length);
  randomOffset += length;
  return bytes;
}

/** A random, URL-safe, prefixed identifier (128 bits of randomness). */
export const newId = (prefix: string) => `${prefix}_${pooledRandomBytes(16).toString('base64url')}`;

export const baseProperties = (prefix: string) => ({
  id: p
    .string()
    .primary()
    .onCreate(() => newId(prefix)),
  createdAt: p.datetime().onCreate(() => new Date()),
  updatedAt: p
    .datetime()
    .onCreate(() => new Date())
    .onUpdate(() => new Date()),
});
