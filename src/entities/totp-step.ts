/**
 * A served TOTP time step: `(authenticator, step)` handed to one session. The primary key is what
 * makes "never the same code twice" hold across instances: a wait claims the current step with
 * `insert … on conflict do nothing returning`, and only the winner hands the code out.
 */
import { defineEntity, p } from '@mikro-orm/core';
import { Authenticator } from './authenticator.ts';

export const TotpStepSchema = defineEntity({
  name: 'TotpStep',
  properties: {
    authenticator: () =>
      p.manyToOne(Authenticator).primary().deleteRule('cascade').updateRule('cascade'),
    /** floor(unix seconds / period). */
    step: p.bigint('number').primary(),
    sessionId: p.string().length(255),
    servedAt: p.datetime(),
  },
});

export class TotpStep extends TotpStepSchema.class {}
TotpStepSchema.setClass(TotpStep);
