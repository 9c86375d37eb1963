/**
 * The consent page of the MCP authorization flow (`{console_url}/authorize/:uid`, routes in
 * authorize-routes.ts): which application asks, where the answer goes (the redirect host, the
 * one thing a look-alike name cannot fake), the scopes in plain words, and the buttons `Approve`
 * and `Deny`, each a CSRF-protected form.
 */

import { scopeList } from './claim-page.ts';
import { html } from './html.ts';
import { layout, type PageChrome } from './layout.ts';

export interface AuthorizePage {
  chrome: PageChrome;
  csrf: string;
  uid: string;
  clientName: string;
  redirectHost: string;
  scope: string;
  accountName: string;
}

export function authorizePage(page: AuthorizePage): string {
  const { prefix } = page.chrome;
  const action = (decision: string) => `${prefix}/authorize/${page.uid}/${decision}`;
  return layout(
    'Connect an application',
    page.chrome,
    html`<h1>Connect ${page.clientName}</h1>
    <p>The application <strong>${page.clientName}</strong> asks to act for your Latchkey account
      <strong>${page.accountName}</strong>. It will receive its access at
      <strong>${page.redirectHost}</strong>. If you approve, it will be able to:</p>
    ${scopeList(page.scope)}
    <p>Approve only an application you are connecting yourself right now. You can disconnect it
      at any time on the agents page.</p>
    <form method="post" action="${action('approve')}" class="inline">
      <input type="hidden" name="_csrf" value="${page.csrf}">
      <button type="submit">Approve</button>
    </form>
    <form method="post" action="${action('deny')}" class="inline">
      <input type="hidden" name="_csrf" value="${page.csrf}">
      <button type="submit" class="secondary">Deny</button>
    </form>`,
  );
}
