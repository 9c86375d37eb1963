/**
 * The dashboard (`{console_url}/`) and a session's page (`{console_url}/sessions/:id`): the
 * account's active sessions (id, channel, number or inbox, status, the agent that opened it, time
 * left) and its latest verdicts, then one session with its messages (parsed codes and links, never
 * raw bodies). Everything is server-rendered; `live.js` keeps the `#live` region current from the
 * account's GraphQL subscription (decisions.md: within 2 s, no reload) and counts expiry down.
 */

import type { SessionView } from '../domain/sessions/views.ts';
import type { SessionChannel } from '../entities/challenge-session.ts';
import { sessionChannels } from '../entities/challenge-session.ts';
import type { User } from '../entities/user.ts';
import type { DashboardFilters, MessageLine, VerdictLine } from './dashboard-data.ts';
import { html, type SafeHtml } from './html.ts';
import { alertBox, layout, type PageChrome, statusBox, when } from './layout.ts';
import { senderBadge } from './sender-badge.ts';

export interface LiveLinks {
  /** Where the browser subscribes: the GraphQL endpoint (SSE). */
  events: string;
  /** The public base URL, for the copyable examples. */
  baseUrl: string;
}

const channelNames: Record<string, string> = {
  sms_otp: 'SMS code',
  email_otp: 'Email code',
  magic_link: 'Magic link',
  totp: 'Authenticator code',
};
const channelName = (channel: string) => channelNames[channel] ?? channel;

/** Time left, as the server sees it; live.js keeps counting from `data-expires`. */
export function timeLeft(expiresAt: Date, now: Date): string {
  const seconds = Math.max(0, Math.floor((expiresAt.getTime() - now.getTime()) / 1000));
  if (seconds === 0) return 'expired';
  const minutes = Math.floor(seconds / 60);
  return minutes ? `${minutes} min ${seconds % 60} s` : `${seconds} s`;
}

const address = (session: SessionView) => session.number ?? session.inboxAddress ?? '';

function verdictText(line: VerdictLine): SafeHtml {
  // Computed for the one agent that waited, never stored, so there is nothing to show (issue 20).
  if (line.channel === 'totp') return html`code handed to the agent (never shown)`;
  if (line.otpCode) return html`<code class="code">${line.otpCode}</code>`;
  if (line.magicLink)
    return html`<a href="${line.magicLink}" rel="noreferrer noopener" target="_blank" class="link">${line.magicLink}</a>`;
  if (line.kind === 'webauthn_required') return html`passkey or security key asked for`;
  return html`erased after retention`;
}

const agentLabel = (labels: Map<string, string>, id: string) => labels.get(id) ?? id;

function sessionsTable(
  prefix: string,
  sessions: SessionView[],
  labels: Map<string, string>,
  now: Date,
) {
  return html`<table>
    <caption class="visually-hidden">Active sessions</caption>
    <thead><tr><th scope="col">Session</th><th scope="col">Channel</th><th scope="col">Number or inbox</th><th scope="col">Status</th><th scope="col">Agent</th><th scope="col">Expires in</th></tr></thead>
    <tbody>${sessions.map(
      (session) => html`<tr>
      <td><a href="${prefix}/sessions/${session.id}"><code>${session.id}</code></a></td>
      <td>${channelName(session.channel)}</td>
      <td><code>${address(session)}</code></td>
      <td>${session.firstCodeAt ? 'code received' : session.state}</td>
      <td>${agentLabel(labels, session.agentId)}</td>
      <td><time datetime="${session.expiresAt.toISOString()}" data-expires="${session.expiresAt.toISOString()}">${timeLeft(session.expiresAt, now)}</time></td>
    </tr>`,
    )}</tbody>
  </table>`;
}

function verdictsTable(prefix: string, verdicts: VerdictLine[], labels: Map<string, string>) {
  return html`<table>
    <caption class="visually-hidden">Recent verdicts</caption>
    <thead><tr><th scope="col">Received</th><th scope="col">Session</th><th scope="col">Channel</th><th scope="col">Code or link</th><th scope="col">From</th><th scope="col">Agent</th><th scope="col">Taken</th></tr></thead>
    <tbody>${verdicts.map(
      (line) => html`<tr>
      <td>${when(line.receivedAt)}</td>
      <td><a href="${prefix}/sessions/${line.sessionId}"><code>${line.sessionId}</code></a></td>
      <td>${channelName(line.channel)}</td>
      <td>${verdictText(line)}</td>
      <td>${line.channel === 'totp' ? html`authenticator for ${line.from}` : line.from}</td>
      <td>${agentLabel(labels, line.agentId)}</td>
      <td>${line.consumedAt ? 'yes' : 'not yet'}</td>
    </tr>`,
    )}</tbody>
  </table>`;
}

