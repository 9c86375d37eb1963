/**
 * What the console's dashboard and session pages read: the account's active sessions, its recent
 * verdicts and a session's messages, confined to the signed-in person's account.
 *
 * Recent verdicts are of two origins (issue 20): the stored verdicts of messages, and the TOTP
 * time steps served to `totp` sessions (`totp_step`, one row per code handed out). A TOTP code is
 * computed for its one waiter and never stored, so its line carries the time, the session and the
 * authenticator, and no code at all.
 *
 * Codes and links are unsealed for display but never consumed: a person watching the dashboard
 * must not take a code from the agent that waits for it (the schema's `messages` would, for a
 * caller with `otp:read`, which is why the console reads them here and its GraphQL principal has
 * no `otp:read`). Raw bodies are never read.
 */

import type { DomainContext } from '../domain/context.ts';
import {
  SESSION_COLUMNS,
  type SessionRow,
  type SessionView,
  toSessionView,
} from '../domain/sessions/views.ts';
import { openSecret } from '../domain/verdicts/consume.ts';
import type { AgentRegistration } from '../entities/agent-registration.ts';
import type { Authenticator } from '../entities/authenticator.ts';
import type { ChallengeSession, SessionChannel } from '../entities/challenge-session.ts';
import { sessionChannels } from '../entities/challenge-session.ts';
import type {
  InboundMessage,
  MessageOutcome,
  SenderAuthentication,
} from '../entities/inbound-message.ts';
import type { OuterRow, RowOf } from '../entities/row.ts';
import type { TotpStep } from '../entities/totp-step.ts';
import type { Verdict, VerdictKind } from '../entities/verdict.ts';

export interface DashboardFilters {
  /** An agent (`reg_…`) or API key (`key_…`) id; sessions it opened. */
  agent?: string;
  channel?: SessionChannel;
}

/** Filters from a query string; unknown values are dropped (the page then shows everything). */
export function parseFilters(query: Record<string, string | undefined>): DashboardFilters {
  const filters: DashboardFilters = {};
  const agent = query.agent;
  if (agent && /^(reg|key)_[A-Za-z0-9_-]{1,100}$/.test(agent)) filters.agent = agent;
  const channel = query.channel;
  if (channel && (sessionChannels as readonly string[]).includes(channel))
    filters.channel = channel as SessionChannel;
  return filters;
}

/** Who can open sessions for the account: its agents and API keys, by id, with a label. */
export async function actors(ctx: DomainContext, accountId: string) {
  type ActorRow = Pick<RowOf<AgentRegistration>, 'id'> & {
    label: RowOf<AgentRegistration>['name'];
    kind: 'agent' | 'key';
  };
  const rows = await ctx.em.execute<ActorRow[]>(
    `select id, name as label, 'agent' as kind from agent_registration
       where account_id = ? and status in ('claimed', 'revoked')
     union all
     select id, name as label, 'key' as kind from api_key where account_id = ?
     order by kind, id`,
    [accountId, accountId],
  );
  return rows.map((row) => ({
    id: row.id,
    label: row.label ? `${row.label} (${row.id})` : row.id,
  }));
}

const filterSql = (filters: DashboardFilters, alias: string) => ({
  sql: `${filters.agent ? ` and ${alias}.agent_id = ?` : ''}${filters.channel ? ` and ${alias}.channel = ?` : ''}`,
  params: [
    ...(filters.agent ? [filters.agent] : []),
    ...(filters.channel ? [filters.channel] : []),
  ],
});

export async function activeSessions(
  ctx: DomainContext,
  accountId: string,
  filters: DashboardFilters,
): Promise<SessionView[]> {
  const now = ctx.clock();
  const filter = filterSql(filters, 's');
  const rows = await ctx.em.execute<SessionRow[]>(
    `select ${SESSION_COLUMNS.split(', ')
      .map((column) => `s.${column}`)
      .join(', ')} from challenge_session s
     where s.account_id = ? and s.state = 'active' and s.expires_at > ?${filter.sql}
     order by s.created_at desc, s.id limit 100`,
    [accountId, now, ...filter.params],
  );
  return rows.map((row) => toSessionView(row, now));
}

