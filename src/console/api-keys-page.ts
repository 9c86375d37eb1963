/**
 * The console's API keys page: the signed-in person's account keys (name, recognisable hint,
 * scopes, creation and last use), a form to create one (its secret shown once, on the page that
 * answers the creation) and a delete button per key. Every form carries the CSRF token.
 */

import { scopes } from '../auth/principal.ts';
import type { ApiKey } from '../entities/api-key.ts';
import { html } from './html.ts';
import { alertBox, layout, type PageChrome } from './layout.ts';

export interface ApiKeysPage {
  chrome: PageChrome;
  csrf: string;
  keys: ApiKey[];
  /** The secret of the key just created: shown this once. */
  created?: { name: string; secret: string };
  error?: string;
}

const when = (date: Date | null | undefined) =>
  date ? date.toISOString().replace(/\.\d{3}Z$/, 'Z') : 'never';

export function apiKeysPage(page: ApiKeysPage): string {
  const { prefix } = page.chrome;
  const rows = page.keys.map(
    (key) => html`<tr>
      <td>${key.name}</td>
      <td><code>${key.hint}</code></td>
      <td>${key.scope}</td>
      <td>${when(key.createdAt)}</td>
      <td>${when(key.lastUsedAt)}</td>
      <td><form method="post" action="${prefix}/api-keys/${key.id}/delete" class="inline">
        <input type="hidden" name="_csrf" value="${page.csrf}">
        <button type="submit" class="secondary" aria-label="Delete ${key.name}">Delete</button>
      </form></td>
    </tr>`,
  );
  return layout(
    'API keys',
    { ...page.chrome, current: '/api-keys' },
    html`<h1>API keys</h1>
    ${alertBox(page.error)}
    ${
      page.created
        ? html`<div role="status" class="success">
        <p>API key <strong>${page.created.name}</strong> created. Copy it now; it will not be shown again:</p>
        <p><code id="new-key">${page.created.secret}</code></p>
      </div>`
        : ''
    }
    <p>Send a key in the <code>x-api-key</code> header. Keys act for the whole account.</p>
    ${
      page.keys.length
        ? html`<table>
        <thead><tr><th>Name</th><th>Key</th><th>Scopes</th><th>Created</th><th>Last used</th><th></th></tr></thead>
        <tbody>${rows}</tbody>
      </table>`
        : html`<p>No API keys yet.</p>`
    }
    <h2>Create an API key</h2>
    <form method="post" action="${prefix}/api-keys" class="stack">
      <input type="hidden" name="_csrf" value="${page.csrf}">
      <label for="name">Name</label>
      <input id="name" name="name" type="text" required maxlength="100">
      <fieldset>
        <legend>Scopes</legend>
        ${scopes.map(
          (scope) =>
            html`<label><input type="checkbox" name="scopes" value="${scope}" checked> ${scope}</label><br>`,
        )}
      </fieldset>
      <button type="submit">Create API key</button>
    </form>
`,
  );
}
