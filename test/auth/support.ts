/**
 * Shared steps of the agent-authentication tests: raw wire requests (so bodies are asserted
 * exactly), a person who signs up on the console, the claim form, and a fully claimed agent.
 */
import { expect } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { FormClient } from '../helpers/form.ts';
import { linkIn } from '../helpers/mail.ts';

export const claimGrant = 'urn:latchkey:agent-auth:grant-type:claim';
export const jwtBearer = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
export const password = 'correct horse battery';

export interface WireResponse {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: test bodies are asserted field by field
  body: any;
  text: string;
}

async function wire(response: Response): Promise<WireResponse> {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {}
  return { status: response.status, headers: response.headers, body, text };
}

export async function postForm(
  url: string,
  fields: Record<string, string> | string,
  headers: Record<string, string> = {},
): Promise<WireResponse> {
  return wire(
    await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: typeof fields === 'string' ? fields : new URLSearchParams(fields).toString(),
    }),
  );
}

export async function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<WireResponse> {
  return wire(
    await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  );
}

export async function get(url: string, headers: Record<string, string> = {}) {
  return wire(await fetch(url, { headers, redirect: 'manual' }));
}

export const token = (t: TestApp, fields: Record<string, string> | string) =>
  postForm(`${t.baseUrl}/oauth2/token`, fields);

export const poll = (t: TestApp, claimToken: string) =>
  token(t, { grant_type: claimGrant, claim_token: claimToken });

export interface Registration {
  registration_id: string;
  claim_token: string;
  claim_token_expires: string;
  post_claim_scopes: string[];
  claim: { user_code: string; expires_in: number; verification_uri: string; interval: number };
}

export async function register(
  t: TestApp,
  email: string,
  extra: Record<string, unknown> = {},
): Promise<Registration> {
  const response = await postJson(`${t.baseUrl}/agent/identity`, {
    type: 'service_auth',
    login_hint: email,
    ...extra,
  });
  expect(response.status).toBe(201);
  return response.body as Registration;
}

/**
 * A person who signed up on the console with `email`, verified it by following the link in the
 * mail the service sent (to the test's SMTP receiver), and is signed in.
 */
export async function person(t: TestApp, email: string): Promise<FormClient> {
  const client = new FormClient(t.baseUrl);
  const { response } = await client.submit('/console/signup', '/console/signup', {
    email,
    password,
  });
  expect(response.status).toBe(303);
  await verifyByMail(t, client, email);
  return client;
}

/** Follows the verification link mailed to `email`, as `client`. */
export async function verifyByMail(t: TestApp, client: FormClient, email: string) {
  if (!t.mail) throw new Error('this test app sends no mail to a receiver (MAIL_SMTP_URL set)');
  const link = new URL(linkIn(await t.mail.next(email), 'verify'));
  const verified = await client.get(link.pathname + link.search);
  expect(verified.response.status).toBe(200);
}

/** The console path of a registration's verification_uri. */
export const claimPath = (registration: Registration) => {
  const url = new URL(registration.claim.verification_uri);
  return `${url.pathname}${url.search}`;
};

export const attemptToken = (registration: Registration) =>
  new URL(registration.claim.verification_uri).searchParams.get('claim_attempt_token')!;

/** Submits the claim form as `client` with `code`. */
export async function submitClaim(client: FormClient, registration: Registration, code: string) {
  const page = await client.get(claimPath(registration));
  const form = new URLSearchParams({
    _csrf: FormClient.csrf(page.text),
    claim_attempt_token: attemptToken(registration),
    code,
  });
  return client.post('/console/claim', form.toString());
}

export interface ClaimedAgent {
  registration: Registration;
  person: FormClient;
  accessToken: string;
  assertion: string;
  tokenResponse: Record<string, unknown>;
}

/** Registers, claims as the right person and collects the tokens with one poll. */
export async function claimedAgent(
  t: TestApp,
  email: string,
  extra: Record<string, unknown> = {},
): Promise<ClaimedAgent> {
  const registration = await register(t, email, extra);
  const client = await person(t, email);
  const claimed = await submitClaim(client, registration, registration.claim.user_code);
  expect(claimed.response.status).toBe(200);
  const response = await poll(t, registration.claim_token);
  expect(response.status).toBe(200);
  return {
    registration,
    person: client,
    accessToken: response.body.access_token,
    assertion: response.body.identity_assertion,
    tokenResponse: response.body,
  };
}

let counter = 0;
/** A unique email per call (tests in a file share one app). */
export const email = (name: string) => `${name}-${++counter}-${Date.now()}@example.test`;

export const bearer = (accessToken: string) => ({ authorization: `Bearer ${accessToken}` });
