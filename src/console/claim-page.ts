/**
 * The claim page a person sees at `{console_url}/claim?claim_attempt_token=cla_…`: what the agent
 * is asking for (its scopes in plain words, the account it joins), an input labelled `Code` and a
 * button named `Claim`; and the confirmation, which says `Agent connected`.
 */
import type { Scope } from '../auth/principal.ts';
import type { AgentRegistration } from '../entities/agent-registration.ts';
import type { User } from '../entities/user.ts';
import { html } from './html.ts';
import { alertBox, layout, type PageChrome } from './layout.ts';

/** What each scope lets an agent do, as the person should read it before agreeing. */
export const scopeDescriptions: Record<Scope, string> = {
  'sessions:write':
    'open and close challenge sessions (numbers and inboxes) for your apps; each session opened is billable',
  'sessions:read': 'see your challenge sessions and the messages they received',
  'otp:read': 'read the one-time codes and sign-in links those messages carry',
  'usage:read': 'see your usage and billing figures',
  'keys:manage':
    'create and delete API keys for your account (never with more access than listed here)',
  'webhooks:manage':
    'add and remove webhook endpoints that receive your sessions, codes and agent changes',
  'authenticators:manage':
    'store and delete authenticator-app enrolments (TOTP secrets) for your apps; it never reads a secret back',
};

export const scopeList = (scope: string) =>
  html`<ul>${scope
    .split(' ')
    .filter(Boolean)
    .map(
      (s) =>
        html`<li><code>${s}</code>: ${scopeDescriptions[s as Scope] ?? 'an unknown permission'}</li>`,
    )}</ul>`;

export interface ClaimForm {
  chrome: PageChrome;
  csrf: string;
  claimAttemptToken: string;
  registration: AgentRegistration;
  user: User;
  error?: string;
}

export function claimPage(form: ClaimForm): string {
  const { prefix } = form.chrome;
  const { registration, user } = form;
  return layout(
    'Connect an agent',
    form.chrome,
    html`<h1>Connect an agent to your account</h1>
    ${alertBox(form.error)}
    <p>An AI agent registered to act for <strong>${registration.claimEmail}</strong> and asks to join
      your Latchkey account <strong>${user.account.name}</strong>.
      If you connect it, it will be able to:</p>
    ${scopeList(registration.scope)}
    <p>Only connect an agent you started yourself: type the code it showed you. Nobody from Latchkey
      will ever ask you for this code.</p>
    <form method="post" action="${prefix}/claim" class="stack">
      <input type="hidden" name="_csrf" value="${form.csrf}">
      <input type="hidden" name="claim_attempt_token" value="${form.claimAttemptToken}">
      <label for="code">Code</label>
      <input id="code" name="code" type="text" required maxlength="20" autocomplete="off"
        autocapitalize="characters" spellcheck="false" placeholder="XXXX-XXXX">
      <button type="submit">Claim</button>
    </form>
    <p class="hint">Agent registration <code>${registration.id}</code>. The code expires at
      ${registration.codeExpiresAt.toISOString()}.</p>`,
  );
}

export function claimedPage(chrome: PageChrome, registration: AgentRegistration): string {
  return layout(
    'Agent connected',
    chrome,
    html`<h1>Agent connected</h1>
    <p role="status" class="success">Agent connected: <code>${registration.id}</code> now acts in
      your account. It will collect its credentials on its next poll.</p>
    <p>It was granted:</p>
    ${scopeList(registration.scope)}
    <p><a href="${chrome.prefix}/">Back to the dashboard</a></p>`,
  );
}
