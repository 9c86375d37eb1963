/**
 * A person who signs in to the console. The email is stored lower-cased and unique; the password
 * hash is absent for people who only ever signed in through a social identity provider. Until
 * `emailVerifiedAt` is set the account may sign in but not claim agents or create credentials.
 */
import { defineEntity, p } from '@mikro-orm/core';
import { Account } from './account.ts';
import { baseProperties } from './base.ts';

export const UserSchema = defineEntity({
  name: 'User',
  tableName: 'app_user',
  properties: {
    ...baseProperties('usr'),
    account: () => p.manyToOne(Account).index(),
    email: p.string().length(320).unique(),
    passwordHash: p.string().length(200).nullable(),
    /** When the person proved they receive mail at `email` (a link, a reset, or a social provider). */
    emailVerifiedAt: p.datetime().nullable(),
  },
});

export class User extends UserSchema.class {}
UserSchema.setClass(User);
