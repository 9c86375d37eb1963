/**
 * Live verdicts and session activity.
 *
 * - `sessionVerdicts(sessionId)` (agents, `otp:read`): each verdict of the session as it arrives,
 *   consumed by this subscriber exactly as a wait would (one code goes to exactly one waiter or
 *   subscriber, across instances); the stream ends when the session ends, and outlives a
 *   database outage (it waits again once the database may be back).
 * - `accountEvents` (dashboards, `sessions:read`): sessions of the account opened, given a
 *   verdict, rerouted, closed or expired — ids and times only, never a code.
 */

import { setTimeout as sleep } from 'node:timers/promises';
import { MAX_WAIT_SECONDS } from '../../domain/limits.ts';
import { readSession } from '../../domain/sessions/read.ts';
import { type WaitResult, waitForVerdict } from '../../domain/verdicts/wait.ts';
import {
  isAppError,
  isDependencyUnavailable,
  UNAVAILABLE_RETRY_AFTER,
} from '../../errors/index.ts';
import type { AccountEvent } from '../../events/topics.ts';
import { builder } from '../builder.ts';
import { domainOf, type GraphQLContext } from '../context.ts';
import { ChannelEnum, VerdictKindEnum } from './enums.ts';
import { VerdictResultType } from './verdict.ts';

const AccountEventType = builder.objectRef<AccountEvent>('AccountEvent').implement({
  description: 'Something happened to a session of the account.',
  fields: (t) => ({
    // A String, not an enum: the wire values carry a dot, which GraphQL enum names cannot.
    type: t.string({
      description:
        '`session.opened`, `session.verdict`, `session.rerouted`, `session.closed` or `session.expired`.',
      resolve: (e) => e.type,
    }),
    sessionId: t.exposeID('sessionId', { description: 'The session it happened to.' }),
    at: t.field({
      type: 'DateTime',
      description: 'When it happened.',
      resolve: (e) => new Date(e.at),
    }),
    channel: t.field({
      type: ChannelEnum,
      nullable: true,
      description: 'For `session.opened`: the channel.',
      resolve: (e) => ('channel' in e ? e.channel : null),
    }),
    kind: t.field({
      type: VerdictKindEnum,
      nullable: true,
      description: 'For `session.verdict`: what arrived.',
      resolve: (e) => ('kind' in e ? e.kind : null),
    }),
  }),
});

/** Successive waits on one session; each yields a verdict this subscriber consumed. */
async function* verdictStream(
  context: GraphQLContext,
  sessionId: string,
): AsyncGenerator<WaitResult> {
  const principal = context.principal!;
  let outage = 0;
  while (!context.signal?.aborted) {
    let result: WaitResult;
    try {
      result = await waitForVerdict(
        domainOf(context),
        principal,
        sessionId,
        { timeout: MAX_WAIT_SECONDS },
        context.signal,
      );
    } catch (error) {
      if (
        isAppError(error) &&
        (error.code === 'session_closed' || error.code === 'session_expired')
      )
        return;
      // The database is unreachable: the subscription stays open and waits again once it may
      // be back (1 s, 2 s, 4 s, then every 5 s); a verdict stored meanwhile is consumed then.
      if (isDependencyUnavailable(error)) {
        const delay = Math.min(2 ** outage++, UNAVAILABLE_RETRY_AFTER) * 1000;
        await sleep(delay, undefined, { signal: context.signal }).catch(() => {});
        continue;
      }
      throw error;
    }
    outage = 0;
    if (context.signal?.aborted) return;
    if (result.verdict !== 'timeout') yield result;
    // A totp code is computed on request, one time step per wait: a standing stream would claim
    // every step of the authenticator and starve other sessions, so it ends after one code.
    if ('validUntil' in result) return;
  }
}

builder.subscriptionFields((t) => ({
  sessionVerdicts: t.field({
    type: VerdictResultType,
    description:
      "A session's verdicts as they arrive, each consumed by this subscriber; on a totp session, one code, then the stream ends. Needs `otp:read`.",
    authScopes: { scope: 'otp:read' },
    args: { sessionId: t.arg.id({ required: true, description: 'A session of your account.' }) },
    subscribe: async (_root, args, context) => {
      // Refuse a foreign or unknown id (not_found) before the stream is established.
      await readSession(domainOf(context), context.principal!, String(args.sessionId));
      return verdictStream(context, String(args.sessionId));
    },
    resolve: (result) => result,
  }),
  accountEvents: t.field({
    type: AccountEventType,
    description: "Session activity of the caller's account, for dashboards. Needs `sessions:read`.",
    authScopes: { scope: 'sessions:read' },
    subscribe: (_root, _args, context) =>
      context.services.challenge.events.pubsub.subscribe('account', context.principal!.accountId),
    resolve: (event) => event,
  }),
}));
