/**
 * The authorization server's signing keys (private JWKs, RS256) for identity assertions. `generation`
 * orders them and is unique, so instances racing on first start insert generation 1 once
 * (ON CONFLICT DO NOTHING) and all read back the same key. The newest key whose `activatesAt`
 * has passed signs; every key not yet past `retiresAt` stays published at jwks_uri and accepted,
 * so a rotation never invalidates assertions that are still live.
 */
import { defineEntity, p } from '@mikro-orm/core';

export const SigningKeySchema = defineEntity({
  name: 'SigningKey',
  properties: {
    kid: p.string().length(100).primary(),
    generation: p.integer().unique(),
    alg: p.string().length(20),
    /** The private JWK as JSON text. */
    privateJwk: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
    activatesAt: p.datetime(),
    retiresAt: p.datetime().nullable(),
  },
});

export class SigningKey extends SigningKeySchema.class {}
SigningKeySchema.setClass(SigningKey);
