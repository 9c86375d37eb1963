/** Changing sessions: open, close, reroute, and wait (which consumes the verdict it returns). */
import type { Principal } from '../../auth/principal.ts';
import { MAX_WAIT_SECONDS } from '../../domain/limits.ts';
import { closeSession } from '../../domain/sessions/close.ts';
import { openSession } from '../../domain/sessions/open.ts';
import { rerouteSession } from '../../domain/sessions/reroute.ts';
import type { SessionView } from '../../domain/sessions/views.ts';
import { DEFAULT_WAIT_SECONDS, waitForVerdict } from '../../domain/verdicts/wait.ts';
import { builder } from '../builder.ts';
import { domainOf } from '../context.ts';
import { ChallengeSessionType } from './challenge-session.ts';
import { ChannelEnum, CloseStatusEnum, NumberTypeEnum } from './enums.ts';
import { VerdictResultType } from './verdict.ts';

const OpenChallengeInput = builder.inputType('OpenChallengeInput', {
  description:
    'What to open: the channel (default sms_otp) and the site or app the challenge is for.',
  fields: (t) => ({
    channel: t.field({ type: ChannelEnum, required: false, description: 'Default sms_otp.' }),
    target: t.string({
      required: false,
      description:
        'A host name or URL; identity providers, payment processors and banks are refused.',
    }),
    numberType: t.field({ type: NumberTypeEnum, required: false, description: 'sms_otp only.' }),
    authenticatorId: t.string({
      required: false,
      description:
        "totp only: which of the account's authenticators; without it, the one whose target has the host of `target`.",
    }),
    requireAuthenticatedSender: t.boolean({
      required: false,
      description:
        'email_otp and magic_link: only a message whose sender is authenticated (DMARC pass) and, with a target, from the target’s registrable domain yields the verdict; others are stored with `rejected` and the wait goes on. Default false.',
    }),
  }),
});

const CloseResultType = builder
  .objectRef<{ status: 'completed'; session: SessionView }>('CloseResult')
  .implement({
    description: 'A closed session.',
    fields: (t) => ({
      status: t.field({
        type: CloseStatusEnum,
        description: 'Always `completed`.',
        resolve: (r) => r.status,
      }),
      session: t.field({
        type: ChallengeSessionType,
        description: 'The session as it is now.',
        resolve: (r) => r.session,
      }),
    }),
  });

const RerouteResultType = builder
  .objectRef<{ session: SessionView; previousNumber: string }>('RerouteResult')
  .implement({
    description: 'A session moved onto a new number; the previous one is released into quarantine.',
    fields: (t) => ({
      session: t.field({
        type: ChallengeSessionType,
        description: 'The session as it is now.',
        resolve: (r) => r.session,
      }),
      previousNumber: t.exposeString('previousNumber', {
        description: 'The number it held before; now in quarantine.',
      }),
    }),
  });

const principalOf = (context: { principal: Principal | null }) => context.principal!;

builder.mutationFields((t) => ({
  openChallenge: t.field({
    type: ChallengeSessionType,
    description: 'Opens a challenge session (billable). Needs `sessions:write`.',
    authScopes: { scope: 'sessions:write' },
    args: {
      input: t.arg({
        type: OpenChallengeInput,
        required: false,
        description: 'Channel and target; all optional.',
      }),
    },
    resolve: (_root, args, context) =>
      openSession(domainOf(context), principalOf(context), {
        channel: args.input?.channel ?? undefined,
        target: args.input?.target ?? undefined,
        numberType: args.input?.numberType ?? undefined,
        authenticatorId: args.input?.authenticatorId ?? undefined,
        requireAuthenticatedSender: args.input?.requireAuthenticatedSender ?? undefined,
      }),
  }),
  closeChallenge: t.field({
    type: CloseResultType,
    description:
      'Closes a session (`completed`); its number rests in quarantine. Needs `sessions:write`.',
    authScopes: { scope: 'sessions:write' },
    args: { sessionId: t.arg.id({ required: true, description: 'A session of your account.' }) },
    resolve: (_root, args, context) =>
      closeSession(domainOf(context), principalOf(context), String(args.sessionId)),
  }),
  rerouteChallenge: t.field({
    type: RerouteResultType,
    description: 'Moves an sms_otp session onto a new number (billable). Needs `sessions:write`.',
    authScopes: { scope: 'sessions:write' },
    args: { sessionId: t.arg.id({ required: true, description: 'A session of your account.' }) },
    resolve: (_root, args, context) =>
      rerouteSession(domainOf(context), principalOf(context), String(args.sessionId)),
  }),
  waitForVerdict: t.field({
    type: VerdictResultType,
    description:
      'Waits up to `timeout` seconds for the first unconsumed verdict and consumes it; `verdict: timeout` if none arrives. At most one per operation (`query_too_complex` otherwise). Needs `otp:read`.',
    authScopes: { scope: 'otp:read' },
    args: {
      sessionId: t.arg.id({ required: true, description: 'A session of your account.' }),
      timeout: t.arg.float({
        required: false,
        description: `Seconds, 0 to ${MAX_WAIT_SECONDS} (default ${DEFAULT_WAIT_SECONDS}); 0 only looks.`,
      }),
    },
    resolve: (_root, args, context) =>
      waitForVerdict(
        domainOf(context),
        principalOf(context),
        String(args.sessionId),
        { timeout: args.timeout ?? undefined },
        context.signal,
      ),
  }),
}));
