/**
 * Sender authentication of inbound mail (issue 21), end to end: a real DNS server on loopback
 * (dns2) publishes SPF, DKIM keys and DMARC for test domains; real DKIM-signed mail goes out with
 * nodemailer over SMTP to the service; the results are read back on every face. Also a DNS server
 * that never answers: mail is still accepted within 5 s, with `temperror`.
 */
import { generateKeyPairSync } from 'node:crypto';
import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { startChallengeApp } from '../../helpers/challenges.ts';
import { type DnsServer, startDnsServer, startSilentDns } from '../../helpers/dns.ts';
import { callTool, graphql, mcpClient, rest } from '../../helpers/faces.ts';
import { apiKey, newAccount } from '../../helpers/principals.ts';
import { startReceiver } from '../../helpers/webhook-receiver.ts';

const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const dkimRecord = `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`;
const dkimKey = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

/** The zone: acme.example signs its mail and sends from 127.0.0.1; evil.example is a forger. */
function publish(dns: DnsServer) {
  dns.txt('acme.example', 'v=spf1 ip4:127.0.0.1 -all');
  dns.txt('s1._domainkey.acme.example', dkimRecord);
  dns.txt('_dmarc.acme.example', 'v=DMARC1; p=reject');
  // A domain whose SPF authorises no one: mail claiming it fails SPF, hence DMARC.
  dns.txt('strict.example', 'v=spf1 -all');
  dns.txt('_dmarc.strict.example', 'v=DMARC1; p=reject');
  // The forger's own domain has a passing SPF record, as a real forger's would.
  dns.txt('evil.example', 'v=spf1 ip4:127.0.0.1 -all');
  dns.txt('s1._domainkey.evil.example', dkimRecord);
  dns.txt('_dmarc.evil.example', 'v=DMARC1; p=none');
}

const signedBy = (domainName: string) => ({ domainName, keySelector: 's1', privateKey: dkimKey });

function transport(t: TestApp, options: { dkim?: ReturnType<typeof signedBy> } = {}) {
  return nodemailer.createTransport({
    host: '127.0.0.1',
    port: t.app.smtpPort!,
    secure: false,
    ignoreTLS: true,
    name: 'mail.sender.example',
    ...(options.dkim ? { dkim: options.dkim } : {}),
  });
}

const code = (n: string): Mail.Options => ({
  subject: 'Your Acme verification code',
  text: `Your verification code is ${n}. It expires in 10 minutes.`,
});
const link = (url: string): Mail.Options => ({
  subject: 'Sign in to Acme',
  text: `Sign in: ${url}`,
  html: `<p><a href="${url}">Sign in to Acme</a></p>`,
});

async function open(t: TestApp, key: string, body: Record<string, unknown>) {
  const answer = await rest(t, 'POST', '/v1/sessions', key, body);
  expect(answer.status).toBe(201);
  return answer.body as { session_id: string; inbox_address: string };
}

const wait = (t: TestApp, key: string, id: string, timeout = 10) =>
  rest(t, 'POST', `/v1/sessions/${id}/wait`, key, { timeout });