/** What to do when there is nothing to show yet: connect an agent, or open a session. */
function emptyState(prefix: string, links: LiveLinks, hasActors: boolean, filtered: boolean) {
  if (filtered) return html`<p>No active sessions match these filters.</p>`;
  if (!hasActors)
    return html`<div class="empty">
      <p><strong>No agents yet.</strong> Connect one: give your agent the agent guide at
        <a href="${links.baseUrl}/agent/skill.md">${links.baseUrl}/agent/skill.md</a>; it registers
        and shows you a code to type on the claim page. Or create an <a href="${prefix}/api-keys">API key</a>.</p>
    </div>`;
  const example = `curl -X POST ${links.baseUrl}/v1/sessions \\
  -H "x-api-key: $LATCHKEY_API_KEY" \\
  -H "content-type: application/json" \\
  -d '{"channel": "sms_otp", "target": "example.com"}'`;
  return html`<div class="empty">
    <p><strong>No active sessions.</strong> Open one from your agent, or with an API key:</p>
    <pre id="open-example"><code>${example}</code></pre>
    <button type="button" class="secondary" data-copy="open-example" hidden>Copy example</button>
    <p>It appears here as soon as it opens; its code appears when the message arrives.</p>
  </div>`;
}

export interface DashboardPage {
  chrome: PageChrome;
  user: User;
  csrf: string;
  notice?: string;
  error?: string;
  verifyRequest: SafeHtml | string;
  links: LiveLinks;
  filters: DashboardFilters;
  actors: { id: string; label: string }[];
  sessions: SessionView[];
  verdicts: VerdictLine[];
  now: Date;
}

function filterForm(page: DashboardPage) {
  const { prefix } = page.chrome;
  const option = (value: string, label: string, selected: boolean) =>
    html`<option value="${value}"${selected ? html` selected` : ''}>${label}</option>`;
  return html`<form method="get" action="${prefix}/" class="filters" aria-label="Filters">
    <label for="filter-agent">Agent</label>
    <select id="filter-agent" name="agent">
      ${option('', 'All agents', !page.filters.agent)}
      ${page.actors.map((actor) => option(actor.id, actor.label, page.filters.agent === actor.id))}
    </select>
    <label for="filter-channel">Channel</label>
    <select id="filter-channel" name="channel">
      ${option('', 'All channels', !page.filters.channel)}
      ${sessionChannels.map((channel: SessionChannel) =>
        option(channel, channelName(channel), page.filters.channel === channel),
      )}
    </select>
    <button type="submit" class="secondary">Filter</button>
  </form>`;
}

export function dashboardPage(page: DashboardPage): string {
  const { prefix } = page.chrome;
  const labels = new Map(page.actors.map((actor) => [actor.id, actor.label]));
  const filtered = Boolean(page.filters.agent || page.filters.channel);
  return layout(
    'Dashboard',
    { ...page.chrome, current: '/', scripts: ['/assets/live.js'] },
    html`<h1>Dashboard</h1>
    ${statusBox(page.notice)}
    ${alertBox(page.error)}
    ${page.verifyRequest}
    ${filterForm(page)}
    <p class="live-status" id="live-status" aria-live="polite">Reload the page to see new sessions.</p>
    <div id="live" data-events="${page.links.events}">
      <section aria-labelledby="sessions-heading">
        <h2 id="sessions-heading">Active sessions</h2>
        ${page.sessions.length ? sessionsTable(prefix, page.sessions, labels, page.now) : emptyState(prefix, page.links, page.actors.length > 0, filtered)}
      </section>
      <section aria-labelledby="verdicts-heading">
        <h2 id="verdicts-heading">Recent verdicts</h2>
        ${page.verdicts.length ? verdictsTable(prefix, page.verdicts, labels) : html`<p>No codes or links received yet. Each one appears here the moment its message arrives.</p>`}
      </section>
    </div>
    <section aria-labelledby="account-heading">
      <h2 id="account-heading">Account</h2>
      <dl>
        <dt>Email</dt><dd>${page.user.email} (${page.user.emailVerifiedAt ? 'verified' : 'not verified'})</dd>
        <dt>Account</dt><dd>${page.user.account.name} (<code>${page.user.account.id}</code>)</dd>
        <dt>Plan</dt><dd><a href="${prefix}/usage">${planName(page.user.account.tier)}</a></dd>
      </dl>
    </section>`,
  );
}

