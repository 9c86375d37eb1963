/**
 * Message: what a session received — metadata and the parsed result, never a raw body. Codes and
 * links appear only for a caller with `otp:read`, and reading them consumes them.
 */
import { listMessages, type MessageView } from '../../domain/messages/list.ts';
import { builder } from '../builder.ts';
import { domainOf } from '../context.ts';
import {
  MessageCarrierEnum,
  MessageMediumEnum,
  MessageOutcomeEnum,
  VerdictKindEnum,
} from './enums.ts';
import { forwardPage, toConnection } from './page.ts';
import { MessageRejectionEnum, SenderType } from './sender.ts';

type ParsedVerdict = NonNullable<MessageView['verdict']>;

const ParsedVerdictType = builder.objectRef<ParsedVerdict>('ParsedVerdict').implement({
  description: 'What the extractor took from a message.',
  fields: (t) => ({
    kind: t.field({
      type: VerdictKindEnum,
      description: 'What was found.',
      resolve: (v) => v.kind,
    }),
    otpCode: t.exposeString('otpCode', {
      nullable: true,
      description: 'Null without `otp:read`, or after retention.',
    }),
    magicLink: t.exposeString('magicLink', {
      nullable: true,
      description: 'Null without `otp:read`, or after retention.',
    }),
    webauthnRequired: t.exposeBoolean('webauthnRequired', {
      description: 'The message asks for a passkey or security key.',
    }),
    consumedAt: t.expose('consumedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When a wait or a listing took it.',
    }),
    linkDomain: t.exposeString('linkDomain', {
      nullable: true,
      description: 'Magic links: the link’s registrable domain (public suffix list).',
    }),
    linkMatchesTarget: t.exposeBoolean('linkMatchesTarget', {
      nullable: true,
      description:
        'Magic links: whether the link’s registrable domain is the target’s; null without a target.',
    }),
  }),
});

export const MessageType = builder.objectRef<MessageView>('Message').implement({
  description: 'A message a session received: metadata and parsed result only.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The message id; a paging cursor.' }),
    sessionId: t.exposeID('sessionId', {
      description: 'The session that held the number or inbox when it arrived.',
    }),
    medium: t.field({
      type: MessageMediumEnum,
      description: 'SMS or email.',
      resolve: (m) => m.medium,
    }),
    carrier: t.field({
      type: MessageCarrierEnum,
      description: 'The ingest path.',
      resolve: (m) => m.carrier,
    }),
    from: t.exposeString('from', {
      description: 'The sender: phone number, short code, sender id or email address.',
    }),
    to: t.exposeString('to', { description: 'The number or inbox it was sent to.' }),
    receivedAt: t.expose('receivedAt', {
      type: 'DateTime',
      description: 'When Latchkey received it.',
    }),
    outcome: t.field({
      type: MessageOutcomeEnum,
      description: 'What the extractor found.',
      resolve: (m) => m.outcome,
    }),
    verdict: t.field({
      type: ParsedVerdictType,
      nullable: true,
      description: 'The parsed result; null when there was nothing to deliver.',
      resolve: (m) => m.verdict,
    }),
    sender: t.field({
      type: SenderType,
      nullable: true,
      description:
        'Email: the From address and whether SPF, DKIM and DMARC vouch for it; null for SMS.',
      resolve: (m) => m.sender,
    }),
    rejected: t.field({
      type: MessageRejectionEnum,
      nullable: true,
      description:
        'Set when the message yielded no verdict because its session requires an authenticated sender; null when accepted.',
      resolve: (m) => m.rejected,
    }),
    codesHidden: t.exposeBoolean('codesHidden', {
      description: 'True when codes were withheld for lack of `otp:read`.',
    }),
  }),
});

builder.queryFields((t) => ({
  messages: t.connection({
    type: MessageType,
    description:
      "A session's messages, oldest first (`get_messages`). With `otp:read` the codes are shown and thereby consumed. Needs `sessions:read`.",
    authScopes: { scope: 'sessions:read' },
    args: { sessionId: t.arg.id({ required: true, description: 'A session of your account.' }) },
    complexity: (args) => ({ field: 1, multiplier: args.first ?? 20 }),
    resolve: async (_root, args, context) => {
      const page = forwardPage(args);
      const result = await listMessages(
        domainOf(context),
        context.principal!,
        String(args.sessionId),
        page,
      );
      return toConnection(result.messages, result.hasMore);
    },
  }),
}));
