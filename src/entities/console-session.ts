/**
 * A signed-in console session. The cookie carries a random token; only its SHA-256 is stored,
 * so a copy of the database cannot be used to impersonate anyone. Sign-out deletes the row.
 */
import { defineEntity, p } from '@mikro-orm/core';
import { User } from './user.ts';

export const ConsoleSessionSchema = defineEntity({
  name: 'ConsoleSession',
  properties: {
    tokenHash: p.string().length(64).primary(),
    user: () => p.manyToOne(User).index().deleteRule('cascade'),
    createdAt: p.datetime().onCreate(() => new Date()),
    expiresAt: p.datetime().index(),
  },
});

export class ConsoleSession extends ConsoleSessionSchema.class {}
ConsoleSessionSchema.setClass(ConsoleSession);
