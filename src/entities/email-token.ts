/**
 * A single-use link sent by mail: email verification (24 h) or password reset (1 h). Only the
 * SHA-256 of the random token is stored, so a copy of the database cannot be used to verify an
 * address or reset a password. Using a token deletes its row in one statement (single use even
 * when the link is opened twice at once); the `email` is the address the link was sent to, so a
 * link verifies that address and no other.
 */
import { defineEntity, p } from '@mikro-orm/core';
import { User } from './user.ts';

export const emailTokenPurposes = ['verify_email', 'reset_password'] as const;
export type EmailTokenPurpose = (typeof emailTokenPurposes)[number];

export const EmailTokenSchema = defineEntity({
  name: 'EmailToken',
  properties: {
    tokenHash: p.string().length(64).primary(),
    user: () => p.manyToOne(User).index().deleteRule('cascade'),
    purpose: p.enum(emailTokenPurposes),
    email: p.string().length(320),
    createdAt: p.datetime(),
    expiresAt: p.datetime().index(),
  },
});

export class EmailToken extends EmailTokenSchema.class {}
EmailTokenSchema.setClass(EmailToken);
