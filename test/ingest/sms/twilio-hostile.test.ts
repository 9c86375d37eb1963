/**
 * Issue 11 §6 for Twilio's webhook: any form content gets 200 or 4xx, never 5xx (fuzzed with
 * fast-check over signed and unsigned forms, NUL bytes, control characters, repeated fields and
 * raw bytes), and the signature covers the full URL Twilio called, query string included.
 */
import fc from 'fast-check';
import twilioWebhooks from 'twilio/lib/webhooks/webhooks.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openSession } from '../../../src/domain/sessions/open.ts';
import { waitForVerdict } from '../../../src/domain/verdicts/wait.ts';
import type { TestApp } from '../../helpers/app.ts';
import {
  countRows,
  createAccount,
  ctxOf,
  principalFor,
  startChallengeApp,
  TWILIO_TOKEN,
  twilioParams,
} from '../../helpers/challenges.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startChallengeApp();
});
afterAll(() => t?.stop());

type Form = Record<string, string | string[]>;

/** The form as Twilio sends it: urlencoded, repeated keys for list values. */
function encode(form: Form): string {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(form))
    for (const item of Array.isArray(value) ? value : [value]) body.append(name, item);
  return body.toString();
}

/** Posts `form` to the webhook at `path` (query string included), signed over `signedUrl`. */
function post(form: Form, options: { path?: string; signedUrl?: string; body?: string } = {}) {
  const path = options.path ?? '/ingest/sms/twilio';
  const signature = twilioWebhooks.getExpectedTwilioSignature(
    TWILIO_TOKEN,
    options.signedUrl ?? t.baseUrl + path,
    form,
  );
  return fetch(t.baseUrl + path, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': signature,
    },
    body: options.body ?? encode(form),
  });
}

async function openFor() {
  const principal = principalFor(await createAccount(t.app));
  const session = await openSession(ctxOf(t.app), principal);
  return { principal, session };
}

describe('the signature covers the full URL Twilio called', () => {
  test('a message signed over a webhook URL with a query string is accepted', async () => {
    const { principal, session } = await openFor();
    const form = twilioParams({ to: session.number!, body: 'Your code is 271828' });
    const response = await post(form, { path: '/ingest/sms/twilio?foo=bar&tenant=a%20b' });
    expect(response.status).toBe(200);
    expect(await waitForVerdict(ctxOf(t.app), principal, session.id, { timeout: 1 })).toMatchObject(
      { verdict: 'otp_code', otpCode: '271828' },
    );
  });

  test('a signature computed without the query string is refused with 403 and nothing is stored', async () => {
    const { session } = await openFor();
    const before = await countRows(t.app, 'inbound_message');
    const form = twilioParams({ to: session.number!, body: 'Your code is 314159' });
    const response = await post(form, {
      path: '/ingest/sms/twilio?foo=bar',
      signedUrl: `${t.baseUrl}/ingest/sms/twilio`,
    });
    expect(response.status).toBe(403);
    expect((await response.json()).code).toBe('forbidden');
    expect(await countRows(t.app, 'inbound_message')).toBe(before);
  });

  test('a signature over one query string does not hold for another', async () => {
    const { session } = await openFor();
    const form = twilioParams({ to: session.number!, body: 'Your code is 161803' });
    const response = await post(form, {
      path: '/ingest/sms/twilio?foo=baz',
      signedUrl: `${t.baseUrl}/ingest/sms/twilio?foo=bar`,
    });
    expect(response.status).toBe(403);
  });
});

