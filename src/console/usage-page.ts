/**
 * The console's usage and billing page (`{console_url}/usage`): the plan (Free, Per session or
 * Enterprise), this month's sessions, billable sessions and amount due (0.99 USD per billable
 * session on Per session), a daily chart drawn on the server as SVG (no chart library, no
 * script), the `Plan` control with `Change plan`, and `Download statement` (CSV).
 */

import type { PlanState } from '../domain/usage/plan.ts';
import type { UsageSummary } from '../domain/usage/queries.ts';
import type { DailyUsage } from '../domain/usage/statement.ts';
import { planName } from './dashboard-page.ts';
import { html } from './html.ts';
import { alertBox, layout, type PageChrome, statusBox } from './layout.ts';

export interface UsagePage {
  chrome: PageChrome;
  csrf: string;
  period: string;
  /** FREE_TIER_MONTHLY_SESSIONS. */
  freeAllowance: number;
  /** This UTC month, YYYY-MM (from the injected clock). */
  current: string;
  summary: UsageSummary;
  plan: PlanState;
  days: DailyUsage[];
  notice?: string;
  error?: string;
}

export const dollars = (cents: number) => `${(cents / 100).toFixed(2)} USD`;

/** Sessions per day as bars (all sessions, and the billable ones in front), scaled to the month. */
export function dailyChart(days: DailyUsage[]) {
  const width = 620;
  const height = 180;
  const top = 10;
  const bottom = 24;
  const left = 30;
  const plot = height - top - bottom;
  const most = Math.max(1, ...days.map((day) => day.sessions));
  const step = (width - left) / days.length;
  const bar = Math.max(2, step * 0.7);
  const y = (value: number) => top + plot - (value / most) * plot;
  const total = days.reduce((sum, day) => sum + day.sessions, 0);
  const billable = days.reduce((sum, day) => sum + day.billable, 0);
  return html`<svg class="chart" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="chart-title chart-desc" xmlns="http://www.w3.org/2000/svg">
    <title id="chart-title">Sessions per day</title>
    <desc id="chart-desc">${total} sessions this month, ${billable} of them billable; the busiest day had ${most === 1 && total === 0 ? 0 : most}.</desc>
    <line x1="${left}" y1="${top + plot}" x2="${width}" y2="${top + plot}" class="axis"/>
    <text x="${left - 6}" y="${top + 8}" class="tick" text-anchor="end">${most}</text>
    <text x="${left - 6}" y="${top + plot}" class="tick" text-anchor="end">0</text>
    ${days.map((day, index) => {
      const x = (left + index * step + (step - bar) / 2).toFixed(1);
      return html`<g><title>${day.day}: ${day.sessions} sessions, ${day.billable} billable</title>
      ${day.sessions ? html`<rect x="${x}" y="${y(day.sessions).toFixed(1)}" width="${bar.toFixed(1)}" height="${(top + plot - y(day.sessions)).toFixed(1)}" class="bar-all"/>` : ''}
      ${day.billable ? html`<rect x="${x}" y="${y(day.billable).toFixed(1)}" width="${bar.toFixed(1)}" height="${(top + plot - y(day.billable)).toFixed(1)}" class="bar-billable"/>` : ''}
      ${index % 5 === 0 ? html`<text x="${(left + index * step + step / 2).toFixed(1)}" y="${height - 8}" class="tick" text-anchor="middle">${day.day.slice(8)}</text>` : ''}</g>`;
    })}
  </svg>
  <p class="legend"><span class="key key-all"></span> sessions <span class="key key-billable"></span> billable</p>`;
}

const previousMonth = (period: string) => {
  const [year, month] = period.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, month - 2, 1)).toISOString().slice(0, 7);
};
const nextMonth = (period: string) => {
  const [year, month] = period.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, month, 1)).toISOString().slice(0, 7);
};

function planControl(page: UsagePage) {
  const { prefix } = page.chrome;
  if (page.plan.tier === 'enterprise') {
    return html`<p>Your Enterprise plan is set by the operator; ask them to change it.</p>`;
  }
  const chosen = page.plan.scheduled?.tier ?? page.plan.tier;
  const option = (value: string) =>
    html`<option value="${value}"${chosen === value ? html` selected` : ''}>${planName(value)}</option>`;
  return html`<form method="post" action="${prefix}/usage/plan" class="stack">
      <input type="hidden" name="_csrf" value="${page.csrf}">
      <label for="plan">Plan</label>
      <select id="plan" name="plan">${option('free')}${option('per_session')}</select>
      <button type="submit">Change plan</button>
    </form>
    <p class="hint">Free: ${page.freeAllowance} sessions a month at no charge.
      Per session: 0.99 USD for each session that received a code or link; sessions that end
      without one cost nothing. An upgrade applies at once; a move to Free starts next month.</p>`;
}

export function usagePage(page: UsagePage): string {
  const { prefix } = page.chrome;
  const { summary, plan } = page;
  const { current } = page;
  return layout(
    'Usage and billing',
    { ...page.chrome, current: '/usage' },
    html`<h1>Usage and billing</h1>
    ${statusBox(page.notice)}
    ${alertBox(page.error)}
    <section aria-labelledby="plan-heading">
      <h2 id="plan-heading">Subscription</h2>
      <p>Your plan: <strong id="current-plan">${planName(plan.tier)}</strong>${
        plan.scheduled
          ? html`; changes to <strong>${planName(plan.scheduled.tier)}</strong> on ${plan.scheduled.at.toISOString().slice(0, 10)}`
          : ''
      }</p>
      ${planControl(page)}
    </section>
    <section aria-labelledby="month-heading">
      <h2 id="month-heading">${page.period === current ? 'This month' : page.period} (${page.period}, UTC)</h2>
      <nav aria-label="Months" class="months">
        <a href="${prefix}/usage?period=${previousMonth(page.period)}">Previous month</a>
        ${page.period < current ? html`<a href="${prefix}/usage?period=${nextMonth(page.period)}">Next month</a>` : ''}
      </nav>
      <dl class="figures">
        <dt>Sessions</dt><dd id="sessions-used">${summary.sessionsUsed}</dd>
        <dt>Billable sessions</dt><dd id="billable-sessions">${summary.billableSessions}</dd>
        <dt>Waiting for a code</dt><dd>${summary.pendingSessions}</dd>
        ${summary.allowanceRemaining !== null ? html`<dt>Free sessions left</dt><dd>${summary.allowanceRemaining} of ${summary.includedSessions}</dd>` : ''}
        <dt>Price per billable session</dt><dd>${dollars(summary.unitPriceCents)}</dd>
        <dt>Amount due</dt><dd id="amount-due">${dollars(summary.amountDueCents)}</dd>
      </dl>
      ${dailyChart(page.days)}
      <p><a href="${prefix}/usage/statement.csv?period=${page.period}" download>Download statement</a> (CSV, the billable sessions of ${page.period})</p>
    </section>`,
  );
}
