/**
 * The number pool. One row per US number (E.164) the service may lend: synthetic numbers from a
 * configured fictional range, programmable numbers from Twilio.
 *
 * Invariants: `held_by` names the one session the number serves (unique, so a session holds at
 * most one number and a number has at most one holder); a released number is not assignable
 * before `available_at` (its quarantine), so a late message for the previous holder reaches no
 * one instead of the next. Assignment takes rows with `FOR UPDATE SKIP LOCKED`, so instances
 * racing for numbers never pick the same one and never wait on each other.
 */
import { defineEntity, p } from '@mikro-orm/core';
import { numberTypes } from './challenge-session.ts';

export const PhoneNumberSchema = defineEntity({
  name: 'PhoneNumber',
  indexes: [
    {
      // In the assignment's order (numbers/pool.ts), so it reads one entry, not the whole pool.
      name: 'phone_number_assignable_index',
      expression:
        'create index "phone_number_assignable_index" on "phone_number" ("type", "available_at", "e164") where "held_by" is null and "enabled"',
    },
  ],
  properties: {
    e164: p.string().length(16).primary(),
    type: p.enum(numberTypes),
    /** False once the number left the configuration: never assigned again, kept for history. */
    enabled: p.boolean().default(true),
    heldBy: p.string().length(255).nullable().unique(),
    availableAt: p.datetime(),
    lastAssignedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export class PhoneNumber extends PhoneNumberSchema.class {}
PhoneNumberSchema.setClass(PhoneNumber);
