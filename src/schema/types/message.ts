/**
 * Message: what a session received — metadata and the parsed result, never a raw body.
 *
 * Reading codes consumes them, so it is a mutation: `readMessages` shows codes and links to a
 * caller with `otp:read` and consumes them. The `messages` query never consumes (codes hidden), so
 * a GET, a retry or a prefetch cannot take a code from the agent waiting for it.
 */

import { PAGE_SIZE } from '../../domain/limits.ts';
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
      description: 'When a wait, a subscriber or `readMessages` took it.',
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
      description:
        'True when codes were withheld: always from the `messages` query, from `readMessages` for lack of `otp:read`.',
    }),
  }),
});

/** One page of messages: the query and the mutation answer in the same shape. */
const MessageConnection = builder.connectionObject(
  { type: MessageType, name: 'MessageConnection' },
  { name: 'MessageEdge' },
);

builder.queryFields((t) => ({
  messages: t.connection(
    {
      type: MessageType,
      description:
        "A session's messages, oldest first: metadata only, codes and links hidden, nothing consumed (`readMessages` reveals them). Needs `sessions:read`.",
      authScopes: { scope: 'sessions:read' },
      args: { sessionId: t.arg.id({ required: true, description: 'A session of your account.' }) },
      complexity: (args) => ({ field: 1, multiplier: args.first ?? 20 }),
      resolve: async (_root, args, context) => {
        const result = await listMessages(
          domainOf(context),
          context.principal!,
          String(args.sessionId),
          forwardPage(args),
          { reveal: false },
        );
        return toConnection(result.messages, result.hasMore);
      },
    },
    MessageConnection,
  ),
}));

builder.mutationFields((t) => ({
  readMessages: t.field({
    type: MessageConnection,
    description:
      "A session's messages, oldest first (`get_messages`). With `otp:read` the codes and links are shown and thereby consumed: a later wait does not return them. Needs `sessions:read`.",
    authScopes: { scope: 'sessions:read' },
    args: {
      sessionId: t.arg.id({ required: true, description: 'A session of your account.' }),
      first: t.arg.int({
        description: `How many (${PAGE_SIZE.min}–${PAGE_SIZE.max}, default ${PAGE_SIZE.default}).`,
      }),
      after: t.arg.string({ description: 'The last message id seen.' }),
    },
    complexity: (args) => ({ field: 1, multiplier: args.first ?? 20 }),
    resolve: async (_root, args, context) => {
      const result = await listMessages(
        domainOf(context),
        context.principal!,
        String(args.sessionId),
        forwardPage(args),
        { reveal: true },
      );
      return toConnection(result.messages, result.hasMore);
    },
  }),
}));
