/**
 * An authenticator (`aut_…`): the TOTP enrolment (RFC 6238) a customer made for an agent's account
 * at some app, stored so the agent can pass "enter the code from your authenticator app".
 *
 * `secret` is the base32 seed, sealed with the service's sealing key (db/sealed-columns.ts lists
 * it, so rotation re-seals it) and bound to the row id; it is never returned, logged or published.
 * Deleting the row erases it. `target_host` is the normalised host sessions are matched on.
 */
import { defineEntity, p } from '@mikro-orm/core';
import { Account } from './account.ts';
import { baseProperties } from './base.ts';

export const totpAlgorithms = ['SHA1', 'SHA256', 'SHA512'] as const;
export type TotpAlgorithm = (typeof totpAlgorithms)[number];

export const AuthenticatorSchema = defineEntity({
  name: 'Authenticator',
  indexes: [{ properties: ['account', 'targetHost'] }],
  properties: {
    ...baseProperties('aut'),
    account: () => p.manyToOne(Account).deleteRule('cascade').updateRule('cascade'),
    /** The site or app as given, and its normalised host. */
    target: p.string().length(2048),
    targetHost: p.string().length(255),
    label: p.string().length(200).nullable(),
    issuer: p.string().length(200).nullable(),
    digits: p.integer(),
    period: p.integer(),
    algorithm: p.enum(totpAlgorithms),
    /** The sealed base32 seed (`v2.<kid>.…`). */
    secret: p.text(),
  },
});

export class Authenticator extends AuthenticatorSchema.class {}
AuthenticatorSchema.setClass(Authenticator);
