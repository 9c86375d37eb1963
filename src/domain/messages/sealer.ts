/**
 * Sealing of what must not be readable at rest: raw message bodies and parsed codes and links.
 *
 * AES-256-GCM (node:crypto) with a random 96-bit nonce per seal and the owning row's id as
 * associated data, so a sealed blob moved to another row fails to open. The key is a server secret
 * shared by every instance through the database (`serverSecret(em, 'message-sealing-key')`).
 * Layout: version byte (1) | nonce (12) | tag (16) | ciphertext.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { serverSecret } from '../../db/server-secrets.ts';

const VERSION = 1;
const NONCE = 12;
const TAG = 16;

export interface Sealer {
  seal(plaintext: Buffer, associatedData: string): Buffer;
  /** Throws when the blob was altered, moved to another row, or sealed with another key. */
  open(sealed: Buffer, associatedData: string): Buffer;
}

export function createSealer(key: Buffer): Sealer {
  if (key.length !== 32) throw new Error('the sealing key must be 32 bytes');
  return {
    seal(plaintext, associatedData) {
      const nonce = randomBytes(NONCE);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      cipher.setAAD(Buffer.from(associatedData, 'utf8'));
      const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
      return Buffer.concat([Buffer.from([VERSION]), nonce, cipher.getAuthTag(), body]);
    },
    open(sealed, associatedData) {
      if (sealed[0] !== VERSION) throw new Error('unknown sealed-blob version');
      const nonce = sealed.subarray(1, 1 + NONCE);
      const tag = sealed.subarray(1 + NONCE, 1 + NONCE + TAG);
      const decipher = createDecipheriv('aes-256-gcm', key, nonce);
      decipher.setAAD(Buffer.from(associatedData, 'utf8'));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(sealed.subarray(1 + NONCE + TAG)), decipher.final()]);
    },
  };
}

/** The sealer every instance agrees on: its key is made once and kept in the database. */
export async function loadSealer(em: EntityManager): Promise<Sealer> {
  const key = await serverSecret(em, 'message-sealing-key');
  return createSealer(Buffer.from(key, 'base64url'));
}