export interface VerdictLine {
  /** The verdict's id, or `<authenticator id>:<step>` for a served TOTP step. */
  id: string;
  sessionId: string;
  channel: SessionChannel;
  agentId: string;
  kind: VerdictKind;
  /** Null after retention erased it, and always for `totp` (computed for the waiter, never stored). */
  otpCode: string | null;
  magicLink: string | null;
  /** The sender's address, or for `totp` the authenticator's target. */
  from: string;
  receivedAt: Date;
  consumedAt: Date | null;
}

/** A stored verdict with its session's channel and agent and its message's sender. */
type VerdictRow = Pick<
  RowOf<Verdict>,
  'id' | 'session_id' | 'kind' | 'secret' | 'received_at' | 'consumed_at'
> &
  Pick<RowOf<ChallengeSession>, 'channel' | 'agent_id'> &
  Pick<RowOf<InboundMessage>, 'from_address'>;

/** A served TOTP step with its session's agent and its authenticator's target. */
type TotpStepRow = Pick<RowOf<TotpStep>, 'authenticator_id' | 'session_id' | 'served_at'> & {
  /** bigint: node-postgres hands it over as a string. */
  step: string | number;
} & Pick<RowOf<ChallengeSession>, 'agent_id'> &
  Pick<RowOf<Authenticator>, 'target'>;

const toLine = (ctx: DomainContext, row: VerdictRow): VerdictLine => {
  const secret = openSecret(ctx, row.id, row.secret);
  return {
    id: row.id,
    sessionId: row.session_id,
    channel: row.channel,
    agentId: row.agent_id,
    kind: row.kind,
    otpCode: secret.otp_code ?? null,
    magicLink: secret.magic_link ?? null,
    from: row.from_address,
    receivedAt: new Date(row.received_at),
    consumedAt: row.consumed_at ? new Date(row.consumed_at) : null,
  };
};

/** A served step: handed to its waiter when claimed, so taken at once; never a code. */
const toTotpLine = (row: TotpStepRow): VerdictLine => ({
  id: `${row.authenticator_id}:${row.step}`,
  sessionId: row.session_id,
  channel: 'totp',
  agentId: row.agent_id,
  kind: 'otp_code',
  otpCode: null,
  magicLink: null,
  from: row.target,
  receivedAt: new Date(row.served_at),
  consumedAt: new Date(row.served_at),
});

/**
 * The account's latest verdicts, newest first (codes shown, not consumed): stored verdicts and
 * served TOTP steps, each read newest first up to the limit, then merged.
 */
export async function recentVerdicts(
  ctx: DomainContext,
  accountId: string,
  filters: DashboardFilters,
  limit = 20,
): Promise<VerdictLine[]> {
  const stored = await storedVerdicts(ctx, accountId, filters, limit);
  const served = await servedTotpSteps(ctx, accountId, filters, limit);
  return [...stored, ...served]
    .sort((a, b) => b.receivedAt.getTime() - a.receivedAt.getTime() || (a.id < b.id ? -1 : 1))
    .slice(0, limit);
}

async function storedVerdicts(
  ctx: DomainContext,
  accountId: string,
  filters: DashboardFilters,
  limit: number,
): Promise<VerdictLine[]> {
  if (filters.channel === 'totp') return [];
  const filter = filterSql(filters, 's');
  const rows = await ctx.em.execute<VerdictRow[]>(
    `select v.id, v.session_id, s.channel, s.agent_id, v.kind, v.secret, m.from_address,
       v.received_at, v.consumed_at
     from verdict v join challenge_session s on s.id = v.session_id
       join inbound_message m on m.id = v.message_id
     where s.account_id = ?${filter.sql}
     order by v.received_at desc, v.id limit ?`,
    [accountId, ...filter.params, limit],
  );
  return rows.map((row) => toLine(ctx, row));
}

