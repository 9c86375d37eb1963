/**
 * Sealed values name their key (issue 11 §5), so a ring of keys opens what any of them sealed,
 * while an altered value, a value moved to another owner or relabelled to another key, and a
 * value whose key is absent all fail to open.
 */
import { describe, expect, test } from 'vitest';
import { createSealer, SealedValueError } from '../../src/db/sealer.ts';
import { newSealingKey } from '../../src/db/sealing-keys.ts';

const older = newSealingKey();
const newer = newSealingKey();

describe('sealed values name their key', () => {
  test('binary and text values carry the sealing key id and open with the same ring', () => {
    const sealer = createSealer([older]);
    const binary = sealer.seal(Buffer.from('raw body'), 'msg_1');
    const text = sealer.sealText('cookie secret', 'server_secret:cookie-signing');
    expect(sealer.keyIdOf(binary)).toBe(older.kid);
    expect(text).toMatch(new RegExp(`^v2\\.${older.kid}\\.[A-Za-z0-9_-]+$`));
    expect(sealer.open(binary, 'msg_1').toString()).toBe('raw body');
    expect(sealer.openText(text, 'server_secret:cookie-signing')).toBe('cookie secret');
    expect(binary.includes(Buffer.from('raw body'))).toBe(false);
  });

  test('after a new key is put first, it seals, and values of the older key still open', () => {
    const before = createSealer([older]).seal(Buffer.from('kept'), 'vrd_1');
    const ring = createSealer([newer, older]);
    expect(ring.keyId).toBe(newer.kid);
    expect(ring.keyIdOf(ring.seal(Buffer.from('new'), 'vrd_2'))).toBe(newer.kid);
    expect(ring.open(before, 'vrd_1').toString()).toBe('kept');
  });

  test('a value whose key left the ring fails with an error naming the key, not the secret', () => {
    const sealed = createSealer([older]).sealText('the secret', 'owner');
    const error = (() => {
      try {
        createSealer([newer]).openText(sealed, 'owner');
      } catch (caught) {
        return caught as Error;
      }
    })();
    expect(error).toBeInstanceOf(SealedValueError);
    expect(error!.message).toContain(`"${older.kid}"`);
    expect(error!.message).not.toContain('the secret');
  });

  test('an altered value, one moved to another owner, or one relabelled to another key does not open', () => {
    const sealer = createSealer([older, newer]);
    const sealed = sealer.seal(Buffer.from('body'), 'msg_a');
    const altered = Buffer.from(sealed);
    altered.writeUInt8(altered.at(-1)! ^ 1, altered.length - 1);
    expect(() => sealer.open(altered, 'msg_a')).toThrow(SealedValueError);
    expect(() => sealer.open(sealed, 'msg_b')).toThrow(SealedValueError);
    // Same length ids, so only the label changes: the header is bound in, so this fails too.
    const relabelled = Buffer.concat([
      sealed.subarray(0, 2),
      Buffer.from(newer.kid, 'ascii'),
      sealed.subarray(2 + older.kid.length),
    ]);
    expect(sealer.keyIdOf(relabelled)).toBe(newer.kid);
    expect(() => sealer.open(relabelled, 'msg_a')).toThrow(SealedValueError);
    expect(() => sealer.openText('v2.nokey', 'msg_a')).toThrow(SealedValueError);
  });
});
