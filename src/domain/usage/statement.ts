/**
 * A month's usage as people read it: sessions per UTC day (the console's chart) and the
 * statement, one line per billable session with what it costs (the console's CSV download).
 * Line amounts add up to the summary's `amountDueCents` (queries.ts prices the same way: sessions
 * included in the plan first, in the order they were opened, then the unit price).
 */

import type { SessionChannel } from '../../entities/challenge-session.ts';
import type { RowOf } from '../../entities/row.ts';
import type { UsageEvent, UsageKind } from '../../entities/usage-event.ts';
import type { DomainContext } from '../context.ts';
import type { UsageSummary } from './queries.ts';

export interface DailyUsage {
  /** YYYY-MM-DD (UTC). */
  day: string;
  sessions: number;
  billable: number;
}

/** Every day of the summary's month, zero-filled. */
export async function dailyUsage(
  ctx: DomainContext,
  summary: Pick<UsageSummary, 'accountId' | 'periodStart' | 'periodEnd'>,
): Promise<DailyUsage[]> {
  const rows = await ctx.em.execute<{ day: string; sessions: number; billable: number }[]>(
    `select to_char(occurred_at at time zone 'UTC', 'YYYY-MM-DD') as day,
       count(*)::int as sessions,
       (count(*) filter (where status = 'billable'))::int as billable
     from usage_event where account_id = ? and occurred_at >= ? and occurred_at < ?
     group by 1`,
    [summary.accountId, summary.periodStart, summary.periodEnd],
  );
  const byDay = new Map(rows.map((row) => [row.day, row]));
  const days: DailyUsage[] = [];
  for (
    let day = new Date(summary.periodStart);
    day < summary.periodEnd;
    day = new Date(day.getTime() + 86_400_000)
  ) {
    const key = day.toISOString().slice(0, 10);
    const row = byDay.get(key);
    days.push({ day: key, sessions: row?.sessions ?? 0, billable: row?.billable ?? 0 });
  }
  return days;
}

export interface StatementLine {
  sessionId: string;
  kind: UsageKind;
  channel: SessionChannel;
  agentId: string;
  occurredAt: Date;
  settledAt: Date | null;
  amountCents: number;
}

/** The month's billable sessions, oldest first, each with its price. */
export async function statementLines(
  ctx: DomainContext,
  summary: UsageSummary,
  billingSince: Date | null,
): Promise<StatementLine[]> {
  const rows = await ctx.em.execute<
    Pick<
      RowOf<UsageEvent>,
      'session_id' | 'kind' | 'channel' | 'agent_id' | 'occurred_at' | 'settled_at'
    >[]
  >(
    `select session_id, kind, channel, agent_id, occurred_at, settled_at from usage_event
     where account_id = ? and status = 'billable' and occurred_at >= ? and occurred_at < ?
     order by occurred_at, id`,
    [summary.accountId, summary.periodStart, summary.periodEnd],
  );
  const chargedFrom =
    summary.tier === 'per_session' && billingSince && billingSince > summary.periodStart
      ? billingSince
      : summary.periodStart;
  let charged = 0;
  return rows.map((row) => {
    const occurredAt = new Date(row.occurred_at);
    let amountCents = 0;
    if (summary.tier !== 'free' && occurredAt >= chargedFrom) {
      charged += 1;
      if (charged > summary.includedSessions) amountCents = summary.unitPriceCents;
    }
    return {
      sessionId: row.session_id,
      kind: row.kind,
      channel: row.channel,
      agentId: row.agent_id,
      occurredAt,
      settledAt: row.settled_at ? new Date(row.settled_at) : null,
      amountCents,
    };
  });
}

/**
 * RFC 4180 CSV: fields with a comma, quote or line break are quoted (quotes doubled), and a field
 * a spreadsheet would run as a formula (`=`, `+`, `-`, `@`) is prefixed with `'` (OWASP CSV
 * injection). Values here are ids, channels, timestamps and amounts, but the rule costs nothing.
 */
export function toCsv(header: string[], rows: (string | number)[][]): string {
  const field = (value: string | number) => {
    let text = String(value);
    if (typeof value === 'string' && /^[=+\-@]/.test(text)) text = `'${text}`;
    return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  return `${[header, ...rows].map((row) => row.map(field).join(',')).join('\r\n')}\r\n`;
}

export const statementHeader = [
  'session_id',
  'kind',
  'channel',
  'agent_id',
  'opened_at',
  'billable_at',
  'amount_usd',
];

export function statementCsv(lines: StatementLine[]): string {
  return toCsv(
    statementHeader,
    lines.map((line) => [
      line.sessionId,
      line.kind,
      line.channel,
      line.agentId,
      line.occurredAt.toISOString(),
      line.settledAt?.toISOString() ?? '',
      (line.amountCents / 100).toFixed(2),
    ]),
  );
}