/**
 * The account's served TOTP steps, newest first. Reached through the account's authenticators
 * (the step table's key starts with the authenticator) and held to the account on both sides.
 */
async function servedTotpSteps(
  ctx: DomainContext,
  accountId: string,
  filters: DashboardFilters,
  limit: number,
): Promise<VerdictLine[]> {
  if (filters.channel && filters.channel !== 'totp') return [];
  const filter = filterSql({ agent: filters.agent }, 's');
  const rows = await ctx.em.execute<TotpStepRow[]>(
    `select t.authenticator_id, t.step, t.session_id, t.served_at, s.agent_id, a.target
     from authenticator a join totp_step t on t.authenticator_id = a.id
       join challenge_session s on s.id = t.session_id
     where a.account_id = ? and s.account_id = ?${filter.sql}
     order by t.served_at desc, t.authenticator_id, t.step limit ?`,
    [accountId, accountId, ...filter.params, limit],
  );
  return rows.map(toTotpLine);
}

/** The steps served to one `totp` session, oldest first (never a code: none is stored). */
export async function sessionServedSteps(
  ctx: DomainContext,
  session: SessionView,
): Promise<VerdictLine[]> {
  if (session.channel !== 'totp') return [];
  const rows = await ctx.em.execute<TotpStepRow[]>(
    `select t.authenticator_id, t.step, t.session_id, t.served_at, s.agent_id, a.target
     from totp_step t join challenge_session s on s.id = t.session_id
       join authenticator a on a.id = t.authenticator_id
     where t.session_id = ? and s.account_id = ? and a.account_id = ?
     order by t.served_at, t.step limit 200`,
    [session.id, session.accountId, session.accountId],
  );
  return rows.map(toTotpLine);
}

/** A session of the account (any state), or null for an unknown or foreign id. */
export async function accountSession(
  ctx: DomainContext,
  accountId: string,
  sessionId: string,
): Promise<SessionView | null> {
  const [row] = await ctx.em.execute<SessionRow[]>(
    `select ${SESSION_COLUMNS} from challenge_session where id = ? and account_id = ?`,
    [sessionId, accountId],
  );
  return row ? toSessionView(row, ctx.clock()) : null;
}

export interface MessageLine {
  id: string;
  from: string;
  to: string;
  receivedAt: Date;
  outcome: MessageOutcome;
  /** Email: the From address and whether SPF, DKIM and DMARC vouch for it (issue 21). */
  sender: SenderAuthentication | null;
  verdict: VerdictLine | null;
}

/** A session's messages, oldest first: who sent it, when, what was parsed; never the body. */
export async function sessionMessages(
  ctx: DomainContext,
  session: SessionView,
): Promise<MessageLine[]> {
  type MessageRow = Pick<
    RowOf<InboundMessage>,
    'from_address' | 'to_address' | 'outcome' | 'sender'
  > & {
    message_id: RowOf<InboundMessage>['id'];
    message_received_at: RowOf<InboundMessage>['received_at'];
  } & OuterRow<Pick<RowOf<Verdict>, 'id' | 'kind' | 'secret' | 'received_at' | 'consumed_at'>>;
  const rows = await ctx.em.execute<MessageRow[]>(
    `select m.id as message_id, m.from_address, m.to_address, m.received_at as message_received_at,
       m.outcome, m.sender, v.id, v.kind, v.secret, v.received_at, v.consumed_at
     from inbound_message m left join verdict v on v.message_id = m.id
     where m.session_id = ?
     order by m.received_at, m.id limit 200`,
    [session.id],
  );
  return rows.map((row) => ({
    id: row.message_id,
    from: row.from_address,
    to: row.to_address,
    receivedAt: new Date(row.message_received_at),
    outcome: row.outcome,
    sender: row.sender,
    verdict:
      row.id && row.kind && row.received_at
        ? toLine(ctx, {
            ...row,
            id: row.id,
            kind: row.kind,
            received_at: row.received_at,
            session_id: session.id,
            channel: session.channel,
            agent_id: session.agentId,
          })
        : null,
  }));
}
