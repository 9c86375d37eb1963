/** ChallengeSession: the number or inbox lent to an agent for one sign-in challenge. */
import type { SessionView } from '../../domain/sessions/views.ts';
import { builder } from '../builder.ts';
import { ChannelEnum, NumberTypeEnum, SessionStateEnum } from './enums.ts';

export const ChallengeSessionType = builder.objectRef<SessionView>('ChallengeSession').implement({
  description:
    'A challenge session: a number (sms_otp) or inbox (email_otp, magic_link) that receives one challenge.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The session id (`session_id` on /v1 and MCP).' }),
    channel: t.field({
      type: ChannelEnum,
      description: 'What kind of challenge it receives.',
      resolve: (s) => s.channel,
    }),
    state: t.field({
      type: SessionStateEnum,
      description: 'The effective state, judged by the clock.',
      resolve: (s) => s.state,
    }),
    agentId: t.exposeString('agentId', {
      description: 'The agent (registration id) or API key that opened it.',
    }),
    target: t.exposeString('target', {
      nullable: true,
      description: 'The site or app the challenge is for, as given.',
    }),
    number: t.exposeString('number', {
      nullable: true,
      description: 'E.164 number; sms_otp only.',
    }),
    numberType: t.field({
      type: NumberTypeEnum,
      nullable: true,
      description: 'Synthetic or programmable; sms_otp only.',
      resolve: (s) => s.numberType,
    }),
    inboxAddress: t.exposeString('inboxAddress', {
      nullable: true,
      description: 'Inbox address; email_otp and magic_link only.',
    }),
    expiresAt: t.expose('expiresAt', {
      type: 'DateTime',
      description: 'When it stops receiving (a reroute renews it).',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was opened.' }),
    endedAt: t.expose('endedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When it was closed or expired.',
    }),
    firstCodeAt: t.expose('firstCodeAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When the first code or link arrived.',
    }),
    rerouteCount: t.exposeInt('rerouteCount', {
      description: 'How many times it moved onto a new number.',
    }),
    authenticatorId: t.exposeString('authenticatorId', {
      nullable: true,
      description: 'totp only: the authenticator whose codes the session hands out.',
    }),
    nextStep: t.exposeString('nextStep', {
      description: 'A hint for the caller: what to do next.',
    }),
    requireAuthenticatedSender: t.exposeBoolean('requireAuthenticatedSender', {
      description:
        'Only an authenticated sender (DMARC pass), of the target’s registrable domain when there is a target, yields a verdict; other mail is listed with `rejected`.',
    }),
  }),
});
