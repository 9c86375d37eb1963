/**
 * The console's agents page (`{console_url}/agents`): each agent claimed into the signed-in
 * person's account (its name, when it was claimed, when it last used a token, its scopes and the
 * API keys it minted), with a `Disconnect` button that revokes it and everything derived from it
 * (its access tokens and every API key of its lineage), ending its open connections at once. The
 * button's name is exactly `Disconnect` (decisions.md); the agent it acts on is its description.
 */
import type { AgentRegistration } from '../entities/agent-registration.ts';
import { html } from './html.ts';
import { layout, type PageChrome, statusBox, when } from './layout.ts';

export interface AgentsPage {
  chrome: PageChrome;
  csrf: string;
  agents: AgentRegistration[];
  /** The live API keys each agent minted (directly or through its keys), by registration id. */
  keys: Map<string, { id: string; name: string; hint: string }[]>;
  baseUrl: string;
  notice?: string;
}

export function agentsPage(page: AgentsPage): string {
  const { prefix } = page.chrome;
  const rows = page.agents.map((agent) => {
    const keys = page.keys.get(agent.id) ?? [];
    return html`<tr>
      <td id="agent-${agent.id}"><strong>${agent.name ?? 'Unnamed agent'}</strong><br><code>${agent.id}</code></td>
      <td>${when(agent.claimedAt)}<br><small>by ${agent.claimEmail}</small></td>
      <td>${when(agent.lastUsedAt, 'never')}</td>
      <td>${agent.scope.split(' ').map((scope) => html`<code>${scope}</code> `)}</td>
      <td>${
        keys.length
          ? html`<ul class="plain">${keys.map((key) => html`<li>${key.name} <code>${key.hint}</code></li>`)}</ul>`
          : 'none'
      }</td>
      <td>${agent.status === 'revoked' ? `Disconnected ${when(agent.revokedAt)}` : 'Connected'}</td>
      <td>${
        agent.status === 'claimed'
          ? html`<form method="post" action="${prefix}/agents/${agent.id}/disconnect" class="inline">
        <input type="hidden" name="_csrf" value="${page.csrf}">
        <button type="submit" class="danger" aria-describedby="agent-${agent.id}">Disconnect</button>
      </form>`
          : ''
      }</td>
    </tr>`;
  });
  return layout(
    'Agents',
    { ...page.chrome, current: '/agents' },
    html`<h1>Agents</h1>
    ${statusBox(page.notice)}
    <p>Agents act for your account. Disconnecting one revokes it, its access tokens and every API key it minted, at once; its open connections end within a second.</p>
    ${
      page.agents.length
        ? html`<div class="scroll"><table>
        <thead><tr><th scope="col">Agent</th><th scope="col">Claimed</th><th scope="col">Last used</th><th scope="col">Scopes</th><th scope="col">Keys it minted</th><th scope="col">Status</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
        <tbody>${rows}</tbody>
      </table></div>`
        : html`<div class="empty"><p><strong>No agents connected yet.</strong> Give your agent the agent guide at
        <a href="${page.baseUrl}/agent/skill.md">${page.baseUrl}/agent/skill.md</a>. It registers with your email
        and shows you a code; type it on the claim page it links to, and the agent appears here.</p></div>`
    }`,
  );
}
