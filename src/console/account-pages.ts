/**
 * The pages of the mailed links: the answer to a verification link, "Forgot password"
 * (`{console_url}/forgot`: input `Email`, button `Send reset link`, an answer that never says
 * whether the account exists) and the reset form (`{console_url}/reset?token=…`: input
 * `New password`, button `Set password`). decisions.md fixes the accessible names.
 */
import { html } from './html.ts';
import { alertBox, layout, type PageChrome } from './layout.ts';

export function emailVerifiedPage(chrome: PageChrome, email: string): string {
  return layout(
    'Email verified',
    chrome,
    html`<h1>Email verified</h1>
    <p role="status" class="success">Thank you: <strong>${email}</strong> is verified. You can now
      connect agents and create API keys.</p>
    <p><a href="${chrome.prefix}/">Go to the dashboard</a></p>`,
  );
}

export function forgotPage(
  chrome: PageChrome,
  form: { csrf: string; email?: string; sent?: boolean; error?: string },
): string {
  const { prefix } = chrome;
  return layout(
    'Forgot password',
    chrome,
    html`<h1>Forgot your password?</h1>
    ${alertBox(form.error)}
    ${
      form.sent
        ? html`<p role="status" class="success">If an account uses <strong>${form.email ?? ''}</strong>,
          we have sent it a link to set a new password. The link works once, for one hour. Check your
          spam folder if nothing arrives in a few minutes.</p>`
        : html`<p>Type the email address of your account and we will send you a link to set a new
          password.</p>`
    }
    <form method="post" action="${prefix}/forgot" class="stack">
      <input type="hidden" name="_csrf" value="${form.csrf}">
      <label for="email">Email</label>
      <input id="email" name="email" type="email" autocomplete="username" required value="${form.email ?? ''}">
      <button type="submit">Send reset link</button>
    </form>
    <p><a href="${prefix}/login">Back to sign in</a></p>`,
  );
}

export function resetPage(
  chrome: PageChrome,
  form: { csrf: string; token: string; error?: string },
): string {
  const { prefix } = chrome;
  return layout(
    'Set a new password',
    chrome,
    html`<h1>Set a new password</h1>
    ${alertBox(form.error)}
    <p>Choose a new password of at least 10 characters. Setting it signs out every other browser
      signed in to your account.</p>
    <form method="post" action="${prefix}/reset" class="stack">
      <input type="hidden" name="_csrf" value="${form.csrf}">
      <input type="hidden" name="token" value="${form.token}">
      <label for="new-password">New password</label>
      <input id="new-password" name="password" type="password" autocomplete="new-password" minlength="10" required>
      <button type="submit">Set password</button>
    </form>`,
  );
}
