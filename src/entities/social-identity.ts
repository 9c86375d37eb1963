/** The link between a console user and their subject at an upstream OpenID Connect provider. */
import { defineEntity, p } from '@mikro-orm/core';
import { baseProperties } from './base.ts';
import { User } from './user.ts';

export const SocialIdentitySchema = defineEntity({
  name: 'SocialIdentity',
  uniques: [{ properties: ['issuer', 'subject'] }],
  properties: {
    ...baseProperties('sid'),
    user: () => p.manyToOne(User).index().deleteRule('cascade'),
    issuer: p.string().length(500),
    subject: p.string().length(255),
  },
});

export class SocialIdentity extends SocialIdentitySchema.class {}
SocialIdentitySchema.setClass(SocialIdentity);
