/**
 * The page frame shared by every console page: language, title, stylesheet, header with the
 * console's navigation, main. Scripts are files served from the console itself (CSP `script-src
 * 'self'`, no inline script); every page works without them.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { html, type SafeHtml } from './html.ts';

export interface PageChrome {
  prefix: string;
  /** The signed-in person's email, shown in the header with a sign-out button. */
  signedInAs?: { email: string; csrf: string };
  /** The navigation entry of this page (its path), marked `aria-current="page"`. */
  current?: string;
  /** Console-relative paths of scripts for progressive enhancement (`/assets/…`). */
  scripts?: string[];
}

/** The header of a page for this request: signed in (with the sign-out form's token) or not. */
export const chromeFor = (
  prefix: string,
  request: FastifyRequest,
  reply: FastifyReply,
): PageChrome =>
  request.user
    ? { prefix, signedInAs: { email: request.user.email, csrf: reply.generateCsrf() } }
    : { prefix };

/**
 * The console's sections, in navigation order. Another page joins the navigation with one line
 * here once its routes exist.
 */
export const navigation: readonly { path: string; label: string }[] = [
  { path: '/', label: 'Dashboard' },
  { path: '/agents', label: 'Agents' },
  { path: '/api-keys', label: 'API keys' },
  { path: '/webhooks', label: 'Webhooks' },
  { path: '/authenticators', label: 'Authenticators' },
  { path: '/usage', label: 'Usage' },
];

export function layout(title: string, chrome: PageChrome, body: SafeHtml): string {
  const { prefix } = chrome;
  const sections = chrome.signedInAs
    ? html`<nav aria-label="Console" class="sections"><ul>${navigation.map(
        (entry) =>
          html`<li><a href="${prefix}${entry.path}"${chrome.current === entry.path ? html` aria-current="page"` : ''}>${entry.label}</a></li>`,
      )}</ul></nav>`
    : '';
  const account = chrome.signedInAs
    ? html`<nav aria-label="Account" class="account">
        <span>Signed in as <strong>${chrome.signedInAs.email}</strong></span>
        <form method="post" action="${prefix}/logout" class="inline">
          <input type="hidden" name="_csrf" value="${chrome.signedInAs.csrf}">
          <button type="submit">Sign out</button>
        </form>
      </nav>`
    : '';
  return html`<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${title} · Latchkey</title>
  <link rel="stylesheet" href="${prefix}/assets/console.css">
  ${(chrome.scripts ?? []).map((path) => html`<script src="${prefix}${path}" defer></script>`)}
</head>
<body>
  <header><a href="${prefix}/" class="brand">Latchkey</a>${sections}${account}</header>
  <main>${body}</main>
</body>
</html>`.value;
}

/** An error message announced to assistive technology. */
export const alertBox = (message: string | undefined) =>
  message ? html`<p role="alert" class="error">${message}</p>` : '';

/** A success message announced politely. */
export const statusBox = (message: string | undefined) =>
  message ? html`<p role="status" class="success">${message}</p>` : '';

/** An instant as people read it in a table: UTC, to the second. */
export const when = (date: Date | null | undefined, none = '') =>
  date
    ? date
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d{3}Z$/, ' UTC')
    : none;