export const planNames: Record<string, string> = {
  free: 'Free',
  per_session: 'Per session',
  enterprise: 'Enterprise',
};
export const planName = (tier: string) => planNames[tier] ?? tier;

export interface SessionPage {
  chrome: PageChrome;
  links: LiveLinks;
  session: SessionView;
  agent: string;
  messages: MessageLine[];
  /** A `totp` session's served steps (it receives no messages). */
  served: VerdictLine[];
  now: Date;
}

/** What a `totp` session was handed: when, from which authenticator; the codes are never kept. */
function servedSection(page: SessionPage) {
  const rows = page.served.map(
    (line) => html`<tr>
      <td>${when(line.receivedAt)}</td>
      <td>authenticator for ${line.from}</td>
      <td>${verdictText(line)}</td>
    </tr>`,
  );
  return html`<section aria-labelledby="codes-heading">
    <h2 id="codes-heading">Codes handed out</h2>
    <p>Authenticator codes are computed for the waiting agent and never stored or shown.</p>
    ${
      rows.length
        ? html`<table>
      <thead><tr><th scope="col">Handed out</th><th scope="col">From</th><th scope="col">Code</th></tr></thead>
      <tbody>${rows}</tbody>
    </table>`
        : html`<p>No code handed out yet. The agent's wait takes the current one.</p>`
    }
  </section>`;
}

export function sessionPage(page: SessionPage): string {
  const { session } = page;
  const rows = page.messages.map(
    (message) => html`<tr>
      <td>${when(message.receivedAt)}</td>
      <td>${message.sender ? senderBadge(message.sender) : message.from}</td>
      <td>${message.to}</td>
      <td>${message.verdict ? verdictText(message.verdict) : html`nothing found`}</td>
      <td>${message.verdict ? (message.verdict.consumedAt ? 'yes' : 'not yet') : ''}</td>
    </tr>`,
  );
  const messagesSection = html`<section aria-labelledby="messages-heading">
    <h2 id="messages-heading">Messages</h2>
    <p>What arrived and what was parsed from it; message bodies are never shown.</p>
    ${
      rows.length
        ? html`<table>
      <thead><tr><th scope="col">Received</th><th scope="col">From</th><th scope="col">To</th><th scope="col">Code or link</th><th scope="col">Taken</th></tr></thead>
      <tbody>${rows}</tbody>
    </table>`
        : html`<p>No messages yet. Send the challenge to <code>${address(session)}</code>.</p>`
    }
  </section>`;
  return layout(
    `Session ${session.id}`,
    { ...page.chrome, current: '/', scripts: ['/assets/live.js'] },
    html`<h1>Session <code>${session.id}</code></h1>
    <p class="live-status" id="live-status" aria-live="polite">Reload the page to see new messages.</p>
    <div id="live" data-events="${page.links.events}">
      <dl>
        <dt>Channel</dt><dd>${channelName(session.channel)}</dd>
        <dt>Number or inbox</dt><dd><code>${address(session)}</code></dd>
        <dt>Status</dt><dd>${session.state}</dd>
        <dt>Agent</dt><dd>${page.agent}</dd>
        <dt>Target</dt><dd>${session.target ?? 'not given'}</dd>
        <dt>Opened</dt><dd>${when(session.createdAt)}</dd>
        <dt>${session.state === 'active' ? 'Expires in' : 'Ended'}</dt><dd>${
          session.state === 'active'
            ? html`<time datetime="${session.expiresAt.toISOString()}" data-expires="${session.expiresAt.toISOString()}">${timeLeft(session.expiresAt, page.now)}</time>`
            : when(session.endedAt ?? session.expiresAt)
        }</dd>
      </dl>
      ${session.channel === 'totp' ? servedSection(page) : messagesSection}
    </div>
    <p><a href="${page.chrome.prefix}/">Back to the dashboard</a></p>`,
  );
}