describe('hostile form content', () => {
  test('a signed message whose body holds NUL bytes is acknowledged, stored, and its code delivered', async () => {
    const { principal, session } = await openFor();
    const form = twilioParams({ to: session.number!, body: 'Your code\u0000 is 577215\u0000' });
    const response = await post(form);
    expect(response.status).toBe(200);
    expect(await countRows(t.app, 'inbound_message', 'session_id = ?', [session.id])).toBe(1);
    expect(await waitForVerdict(ctxOf(t.app), principal, session.id, { timeout: 1 })).toMatchObject(
      { verdict: 'otp_code', otpCode: '577215' },
    );
  });

  test.each([
    ['From', { From: '+1415\u00005550100' }],
    ['To', { To: '+1201\u00005550100' }],
    ['MessageSid', { MessageSid: 'SM\u0000abc' }],
  ])('a NUL byte in %s is invalid_request (400) and nothing is stored', async (_field, change) => {
    const before = await countRows(t.app, 'inbound_message');
    const form = { ...twilioParams({ to: '+12015550100', body: 'code 123456' }), ...change };
    const response = await post(form);
    expect(response.status).toBe(400);
    const problem = await response.json();
    expect(problem.code).toBe('invalid_request');
    expect(problem.detail).toContain(Object.keys(change)[0]);
    expect(await countRows(t.app, 'inbound_message')).toBe(before);
  });

  test('a field sent twice is invalid_request, not a crash', async () => {
    const form: Form = {
      ...twilioParams({ to: '+12015550100', body: 'code 123456' }),
      Body: ['code 111111', 'code 222222'],
    };
    expect((await post(form)).status).toBe(400);
  });

  test('a JSON body is unsupported_media_type (415): Twilio posts forms', async () => {
    const form = twilioParams({ to: '+12015550100', body: 'code 123456' });
    const response = await fetch(`${t.baseUrl}/ingest/sms/twilio`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-twilio-signature': twilioWebhooks.getExpectedTwilioSignature(
          TWILIO_TOKEN,
          `${t.baseUrl}/ingest/sms/twilio`,
          form,
        ),
      },
      body: JSON.stringify(form),
    });
    expect(response.status).toBe(415);
    expect((await response.json()).code).toBe('unsupported_media_type');
  });
});

describe('fuzzed forms never get a 5xx', () => {
  // Any text, biased towards what breaks parsers and databases: NUL, control characters, lone
  // surrogates, non-characters and the form's own delimiters.
  const hostileChar = fc.oneof(
    fc.constantFrom(
      '\u0000',
      '\u0001',
      '\u001b',
      '\u007f',
      '\ud800',
      '\udfff',
      '\uffff',
      '%',
      '&',
      '=',
      '+',
    ),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
    fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }),
  );
  const anyText = fc.string({ unit: hostileChar, maxLength: 40 });
  const field = fc.oneof(
    { weight: 4, arbitrary: anyText },
    { weight: 1, arbitrary: fc.array(anyText, { minLength: 1, maxLength: 3 }) },
  );
  const twilioish = fc.record(
    {
      MessageSid: field,
      From: field,
      To: fc.oneof(fc.constant('+12015550100'), field),
      Body: fc.oneof(field, fc.string({ unit: 'binary', maxLength: 2000 })),
      AccountSid: field,
      NumMedia: field,
    },
    { requiredKeys: [] },
  );
  const extra = fc.dictionary(anyText, field, { maxKeys: 4 });
  const query = fc.oneof(
    fc.constant(''),
    fc.webQueryParameters().map((q) => `?${q}`),
    anyText.map((q) => `?${new URLSearchParams({ q })}`),
    // Raw, possibly malformed escapes (`%zz`) as a misconfigured webhook URL might carry.
    fc.string({ unit: 'grapheme-ascii', maxLength: 30 }).map((q) => `?${q.replace(/[#\s]/g, '')}`),
  );

  test('signed forms of any content are answered 200 or 4xx', async () => {
    await fc.assert(
      fc.asyncProperty(twilioish, extra, query, async (fields, more, search) => {
        const form = { ...more, ...fields } as Form;
        const response = await post(form, { path: `/ingest/sms/twilio${search}` });
        await response.arrayBuffer();
        expect(response.status).toBeGreaterThanOrEqual(200);
        expect(response.status).toBeLessThan(500);
      }),
      { numRuns: 150 },
    );
  });

  test('raw bytes as a form, with any signature header, are answered 4xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 300 }),
        fc.string({ unit: 'grapheme-ascii', maxLength: 40 }),
        async (bytes, signature) => {
          const response = await fetch(`${t.baseUrl}/ingest/sms/twilio`, {
            method: 'POST',
            headers: {
              'content-type': 'application/x-www-form-urlencoded',
              'x-twilio-signature': signature,
            },
            body: bytes,
          });
          await response.arrayBuffer();
          expect(response.status).toBeGreaterThanOrEqual(400);
          expect(response.status).toBeLessThan(500);
        },
      ),
      { numRuns: 100 },
    );
  });
});