describe('sender authentication with a real DNS server', () => {
  let t: TestApp;
  let dns: DnsServer;
  let key: string;
  beforeAll(async () => {
    dns = await startDnsServer();
    publish(dns);
    t = await startChallengeApp({
      env: { DNS_SERVERS: dns.address, WEBHOOK_ALLOW_PRIVATE: 'true' },
    });
    key = await apiKey(t, await newAccount(t));
  });
  afterAll(async () => {
    await t?.stop();
    await dns?.stop();
  });

  test('DKIM-signed mail from a domain whose SPF lists the client passes SPF, DKIM and DMARC, and the verdict says so', async () => {
    const session = await open(t, key, { channel: 'email_otp' });
    await transport(t, { dkim: signedBy('acme.example') }).sendMail({
      from: 'Acme <no-reply@acme.example>',
      to: session.inbox_address,
      ...code('583920'),
    });
    const verdict = await wait(t, key, session.session_id);
    expect(verdict.body).toMatchObject({
      verdict: 'otp_code',
      otp_code: '583920',
      sender: {
        address: 'no-reply@acme.example',
        domain: 'acme.example',
        authenticated: true,
        spf: 'pass',
        dkim: 'pass',
        dmarc: 'pass',
      },
    });
    // Codes carry no link fields.
    expect(verdict.body).not.toHaveProperty('link_domain');
  });

  test('unsigned mail from a domain whose SPF excludes the sending address fails SPF and DMARC', async () => {
    const session = await open(t, key, { channel: 'email_otp' });
    await transport(t).sendMail({
      from: 'alerts@strict.example',
      to: session.inbox_address,
      ...code('112358'),
    });
    const messages = await rest(t, 'GET', `/v1/sessions/${session.session_id}/messages`, key);
    expect(messages.status).toBe(200);
    expect(messages.body.messages[0].sender).toEqual({
      address: 'alerts@strict.example',
      domain: 'strict.example',
      authenticated: false,
      spf: 'fail',
      dkim: 'none',
      dmarc: 'fail',
    });
    // Without the requirement the message still yields its code, and carries no `rejected`.
    expect(messages.body.messages[0]).not.toHaveProperty('rejected');
    expect(messages.body.messages[0].parsed.otp_code).toBe('112358');
  });

  test('a body altered after signing fails DKIM, and without an aligned SPF pass, DMARC', async () => {
    const session = await open(t, key, { channel: 'email_otp' });
    const signed = await nodemailer
      .createTransport({ streamTransport: true, buffer: true, dkim: signedBy('acme.example') })
      .sendMail({ from: 'no-reply@acme.example', to: session.inbox_address, ...code('271828') });
    const raw = (signed.message as Buffer).toString('utf8');
    expect(raw).toContain('DKIM-Signature');
    const altered = raw.replace('271828', '999999');
    expect(altered).not.toBe(raw);
    // Sent from the forger's envelope: SPF passes for evil.example, which is not the From domain.
    await transport(t).sendMail({
      envelope: { from: 'bounce@evil.example', to: [session.inbox_address] },
      raw: altered,
    });
    const messages = await rest(t, 'GET', `/v1/sessions/${session.session_id}/messages`, key);
    const sender = messages.body.messages[0].sender;
    expect(['fail', 'neutral']).toContain(sender.dkim);
    expect(sender).toMatchObject({ spf: 'pass', dmarc: 'fail', authenticated: false });
  });

  test('under require_authenticated_sender a forged message that arrives first is stored but never returned, and the genuine one is', async () => {
    const session = await open(t, key, {
      channel: 'magic_link',
      target: 'https://acme.example/login',
      require_authenticated_sender: true,
    });
    const waiting = wait(t, key, session.session_id, 20);
    // The forger: its own envelope (SPF pass for evil.example), Acme's name in From, no signature.
    await transport(t).sendMail({
      envelope: { from: 'bounce@evil.example', to: [session.inbox_address] },
      from: 'Acme <login@acme.example>',
      to: session.inbox_address,
      ...link('https://acme-login.evil.example/verify?token=UGhpc2hYeW1R'),
    });
    // Mail the forger signed for its own domain is authenticated, but not from the target's.
    await transport(t, { dkim: signedBy('evil.example') }).sendMail({
      from: 'login@evil.example',
      to: session.inbox_address,
      ...link('https://evil.example/verify?token=UGhpc2gyWnpQ'),
    });
    const listed = await rest(t, 'GET', `/v1/sessions/${session.session_id}/messages`, key);
    expect(listed.body.messages.map((m: { rejected?: string }) => m.rejected)).toEqual([
      'sender_not_authenticated',
      'sender_not_authenticated',
    ]);
    expect(listed.body.messages.map((m: { parsed: unknown }) => m.parsed)).toEqual([null, null]);
    expect(listed.body.messages[1].sender).toMatchObject({ authenticated: true, dmarc: 'pass' });

    await transport(t, { dkim: signedBy('acme.example') }).sendMail({
      from: 'Acme <login@acme.example>',
      to: session.inbox_address,
      ...link('https://login.acme.example/verify?token=R2VudWluZTk3aXp'),
    });
    const verdict = await waiting;
    expect(verdict.status).toBe(200);
    expect(verdict.body).toMatchObject({
      verdict: 'magic_link',
      magic_link: 'https://login.acme.example/verify?token=R2VudWluZTk3aXp',
      sender: { address: 'login@acme.example', authenticated: true },
      link_domain: 'acme.example',
      link_matches_target: true,
    });
    const after = await rest(t, 'GET', `/v1/sessions/${session.session_id}/messages`, key);
    expect(after.body.messages).toHaveLength(3);
    expect(after.body.messages[2]).not.toHaveProperty('rejected');
    const session2 = await rest(t, 'GET', `/v1/sessions/${session.session_id}`, key);
    expect(session2.body).toMatchObject({ state: 'active', require_authenticated_sender: true });
  });

  test('magic-link checks: link_domain by the public suffix list, link_matches_target true, false, or null without a target', async () => {
    const withTarget = await open(t, key, { channel: 'magic_link', target: 'shop.acme.example' });
    await transport(t, { dkim: signedBy('acme.example') }).sendMail({
      from: 'login@acme.example',
      to: withTarget.inbox_address,
      ...link('https://evil.example/acme.example/verify?token=eDFMaW5rOTdpeg'),
    });
    expect((await wait(t, key, withTarget.session_id)).body).toMatchObject({
      link_domain: 'evil.example',
      link_matches_target: false,
    });

    // A private suffix (github.io) is a boundary: someone.github.io is its own registrable domain.
    const noTarget = await open(t, key, { channel: 'magic_link' });
    await transport(t, { dkim: signedBy('acme.example') }).sendMail({
      from: 'login@acme.example',
      to: noTarget.inbox_address,
      ...link('https://docs.someone.github.io/verify?token=eDJMaW5rOTdpeg'),
    });
    const verdict = await wait(t, key, noTarget.session_id);
    expect(verdict.body).toMatchObject({
      link_domain: 'someone.github.io',
      link_matches_target: null,
    });
    const listed = await rest(t, 'GET', `/v1/sessions/${noTarget.session_id}/messages`, key);
    expect(listed.body.messages[0].parsed).toMatchObject({
      link_domain: 'someone.github.io',
      link_matches_target: null,
    });
  });

  test('require_authenticated_sender on an sms_otp session is refused with invalid_request', async () => {
    const answer = await rest(t, 'POST', '/v1/sessions', key, {
      channel: 'sms_otp',
      require_authenticated_sender: true,
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'invalid_request' });
  });

  test('GraphQL messages and MCP open_challenge carry the sender and the requirement', async () => {
    const client = await mcpClient(t, key);
    const opened = await callTool(client, 'open_challenge', {
      channel: 'email_otp',
      target: 'acme.example',
      require_authenticated_sender: true,
    });
    const session = opened.data as { session_id: string; inbox_address: string };
    const shown = await rest(t, 'GET', `/v1/sessions/${session.session_id}`, key);
    expect(shown.body.require_authenticated_sender).toBe(true);
    await transport(t).sendMail({
      from: 'no-reply@strict.example',
      to: session.inbox_address,
      ...code('314159'),
    });
    const answer = await graphql(
      t,
      key,
      `query($id: ID!) { messages(sessionId: $id) { edges { node {
        rejected sender { address domain authenticated spf dkim dmarc } verdict { kind }
      } } } }`,
      { id: session.session_id },
    );
    expect(answer.body.data.messages.edges[0].node).toEqual({
      rejected: 'sender_not_authenticated',
      sender: {
        address: 'no-reply@strict.example',
        domain: 'strict.example',
        authenticated: false,
        spf: 'fail',
        dkim: 'none',
        dmarc: 'fail',
      },
      verdict: null,
    });
    const listed = await callTool(client, 'get_messages', { session_id: session.session_id });
    expect(listed.data).toMatchObject({
      messages: [{ rejected: 'sender_not_authenticated', sender: { spf: 'fail' } }],
    });
    await client.close();
  });

  test('session.verdict webhooks carry the sender and the link checks', async () => {
    const receiver = await startReceiver();
    try {
      const created = await rest(t, 'POST', '/v1/webhooks', key, {
        url: receiver.url,
        events: ['session.verdict'],
      });
      expect(created.status).toBe(201);
      const session = await open(t, key, { channel: 'magic_link', target: 'acme.example' });
      await transport(t, { dkim: signedBy('acme.example') }).sendMail({
        from: 'login@acme.example',
        to: session.inbox_address,
        ...link('https://acme.example/verify?token=SG9va0xpbms5N2l6'),
      });
      const [request] = await receiver.next(1);
      const event = JSON.parse(request!.body) as { type: string; data: Record<string, unknown> };
      expect(event.type).toBe('session.verdict');
      expect(event.data).toMatchObject({
        session_id: session.session_id,
        sender: {
          address: 'login@acme.example',
          domain: 'acme.example',
          authenticated: true,
          spf: 'pass',
          dkim: 'pass',
          dmarc: 'pass',
        },
        link_domain: 'acme.example',
        link_matches_target: true,
      });
      // Delivering the webhook consumed nothing: the wait still gets the link.
      expect((await wait(t, key, session.session_id, 0)).body.verdict).toBe('magic_link');
    } finally {
      await receiver.close();
    }
  });
});

