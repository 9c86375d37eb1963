/**
 * The console's agents page (`{console_url}/agents`): each agent claimed into the signed-in
 * person's account, with a `Disconnect` button that revokes it and everything derived from it
 * (its access tokens and every API key of its lineage), ending its open connections at once.
 */
import type { AgentRegistration } from '../entities/agent-registration.ts';
import { html } from './html.ts';
import { layout, type PageChrome } from './layout.ts';

export interface AgentsPage {
  chrome: PageChrome;
  csrf: string;
  agents: AgentRegistration[];
  notice?: string;
}

const when = (date: Date | null | undefined) =>
  date ? date.toISOString().replace(/\.\d{3}Z$/, 'Z') : '';

export function agentsPage(page: AgentsPage): string {
  const { prefix } = page.chrome;
  const rows = page.agents.map(
    (agent) => html`<tr>
      <td><code>${agent.id}</code></td>
      <td>${agent.claimEmail}</td>
      <td>${when(agent.claimedAt)}</td>
      <td>${agent.scope}</td>
      <td>${agent.status === 'revoked' ? `Disconnected ${when(agent.revokedAt)}` : 'Connected'}</td>
      <td>${
        agent.status === 'claimed'
          ? html`<form method="post" action="${prefix}/agents/${agent.id}/disconnect" class="inline">
        <input type="hidden" name="_csrf" value="${page.csrf}">
        <button type="submit" class="secondary" aria-label="Disconnect ${agent.id}">Disconnect</button>
      </form>`
          : ''
      }</td>
    </tr>`,
  );
  return layout(
    'Agents',
    page.chrome,
    html`<h1>Agents</h1>
    ${page.notice ? html`<div role="status" class="success"><p>${page.notice}</p></div>` : ''}
    <p>Disconnecting an agent revokes it, its access tokens and every API key it minted, at once.</p>
    ${
      page.agents.length
        ? html`<table>
        <thead><tr><th>Agent</th><th>Claimed by</th><th>Claimed</th><th>Scopes</th><th>Status</th><th></th></tr></thead>
        <tbody>${rows}</tbody>
      </table>`
        : html`<p>No agents connected yet.</p>`
    }
    <p><a href="${prefix}/">Back to the dashboard</a></p>`,
  );
}
