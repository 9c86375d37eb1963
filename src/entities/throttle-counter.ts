/**
 * A fixed-window failure counter shared by every instance through the database (sign-in
 * throttling, and later any limit that must hold across instances). Keys are hashed when they
 * contain personal data (an email address).
 */
import { defineEntity, p } from '@mikro-orm/core';

export const ThrottleCounterSchema = defineEntity({
  name: 'ThrottleCounter',
  properties: {
    key: p.string().length(200).primary(),
    count: p.integer(),
    windowEndsAt: p.datetime().index(),
  },
});

export class ThrottleCounter extends ThrottleCounterSchema.class {}
ThrottleCounterSchema.setClass(ThrottleCounter);
