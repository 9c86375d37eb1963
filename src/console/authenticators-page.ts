/**
 * The console's authenticators page (`{console_url}/authenticators`): the account's stored
 * authenticator-app enrolments (target, label, issuer, parameters; never the secret) with a
 * `Delete` button each, and a form to add one from its `otpauth URI` and `Target`. Every form
 * carries the CSRF token. The URI field is a password input so the secret is not shown on screen
 * while it is typed, and it is never echoed back, not even after a refusal.
 */
import type { AuthenticatorView } from '../domain/authenticators/authenticators.ts';
import { html } from './html.ts';
import { alertBox, layout, type PageChrome } from './layout.ts';

export interface AuthenticatorsPage {
  chrome: PageChrome;
  csrf: string;
  authenticators: AuthenticatorView[];
  /** The target of the one just added, for the confirmation. */
  added?: string;
  /** The target typed before a refusal, kept so only the URI must be given again. */
  target?: string;
  error?: string;
}

export function authenticatorsPage(page: AuthenticatorsPage): string {
  const { prefix } = page.chrome;
  const rows = page.authenticators.map(
    (a) => html`<tr>
      <td>${a.target}</td>
      <td>${a.label ?? ''}</td>
      <td>${a.issuer ?? ''}</td>
      <td>${String(a.digits)} digits, ${String(a.period)} s, ${a.algorithm}</td>
      <td>${a.createdAt.toISOString().replace(/\.\d{3}Z$/, 'Z')}</td>
      <td><form method="post" action="${prefix}/authenticators/${a.id}/delete" class="inline">
        <input type="hidden" name="_csrf" value="${page.csrf}">
        <button type="submit" class="secondary" aria-label="Delete ${a.label ?? a.target}">Delete</button>
      </form></td>
    </tr>`,
  );
  return layout(
    'Authenticators',
    page.chrome,
    html`<h1>Authenticators</h1>
    ${alertBox(page.error)}
    ${page.added ? html`<p role="status" class="success">Authenticator for <strong>${page.added}</strong> added.</p>` : ''}
    <p>When an app asks your agent for a code from an authenticator app, the agent opens a
      <code>totp</code> challenge and receives the current code. Store the enrolment here once: the
      <code>otpauth://totp/…</code> link behind the app's QR code. Its secret is kept sealed and is
      never shown again.</p>
    ${
      page.authenticators.length
        ? html`<table>
        <thead><tr><th>Target</th><th>Label</th><th>Issuer</th><th>Codes</th><th>Added</th><th></th></tr></thead>
        <tbody>${rows}</tbody>
      </table>`
        : html`<p>No authenticators yet.</p>`
    }
    <h2>Add an authenticator</h2>
    <form method="post" action="${prefix}/authenticators" class="stack" autocomplete="off">
      <input type="hidden" name="_csrf" value="${page.csrf}">
      <label for="otpauth_uri">otpauth URI</label>
      <input id="otpauth_uri" name="otpauth_uri" type="password" required maxlength="4096"
        placeholder="otpauth://totp/…" spellcheck="false">
      <label for="target">Target</label>
      <input id="target" name="target" type="text" required maxlength="2048"
        placeholder="app.example.com" value="${page.target ?? ''}">
      <button type="submit">Add authenticator</button>
    </form>
    <p><a href="${prefix}/">Back to the dashboard</a></p>`,
  );
}
