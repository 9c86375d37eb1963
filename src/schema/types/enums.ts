/** Enumerations shared by several types; values are the wire values of /v1 and MCP. */
import type { Principal } from '../../auth/principal.ts';
import type { WaitResult } from '../../domain/verdicts/wait.ts';
import { billingTiers } from '../../entities/account.ts';
import type { RegistrationStatus } from '../../entities/agent-registration.ts';
import {
  numberTypes,
  type SessionState,
  sessionChannels,
  sessionStates,
} from '../../entities/challenge-session.ts';
import { messageCarriers, messageMedia, messageOutcomes } from '../../entities/inbound-message.ts';
import { usageKinds, usageStatuses } from '../../entities/usage-event.ts';
import { verdictKinds } from '../../entities/verdict.ts';
import { deliveryStatuses } from '../../entities/webhook-delivery.ts';
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

/**
 * The values of a string union, checked complete at compile time: a member added to the domain's
 * union without its enum value here fails the typecheck instead of a resolver at run time.
 */
const allOf =
  <T extends string>() =>
  <const V extends readonly T[]>(values: V & ([T] extends [V[number]] ? unknown : never)) =>
    values;

export const BillingTierEnum = builder.enumType('BillingTier', {
  description:
    '`free` (a monthly allowance), `per_session` (each billable session charged) or `enterprise` (set by the operator).',
  values: billingTiers,
});

export const AgentStatusEnum = builder.enumType('AgentStatus', {
  description: '`claimed` by a person of the account, or `revoked` after a security event.',
  values: allOf<Extract<RegistrationStatus, 'claimed' | 'revoked'>>()(['claimed', 'revoked']),
});

export const CredentialKindEnum = builder.enumType('CredentialKind', {
  description:
    "`agent` for an access token of a claimed registration, `api_key` for an API key, `console` for the console's own read-only stream (a person's console session).",
  values: allOf<Principal['kind']>()(['agent', 'api_key', 'console']),
});

export const CloseStatusEnum = builder.enumType('CloseStatus', {
  description: 'What closing leaves: always `completed`.',
  values: ['completed'] as const satisfies readonly SessionState[],
});

export const VerdictEnum = builder.enumType('Verdict', {
  description:
    'What a wait yielded: a verdict kind, or `timeout` (not an error: nothing arrived in time).',
  values: allOf<WaitResult['verdict']>()([...verdictKinds, 'timeout']),
});

export const WebhookDeliveryStatusEnum = builder.enumType('WebhookDeliveryStatus', {
  description:
    '`pending` (being sent or waiting for a retry), `delivered` (a 2xx), or `failed` (every retry failed).',
  values: deliveryStatuses,
});
