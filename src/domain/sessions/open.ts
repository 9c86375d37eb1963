/**
 * open: a new challenge session with a number (sms_otp), an inbox (email_otp, magic_link) or a
 * stored authenticator (totp: chosen by `authenticatorId`, else by the host of `target`).
 *
 * The order is what makes refusals free and limits exact:
 * 1. validate and check the target policy — pure, before anything is touched;
 * 2. in one transaction: lock the credential; check the provision rate and the concurrent
 *    sessions; for a free account, lock the account and check its allowance; take a number
 *    (SKIP LOCKED) or mint an inbox; insert the session and its usage event;
 *    and, in the same transaction, the `session.opened` webhook deliveries (the outbox);
 * 3. after commit, publish `session.opened`.
 * Any refusal in step 2 rolls the whole transaction back: no number is held, no usage is written,
 * so a refused or failed provision consumes nothing.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Principal } from '../../auth/principal.ts';
import { newId } from '../../entities/base.ts';
import { numberTypes, sessionChannels } from '../../entities/challenge-session.ts';
import { AppError, validate } from '../../errors/index.ts';
import { chooseAuthenticator } from '../authenticators/authenticators.ts';
import type { DomainContext } from '../context.ts';
import { assignNumber, nextNumberAt } from '../numbers/pool.ts';
import { inSpan } from '../spans.ts';
import { enqueueWebhookEvent } from '../webhooks/events.ts';
import {
  enforceAllowance,
  enforceCredentialLimits,
  lockAccount,
  lockCredential,
} from './limits.ts';
import { SESSION_COLUMNS, type SessionRow, type SessionView, toSessionView } from './views.ts';

export const openSessionInput = z.strictObject({
  channel: z.enum(sessionChannels).default('sms_otp'),
  /** The site or app the challenge is for: a host name or a URL. */
  target: z.string().trim().min(1).max(2048).optional(),
  /** sms_otp only: which kind of number; by default programmable when any is configured. */
  numberType: z.enum(numberTypes).optional(),
  /** totp only: which of the account's authenticators (else the one for the target's host). */
  authenticatorId: z.string().trim().min(1).max(255).optional(),
  /**
   * email_otp, magic_link: only a message whose sender is authenticated (DMARC pass) and, with a
   * target, of the target's registrable domain yields the verdict (issue 21).
   */
  requireAuthenticatedSender: z.boolean().optional(),
});
export type OpenSessionInput = z.input<typeof openSessionInput>;

export function openSession(
  ctx: DomainContext,
  principal: Principal,
  rawInput: OpenSessionInput = {},
): Promise<SessionView> {
  const attributes = { 'latchkey.account_id': principal.accountId };
  return inSpan('latchkey.session.open', attributes, () => open(ctx, principal, rawInput));
}

