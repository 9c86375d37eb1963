/**
 * VerdictResult: what a wait returns — the code, link or passkey request of the first unconsumed
 * verdict (consumed by this very call), or `timeout` when nothing arrived in time.
 */
import type { WaitResult } from '../../domain/verdicts/wait.ts';
import { builder } from '../builder.ts';
import { VerdictEnum } from './enums.ts';
import { SenderType } from './sender.ts';

export const VerdictResultType = builder.objectRef<WaitResult>('VerdictResult').implement({
  description:
    'The result of waiting on a session. `verdict` is `otp_code`, `magic_link`, `webauthn_required`, or `timeout` (not an error: nothing arrived in time).',
  fields: (t) => ({
    sessionId: t.exposeID('sessionId', { description: 'The session waited on.' }),
    verdict: t.field({
      type: VerdictEnum,
      description: '`otp_code`, `magic_link`, `webauthn_required` or `timeout`.',
      resolve: (r) => r.verdict,
    }),
    receivedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the message arrived; null on timeout.',
      resolve: (r) => r.receivedAt,
    }),
    otpCode: t.string({
      nullable: true,
      description: 'The one-time code, as a person would type it.',
      resolve: (r) => ('otpCode' in r ? r.otpCode : null),
    }),
    magicLink: t.string({
      nullable: true,
      description: 'The sign-in or verification link.',
      resolve: (r) => ('magicLink' in r ? r.magicLink : null),
    }),
    webauthnRequired: t.boolean({
      description: 'True when the message asks for a passkey or security key instead of a code.',
      resolve: (r) => ('webauthnRequired' in r ? r.webauthnRequired : false),
    }),
    from: t.string({
      nullable: true,
      description: 'The sender: phone number, short code or email address.',
      resolve: (r) => ('from' in r ? r.from : null),
    }),
    validUntil: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'totp only: when the code stops being valid (the end of its time step).',
      resolve: (r) => ('validUntil' in r ? r.validUntil : null),
    }),
    sender: t.field({
      type: SenderType,
      nullable: true,
      description:
        'Email: the From address and whether SPF, DKIM and DMARC vouch for it; null for SMS and on timeout.',
      resolve: (r) => ('sender' in r ? r.sender : null),
    }),
    linkDomain: t.string({
      nullable: true,
      description: 'Magic links: the link’s registrable domain (public suffix list).',
      resolve: (r) => ('linkDomain' in r ? r.linkDomain : null),
    }),
    linkMatchesTarget: t.boolean({
      nullable: true,
      description:
        'Magic links: whether the link’s registrable domain is the target’s; null without a target.',
      resolve: (r) => ('linkMatchesTarget' in r ? r.linkMatchesTarget : null),
    }),
    nextStep: t.exposeString('nextStep', { description: 'What to do next.' }),
  }),
});
