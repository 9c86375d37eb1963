/**
 * The properties every entity shares: an opaque prefixed string id and its timestamps.
 * Ids carry a prefix naming what they are (`acc_`, `usr_`, …) so a leaked id is recognisable and
 * one kind of id can never be mistaken for another in an API.
 */
import { randomBytes } from 'node:crypto';
import { p } from '@mikro-orm/core';

/** A random, URL-safe, prefixed identifier (128 bits of randomness). */
export const newId = (prefix: string) => `${prefix}_${randomBytes(16).toString('base64url')}`;

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
