/**
 * node-oidc-provider's storage (its adapter interface): one row per stored model instance
 * (AccessToken, ClientCredentials, …). The key is SHA-256 of `model:id`, never the id itself,
 * because for opaque tokens the id *is* the bearer token; the payload is stored without `jti`.
 * `accountId` (the registration an access token belongs to) lets a registration's revocation
 * delete every token derived from it in one statement.
 */
import { defineEntity, p } from '@mikro-orm/core';

export const OidcPayloadSchema = defineEntity({
  name: 'OidcPayload',
  properties: {
    id: p.string().length(64).primary(),
    model: p.string().length(40),
    payload: p.json<Record<string, unknown>>(),
    grantId: p.string().length(100).nullable().index(),
    accountId: p.string().length(100).nullable().index(),
    expiresAt: p.datetime().nullable().index(),
    consumedAt: p.datetime().nullable(),
  },
});

export class OidcPayload extends OidcPayloadSchema.class {}
OidcPayloadSchema.setClass(OidcPayload);
