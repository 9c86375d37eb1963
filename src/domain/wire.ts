/**
 * The wire shapes of service-interface.md and decisions.md (snake_case, ISO 8601 UTC timestamps),
 * built from the operations' results — one mapping for every face that speaks them (/v1 and the
 * MCP tools), so the two cannot drift apart. GraphQL keeps its own camelCase types.
 */
import type { MessageView } from './messages/list.ts';
import type { RerouteResult } from './sessions/reroute.ts';
import type { SessionView } from './sessions/views.ts';
import type { UsageEventView, UsageSummary } from './usage/queries.ts';
import type { WaitResult } from './verdicts/wait.ts';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** open_challenge, GET /v1/sessions/:id, and each entry of list_numbers. */
export function sessionWire(session: SessionView) {
  return {
    session_id: session.id,
    channel: session.channel,
    state: session.state,
    agent_id: session.agentId,
    expires_at: session.expiresAt.toISOString(),
    created_at: session.createdAt.toISOString(),
    ...(session.number !== null ? { number: session.number } : {}),
    ...(session.inboxAddress !== null ? { inbox_address: session.inboxAddress } : {}),
    target: session.target,
    next_step: session.nextStep,
  };
}

/** wait_for_verdict, POST /v1/sessions/:id/wait: a verdict, or the timeout result. */
export function verdictWire(result: WaitResult) {
  if (result.verdict === 'timeout') {
    return {
      session_id: result.sessionId,
      received_at: null,
      verdict: 'timeout' as const,
      next_step: result.nextStep,
    };
  }
  return {
    session_id: result.sessionId,
    received_at: result.receivedAt.toISOString(),
    verdict: result.verdict,
    ...(result.otpCode !== null ? { otp_code: result.otpCode } : {}),
    ...(result.magicLink !== null ? { magic_link: result.magicLink } : {}),
    webauthn_required: result.webauthnRequired,
    next_step: result.nextStep,
  };
}

/** wait_for_otp (the SMS alias) on success: otp_code, from_number, received_at, next_step. */
export function otpAliasWire(result: Exclude<WaitResult, { verdict: 'timeout' }>) {
  return {
    otp_code: result.otpCode,
    from_number: result.from,
    received_at: result.receivedAt.toISOString(),
    next_step: result.nextStep,
  };
}

/** wait_for_otp with auto_reroute after a timeout: the renewal result. */
export function renewalWire(result: RerouteResult) {
  return {
    status: 'carrier_retry_required' as const,
    session_id: result.session.id,
    new_number: result.session.number,
    previous_number: result.previousNumber,
    country: 'US',
    expires_at: result.session.expiresAt.toISOString(),
    message:
      'No code arrived on the previous number; the session now has a new one. Enter new_number in the app, request the code again, then wait again.',
  };
}

/** One entry of get_messages: metadata and parsed results, never a body. */
export function messageWire(message: MessageView) {
  return {
    message_id: message.id,
    session_id: message.sessionId,
    channel: message.medium,
    from: message.from,
    to: message.to,
    received_at: message.receivedAt.toISOString(),
    outcome: message.outcome,
    otp_code: message.verdict?.otpCode ?? null,
    magic_link: message.verdict?.magicLink ?? null,
    webauthn_required: message.verdict?.webauthnRequired ?? false,
    consumed: message.verdict ? message.verdict.consumedAt !== null : false,
    codes_hidden: message.codesHidden,
  };
}

export function usageEventWire(event: UsageEventView) {
  return {
    id: event.id,
    kind: event.kind,
    status: event.status,
    session_id: event.sessionId,
    channel: event.channel,
    credential_id: event.credentialId,
    agent_id: event.agentId,
    occurred_at: event.occurredAt.toISOString(),
    settled_at: iso(event.settledAt),
  };
}

export function usageSummaryWire(summary: UsageSummary) {
  return {
    account_id: summary.accountId,
    tier: summary.tier,
    period_start: summary.periodStart.toISOString(),
    period_end: summary.periodEnd.toISOString(),
    sessions_used: summary.sessionsUsed,
    billable_sessions: summary.billableSessions,
    pending_sessions: summary.pendingSessions,
    unbilled_sessions: summary.unbilledSessions,
    included_sessions: summary.includedSessions,
    allowance_remaining: summary.allowanceRemaining,
    unit_price_cents: summary.unitPriceCents,
    amount_due_cents: summary.amountDueCents,
    currency: summary.currency,
    by_credential: summary.byCredential.map((c) => ({
      credential_id: c.credentialId,
      sessions_used: c.sessionsUsed,
      billable_sessions: c.billableSessions,
    })),
  };
}
