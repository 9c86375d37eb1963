/** The console's account pages: sign-up, sign-in and the error page (the dashboard: dashboard-page.ts). */
import type { User } from '../entities/user.ts';
import { html } from './html.ts';
import { alertBox, layout, type PageChrome } from './layout.ts';

export interface FormPage {
  chrome: PageChrome;
  csrf: string;
  returnTo: string;
  email?: string;
  error?: string;
}

/** The email-and-password form both account pages share; only the action and wording differ. */
function credentialsForm(
  page: FormPage,
  form: { action: string; button: string; emailAutocomplete: string; passwordAutocomplete: string },
) {
  const minLength = form.action === 'signup' ? '10' : undefined;
  return html`<form method="post" action="${page.chrome.prefix}/${form.action}" class="stack">
      <input type="hidden" name="_csrf" value="${page.csrf}">
      <input type="hidden" name="return_to" value="${page.returnTo}">
      <label for="email">Email</label>
      <input id="email" name="email" type="email" autocomplete="${form.emailAutocomplete}" required value="${page.email ?? ''}">
      <label for="password">Password</label>
      <input id="password" name="password" type="password" autocomplete="${form.passwordAutocomplete}"${minLength ? html` minlength="${minLength}"` : ''} required>
      <button type="submit">${form.button}</button>
    </form>`;
}

export function signupPage(page: FormPage): string {
  const { prefix } = page.chrome;
  return layout(
    'Create account',
    page.chrome,
    html`<h1>Create your Latchkey account</h1>
    ${alertBox(page.error)}
    ${credentialsForm(page, { action: 'signup', button: 'Create account', emailAutocomplete: 'email', passwordAutocomplete: 'new-password' })}
    <p>Already have an account? <a href="${prefix}/login?return_to=${encodeURIComponent(page.returnTo)}">Sign in</a></p>`,
  );
}

export function loginPage(
  page: FormPage & { providers: { slot: number; name: string }[] },
): string {
  const { prefix } = page.chrome;
  const social = page.providers.map(
    (provider) => html`<form method="post" action="${prefix}/oidc/${provider.slot}/start">
      <input type="hidden" name="_csrf" value="${page.csrf}">
      <input type="hidden" name="return_to" value="${page.returnTo}">
      <button type="submit" class="secondary">Continue with ${provider.name}</button>
    </form>`,
  );
  return layout(
    'Sign in',
    page.chrome,
    html`<h1>Sign in to Latchkey</h1>
    ${alertBox(page.error)}
    ${credentialsForm(page, { action: 'login', button: 'Sign in', emailAutocomplete: 'username', passwordAutocomplete: 'current-password' })}
    <p><a href="${prefix}/forgot">Forgot password?</a></p>
    ${social.length ? html`<div class="social">${social}</div>` : ''}
    <p>New to Latchkey? <a href="${prefix}/signup?return_to=${encodeURIComponent(page.returnTo)}">Create an account</a></p>`,
  );
}

/** What the dashboard says after an action that redirected to it. */
export type DashboardNotice = 'verification_sent' | 'password_changed';

export const notices: Record<DashboardNotice, string> = {
  verification_sent: 'We sent a new verification email. Open its link to verify your address.',
  password_changed:
    'Your new password is set. Every other browser signed in to your account was signed out.',
};

/** Until the address is verified, the dashboard asks for it first (decisions.md). */
export function verifyRequest(chrome: PageChrome, user: User, csrf: string) {
  if (user.emailVerifiedAt) return '';
  return html`<section aria-labelledby="verify-heading" class="notice">
      <h2 id="verify-heading">Please verify your email address</h2>
      <p>We sent a link to <strong>${user.email}</strong>. Open it to verify your email address.
        Until you verify, you cannot connect agents or create API keys.</p>
      <form method="post" action="${chrome.prefix}/verify/resend" class="inline">
        <input type="hidden" name="_csrf" value="${csrf}">
        <button type="submit">Resend verification email</button>
      </form>
    </section>`;
}

export function errorPage(
  chrome: PageChrome,
  title: string,
  message: string,
  code: string,
): string {
  return layout(
    title,
    chrome,
    html`<h1>${title}</h1>${alertBox(message)}<p>Error code: <code>${code}</code></p>
    <p><a href="${chrome.prefix}/">Back to the console</a></p>`,
  );
}
