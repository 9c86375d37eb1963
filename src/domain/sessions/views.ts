/**
 * The session as the operations return it, built from a row of `challenge_session`.
 *
 * The state shown is the effective one: an active session whose `expires_at` has passed is
 * `expired` even before the sweeper writes it, so every face agrees with the clock.
 */
import type {
  ChallengeSession,
  NumberType,
  SessionChannel,
  SessionState,
} from '../../entities/challenge-session.ts';
import type { RowOf } from '../../entities/row.ts';

/** The columns every session query selects, each checked against the entity. */
const sessionColumns = [
  'id',
  'account_id',
  'credential_id',
  'agent_id',
  'channel',
  'state',
  'target',
  'target_domain',
  'number',
  'number_type',
  'inbox_address',
  'expires_at',
  'ended_at',
  'first_code_at',
  'reroute_count',
  'created_at',
  'authenticator_id',
  'require_authenticated_sender',
] as const satisfies readonly (keyof RowOf<ChallengeSession>)[];

export const SESSION_COLUMNS = sessionColumns.join(', ');

/** A row of those columns (raw SQL: snake_case, timestamps as strings), typed by the entity. */
export type SessionRow = Pick<RowOf<ChallengeSession>, (typeof sessionColumns)[number]>;

export interface SessionView {
  id: string;
  accountId: string;
  channel: SessionChannel;
  state: SessionState;
  /** Which agent (registration id) or API key opened the session. */
  agentId: string;
  credentialId: string;
  target: string | null;
  targetDomain: string | null;
  /** E.164; sms_otp only. */
  number: string | null;
  numberType: NumberType | null;
  /** email_otp and magic_link only. */
  inboxAddress: string | null;
  expiresAt: Date;
  createdAt: Date;
  endedAt: Date | null;
  /** When the first code or link arrived (the session is billable from then). */
  firstCodeAt: Date | null;
  rerouteCount: number;
  /** totp only: the authenticator whose codes the session hands out. */
  authenticatorId: string | null;
  /** Only an authenticated sender (of the target's domain) yields a verdict (issue 21). */
  requireAuthenticatedSender: boolean;
  /** A hint for the caller: what to do next with this session. */
  nextStep: string;
}

const date = (value: string | Date) => (value instanceof Date ? value : new Date(value));
const maybeDate = (value: string | Date | null) => (value === null ? null : date(value));

export function effectiveState(row: Pick<SessionRow, 'state' | 'expires_at'>, now: Date) {
  return row.state === 'active' && date(row.expires_at) <= now ? 'expired' : row.state;
}

export function toSessionView(row: SessionRow, now: Date): SessionView {
  const state = effectiveState(row, now);
  const view: SessionView = {
    id: row.id,
    accountId: row.account_id,
    channel: row.channel,
    state,
    agentId: row.agent_id,
    credentialId: row.credential_id,
    target: row.target,
    targetDomain: row.target_domain,
    number: row.number,
    numberType: row.number_type,
    inboxAddress: row.inbox_address,
    expiresAt: date(row.expires_at),
    createdAt: date(row.created_at),
    endedAt: maybeDate(row.ended_at),
    firstCodeAt: maybeDate(row.first_code_at),
    rerouteCount: row.reroute_count,
    authenticatorId: row.authenticator_id,
    requireAuthenticatedSender: row.require_authenticated_sender,
    nextStep: '',
  };
  view.nextStep = nextStep(view);
  return view;
}

/**
 * The hint every face returns as next_step. Face-neutral: each face names its own way to wait
 * (a /v1 route, a GraphQL field, an MCP tool), so the domain names none of them.
 */
function nextStep(session: SessionView): string {
  if (session.state === 'completed')
    return 'The session is closed. Open a new session to receive another code.';
  if (session.state === 'expired')
    return 'The session has expired. Open a new session to receive another code.';
  switch (session.channel) {
    case 'sms_otp':
      return `Enter ${session.number} as the phone number in the app and request the code, then wait for this session's verdict.`;
    case 'email_otp':
      return `Enter ${session.inboxAddress} as the email address in the app and request the code, then wait for this session's verdict.`;
    case 'magic_link':
      return `Enter ${session.inboxAddress} as the email address in the app and request the sign-in link, then wait for this session's verdict and open its magic_link.`;
    case 'totp':
      return "When the app asks for the code from an authenticator app, wait for this session's verdict and enter its otp_code before valid_until.";
  }
}
