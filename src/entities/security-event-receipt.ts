/**
 * A security event token already received (RFC 8417 `jti`, per issuer), remembered until it is
 * too old to be accepted anyway, so a replay changes nothing on any instance. The key is a digest
 * of issuer and jti (both chosen by the sender, so bounded and opaque here).
 */
import { defineEntity, p } from '@mikro-orm/core';

export const SecurityEventReceiptSchema = defineEntity({
  name: 'SecurityEventReceipt',
  properties: {
    id: p.string().length(64).primary(),
    issuer: p.string().length(500),
    receivedAt: p.datetime().onCreate(() => new Date()),
    expiresAt: p.datetime().index(),
  },
});

export class SecurityEventReceipt extends SecurityEventReceiptSchema.class {}
SecurityEventReceiptSchema.setClass(SecurityEventReceipt);
