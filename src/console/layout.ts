/** The page frame shared by every console page: language, title, stylesheet, header, main. */
import { html, type SafeHtml } from './html.ts';

export interface PageChrome {
  prefix: string;
  /** The signed-in person's email, shown in the header with a sign-out button. */
  signedInAs?: { email: string; csrf: string };
}

export function layout(title: string, chrome: PageChrome, body: SafeHtml): string {
  const nav = chrome.signedInAs
    ? html`<nav aria-label="Account">
        <span>Signed in as <strong>${chrome.signedInAs.email}</strong></span>
        <form method="post" action="${chrome.prefix}/logout" class="inline">
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
  <link rel="stylesheet" href="${chrome.prefix}/assets/console.css">
</head>
<body>
  <header><a href="${chrome.prefix}/" class="brand">Latchkey</a>${nav}</header>
  <main>${body}</main>
</body>
</html>`.value;
}

/** An error message announced to assistive technology. */
export const alertBox = (message: string | undefined) =>
  message ? html`<p role="alert" class="error">${message}</p>` : '';
