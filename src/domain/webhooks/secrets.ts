/**
 * Endpoint signing secrets: `whsec_` + 32 random bytes in base64 (the Standard Webhooks format
 * every stock verifier accepts), shown once at creation or rotation, stored sealed.
 *
 * This is the one place webhooks touch the sealer, so a change to how sealing keys are managed
 * (key ids, rotation) needs an edit here only. The associated data binds a sealed secret to its
 * endpoint and slot, so a blob copied to another endpoint or slot does not open.
 */
import { randomBytes } from 'node:crypto';
import type { Sealer } from '../messages/sealer.ts';

export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

export type SecretSlot = 'current' | 'previous';

export const sealSecret = (sealer: Sealer, endpointId: string, slot: SecretSlot, secret: string) =>
  sealer.seal(Buffer.from(secret, 'utf8'), `webhook:${endpointId}:${slot}`);

export const openSecret = (sealer: Sealer, endpointId: string, slot: SecretSlot, sealed: Buffer) =>
  sealer.open(sealed, `webhook:${endpointId}:${slot}`).toString('utf8');