describe('sender authentication when DNS never answers', () => {
  let t: TestApp;
  let silent: Awaited<ReturnType<typeof startSilentDns>>;
  let key: string;
  beforeAll(async () => {
    silent = await startSilentDns();
    t = await startChallengeApp({ env: { DNS_SERVERS: silent.address } });
    key = await apiKey(t, await newAccount(t));
  });
  afterAll(async () => {
    await t?.stop();
    await silent?.stop();
  });

  test('a signed message is accepted within 5 s with temperror, and still yields its code', async () => {
    const session = await open(t, key, { channel: 'email_otp' });
    const started = performance.now();
    const sending = transport(t, { dkim: signedBy('acme.example') }).sendMail({
      from: 'no-reply@acme.example',
      to: session.inbox_address,
      ...code('808080'),
    });
    // Meanwhile the service answers: DNS is waited on, never blocked on.
    const health = await fetch(`${t.baseUrl}/healthz`);
    expect(health.status).toBe(200);
    const info = await sending;
    const elapsed = performance.now() - started;
    expect(info.accepted).toEqual([session.inbox_address]);
    // The contract's bound (decisions.md: 250 within 5 s whatever DNS does), not a speed target.
    expect(elapsed).toBeLessThan(5000);
    expect(silent.queries).toBeGreaterThan(0);
    const verdict = await wait(t, key, session.session_id, 0);
    expect(verdict.body).toMatchObject({
      verdict: 'otp_code',
      otp_code: '808080',
      sender: {
        address: 'no-reply@acme.example',
        domain: 'acme.example',
        authenticated: false,
        spf: 'temperror',
        dkim: 'temperror',
        dmarc: 'temperror',
      },
    });
  });
});