async function open(
  ctx: DomainContext,
  principal: Principal,
  rawInput: OpenSessionInput,
): Promise<SessionView> {
  const input = validate(openSessionInput, rawInput);
  if (input.numberType && input.channel !== 'sms_otp') {
    throw new AppError('invalid_request', 'numberType: only sms_otp sessions have a number', {
      extra: { field: 'numberType' },
    });
  }
  if (input.authenticatorId && input.channel !== 'totp') {
    throw new AppError('invalid_request', 'authenticator_id: only totp sessions have one', {
      extra: { field: 'authenticator_id' },
    });
  }
  if (input.channel === 'totp' && !input.authenticatorId && !input.target) {
    throw new AppError(
      'invalid_request',
      'target: a totp session needs target or authenticator_id',
      {
        extra: { field: 'target' },
      },
    );
  }
  if (input.requireAuthenticatedSender && input.channel === 'sms_otp') {
    throw new AppError(
      'invalid_request',
      'requireAuthenticatedSender: only email_otp and magic_link sessions receive email',
      { extra: { field: 'requireAuthenticatedSender' } },
    );
  }
  const target = input.target ? ctx.settings.targetPolicy.check(input.target) : null;
  const now = ctx.clock();
  const numberType = input.numberType ?? ctx.settings.defaultNumberType;

  const row = await ctx.em.transactional(async (tx) => {
    await lockCredential(tx, principal.credentialId);
    const tier = await enforceCredentialLimits(tx, principal, now, { countActive: true });
    if (tier === 'free') {
      await lockAccount(tx, principal.accountId);
      await enforceAllowance(tx, principal.accountId, ctx.settings.freeTierMonthlySessions, now);
    }

    const id = newId('ses');
    let number: string | null = null;
    let inboxAddress: string | null = null;
    let authenticator: { id: string; target_host: string } | null = null;
    if (input.channel === 'sms_otp') {
      number = await assignNumber(tx, id, numberType, now);
      if (!number) throw await noNumber(tx, numberType, now);
    } else if (input.channel === 'totp') {
      authenticator = await chooseAuthenticator(tx, principal.accountId, {
        authenticatorId: input.authenticatorId,
        host: target?.host,
      });
    } else {
      inboxAddress = newInboxAddress(ctx.settings.inboxDomain);
    }
    // A totp session opened by id is for its authenticator's target (checked again: the policy
    // may have changed since it was stored).
    const sessionTarget =
      target ?? (authenticator ? ctx.settings.targetPolicy.check(authenticator.target_host) : null);
    const expiresAt = new Date(now.getTime() + ctx.settings.sessionTtl * 1000);
    // The session and its usage event, in one statement.
    const [inserted] = await tx.execute<SessionRow[]>(
      `with s as (
         insert into challenge_session (id, created_at, updated_at, account_id, credential_id,
           agent_id, channel, state, target, target_domain, number, number_type, inbox_address,
           expires_at, reroute_count, authenticator_id, require_authenticated_sender)
         values (?, ?, ?, ?, ?, ?, ?, 'active', ?, ?, ?, ?, ?, ?, 0, ?, ?)
         returning ${SESSION_COLUMNS}),
       u as (
         insert into usage_event (id, created_at, updated_at, account_id, credential_id,
           agent_id, session_id, kind, channel, status, occurred_at)
         select ?, ?, ?, s.account_id, s.credential_id, s.agent_id, s.id, 'session_opened',
           s.channel, 'pending', ?
         from s)
       select * from s`,
      [
        id,
        now,
        now,
        principal.accountId,
        principal.credentialId,
        principal.agentId,
        input.channel,
        sessionTarget?.host ?? null,
        sessionTarget?.domain ?? null,
        number,
        number ? numberType : null,
        inboxAddress,
        expiresAt,
        authenticator?.id ?? null,
        input.requireAuthenticatedSender ?? false,
        newId('use'),
        now,
        now,
        now,
      ],
    );
    await enqueueWebhookEvent(tx, {
      accountId: principal.accountId,
      type: 'session.opened',
      at: now,
      data: Object.fromEntries(
        Object.entries({
          session_id: id,
          channel: input.channel,
          agent_id: principal.agentId,
          number,
          inbox_address: inboxAddress,
          target: target?.host,
          expires_at: expiresAt.toISOString(),
        }).filter(([, v]) => v !== null && v !== undefined),
      ),
    });
    return inserted!;
  });
  ctx.webhooks.wake();

  const session = toSessionView(row, now);
  ctx.metrics.sessionOpened(session.channel);
  // One structured line per state change; ids and channel only, never a number's messages.
  ctx.log.info(
    {
      sessionId: session.id,
      accountId: principal.accountId,
      channel: session.channel,
      state: 'active',
    },
    'session opened',
  );
  ctx.background.run(
    () =>
      ctx.events.publish('account', principal.accountId, {
        type: 'session.opened',
        sessionId: session.id,
        channel: session.channel,
        at: now.toISOString(),
      }),
    (error) => ctx.log.warn({ err: error, sessionId: session.id }, 'session event not published'),
  );
  return session;
}

export async function noNumber(
  tx: DomainContext['em'],
  type: 'synthetic' | 'programmable',
  now: Date,
) {
  const at = await nextNumberAt(tx, type, now);
  const retryAfter = at ? Math.max(1, Math.ceil((at.getTime() - now.getTime()) / 1000)) : 60;
  return new AppError('no_number_available', `No ${type} number is free right now`, {
    retryAfter,
    extra: { number_type: type },
  });
}

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/**
 * An unguessable inbox address: 120 random bits as 24 lower-case base32 characters (mail systems
 * may fold case), under the inbound domain. The unique index on the column means it is never
 * handed out twice; a collision would fail the open rather than share an inbox.
 */
export function newInboxAddress(domain: string): string {
  const bytes = randomBytes(15);
  let bits = 0;
  let value = 0;
  let local = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      local += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return `${local}@${domain}`;
}
