/** Enumerations shared by several types; values are the wire values of /v1 and MCP. */
import { numberTypes, sessionChannels, sessionStates } from '../../entities/challenge-session.ts';
import { messageCarriers, messageMedia, messageOutcomes } from '../../entities/inbound-message.ts';
import { usageKinds, usageStatuses } from '../../entities/usage-event.ts';
import { verdictKinds } from '../../entities/verdict.ts';
import { builder } from '../builder.ts';

export const ChannelEnum = builder.enumType('Channel', {
  description:
    'How the challenge reaches Latchkey: an SMS code, an email code, an email sign-in link, or a code from a stored authenticator (totp).',
  values: sessionChannels,
});

export const SessionStateEnum = builder.enumType('SessionState', {
  description: '`active` until closed (`completed`) or past `expiresAt` (`expired`).',
  values: sessionStates,
});

export const NumberTypeEnum = builder.enumType('NumberType', {
  description:
    '`synthetic` numbers are fictional (for apps under test); `programmable` are real carrier numbers.',
  values: numberTypes,
});

export const VerdictKindEnum = builder.enumType('VerdictKind', {
  description: 'What a message yielded for the agent.',
  values: verdictKinds,
});

export const MessageMediumEnum = builder.enumType('MessageMedium', {
  description: 'SMS or email.',
  values: messageMedia,
});

export const MessageCarrierEnum = builder.enumType('MessageCarrier', {
  description: 'Which ingest path received the message.',
  values: messageCarriers,
});

export const MessageOutcomeEnum = builder.enumType('MessageOutcome', {
  description: 'What the extractor found in the message; `none` when it found nothing to deliver.',
  values: messageOutcomes,
});

export const UsageKindEnum = builder.enumType('UsageKind', {
  description: 'A billable provision: a session opened or rerouted onto a new number.',
  values: usageKinds,
});

export const UsageStatusEnum = builder.enumType('UsageStatus', {
  description:
    '`pending` while the session is live without a code; `billable` once a code arrived; `not_billed` when it ended without one.',
  values: usageStatuses,
});
