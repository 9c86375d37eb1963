/**
 * An Idempotency-Key reservation of the /v1 routes: per credential and key, the request's hash
 * and, once answered, the stored response (src/rest-compat/idempotency.ts); kept 24 h.
 */
import { defineEntity, p } from '@mikro-orm/core';

export const IdempotencyKeySchema = defineEntity({
  name: 'IdempotencyKey',
  properties: {
    credentialId: p.string().length(255).primary(),
    key: p.string().length(255).primary(),
    requestHash: p.string().length(64),
    statusCode: p.integer().nullable(),
    response: p.blob().nullable(),
    createdAt: p.datetime().index(),
  },
});

export class IdempotencyKey extends IdempotencyKeySchema.class {}
IdempotencyKeySchema.setClass(IdempotencyKey);
