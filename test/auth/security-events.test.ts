/**
 * POST /agent/event/notify: RFC 8417 security event tokens pushed as in RFC 8935. The revoked event
 * revokes the registration and every access token derived from it; every check refuses with the
 * RFC 8935 `{err, description}` body; a replayed jti changes nothing.
 */
import http from 'node:http';
import { exportJWK, generateKeyPair, SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freePort, startTestApp, type TestApp } from '../helpers/app.ts';
import { bearer, claimedAgent, email, get, jwtBearer, poll, register, token } from './support.ts';

const issuer = 'https://idp.example.test';
const remoteIssuer = 'https://remote-idp.example.test';
const eventType = 'https://schemas.latchkey.dev/events/agent/auth/identity/assertion/revoked';
let t: TestApp;
let key: CryptoKey;
let remoteKey: CryptoKey;
let jwksServer: http.Server;

beforeAll(async () => {
  const pair = await generateKeyPair('ES256', { extractable: true });
  key = pair.privateKey;
  const remote = await generateKeyPair('ES256', { extractable: true });
  remoteKey = remote.privateKey;
  const remoteJwks = JSON.stringify({
    keys: [{ ...(await exportJWK(remote.publicKey)), kid: 'r1', alg: 'ES256' }],
  });
  const port = await freePort();
  jwksServer = http.createServer((_req, res) =>
    res.setHeader('content-type', 'application/json').end(remoteJwks),
  );
  await new Promise<void>((resolve) => jwksServer.listen(port, '127.0.0.1', resolve));
  t = await startTestApp({
    env: {
      EVENTS_MAX_AGE: '120',
      EVENTS_TRUSTED_ISSUERS: JSON.stringify([
        {
          issuer,
          jwks: { keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256' }] },
        },
        { issuer: remoteIssuer, jwks_uri: `http://127.0.0.1:${port}/jwks.json` },
      ]),
    },
  });
});
afterAll(async () => {
  await t?.stop();
  jwksServer?.closeAllConnections();
  await new Promise((resolve) => jwksServer?.close(resolve));
});

let jtiCounter = 0;
interface EventOptions {
  sub: string;
  jti?: string;
  iss?: string;
  aud?: string;
  typ?: string;
  iat?: number;
  subjectIss?: string;
  events?: Record<string, unknown>;
  signWith?: CryptoKey;
  kid?: string;
}

function event(options: EventOptions) {
  const jwt = new SignJWT({
    events: options.events ?? {
      [eventType]: {
        subject: { format: 'iss_sub', iss: options.subjectIss ?? t.baseUrl, sub: options.sub },
      },
    },
  })
    .setProtectedHeader({
      alg: 'ES256',
      kid: options.kid ?? 'k1',
      typ: options.typ ?? 'secevent+jwt',
    })
    .setIssuer(options.iss ?? issuer)
    .setAudience(options.aud ?? t.baseUrl)
    .setIssuedAt(options.iat ?? Math.floor(Date.now() / 1000))
    .setJti(options.jti ?? `evt-${++jtiCounter}-${Date.now()}`);
  return jwt.sign(options.signWith ?? key);
}

async function deliver(body: string, contentType = 'application/secevent+jwt') {
  const response = await fetch(`${t.baseUrl}/agent/event/notify`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body,
  });
  const text = await response.text();
  return { status: response.status, text, body: text ? JSON.parse(text) : undefined };
}

const apiStatus = async (accessToken: string) =>
  (await get(`${t.baseUrl}/v1/api-keys`, bearer(accessToken))).status;

describe('the revoked event', () => {
  test("also deletes the API keys the revoked agent minted, and no one else's", async () => {
    const agent = await claimedAgent(t, email('minter'), { scope: 'keys:manage' });
    const other = await claimedAgent(t, email('other-minter'), { scope: 'keys:manage' });
    const mint = async (accessToken: string) => {
      const response = await fetch(`${t.baseUrl}/v1/api-keys`, {
        method: 'POST',
        headers: { ...bearer(accessToken), 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'minted', scopes: ['keys:manage'] }),
      });
      expect(response.status).toBe(201);
      return ((await response.json()) as { key: string }).key;
    };
    const minted = await mint(agent.accessToken);
    const untouched = await mint(other.accessToken);
    const keyStatus = async (secret: string) =>
      (await get(`${t.baseUrl}/v1/api-keys`, { 'x-api-key': secret })).status;
    expect(await keyStatus(minted)).toBe(200);

    expect((await deliver(await event({ sub: agent.registration.registration_id }))).status).toBe(
      202,
    );
    expect(await keyStatus(minted)).toBe(401);
    expect(await keyStatus(untouched)).toBe(200);
  });

  test('revokes the registration and every access token derived from it', async () => {
    const agent = await claimedAgent(t, email('revoked'), { scope: 'keys:manage' });
    const refreshed = (await token(t, { grant_type: jwtBearer, assertion: agent.assertion })).body
      .access_token;
    const bystander = await claimedAgent(t, email('bystander'), { scope: 'keys:manage' });

    const response = await deliver(await event({ sub: agent.registration.registration_id }));
    expect(response.status).toBe(202);
    expect(response.text).toBe('');

    expect(await apiStatus(agent.accessToken)).toBe(401);
    expect(await apiStatus(refreshed)).toBe(401);
    const exchange = await token(t, { grant_type: jwtBearer, assertion: agent.assertion });
    expect(exchange.body).toEqual({
      error: 'invalid_grant',
      error_description: 'the registration has been revoked',
    });
    const rows = await t.app.db.orm.em
      .fork()
      .getConnection()
      .execute(
        "select count(*)::int as n from oidc_payload where model = 'AccessToken' and account_id = ?",
        [agent.registration.registration_id],
      );
    expect(rows[0].n).toBe(0);
    const [registration] = await t.app.db.orm.em
      .fork()
      .getConnection()
      .execute('select status, revoked_at from agent_registration where id = ?', [
        agent.registration.registration_id,
      ]);
    expect(registration.status).toBe('revoked');
    expect(registration.revoked_at).not.toBeNull();
    // Others are untouched.
    expect(await apiStatus(bystander.accessToken)).toBe(200);
  });

  test('revokes a registration still waiting for its claim', async () => {
    const registration = await register(t, email('waiting'));
    expect((await deliver(await event({ sub: registration.registration_id }))).status).toBe(202);
    expect((await poll(t, registration.claim_token)).body).toEqual({
      error: 'invalid_grant',
      error_description: 'the registration has been revoked',
    });
  });

  test('from an issuer whose keys are fetched from its jwks_uri', async () => {
    const agent = await claimedAgent(t, email('remote'), { scope: 'keys:manage' });
    const signed = await event({
      sub: agent.registration.registration_id,
      iss: remoteIssuer,
      kid: 'r1',
      signWith: remoteKey,
    });
    expect((await deliver(signed)).status).toBe(202);
    expect(await apiStatus(agent.accessToken)).toBe(401);
  });

  test('a replayed jti is acknowledged and changes nothing', async () => {
    const first = await claimedAgent(t, email('replay-a'), { scope: 'keys:manage' });
    const second = await claimedAgent(t, email('replay-b'), { scope: 'keys:manage' });
    const jti = `replayed-${Date.now()}`;
    expect(
      (await deliver(await event({ sub: first.registration.registration_id, jti }))).status,
    ).toBe(202);
    // The same jti again, even re-targeted, is a replay: acknowledged, nothing revoked.
    expect(
      (await deliver(await event({ sub: second.registration.registration_id, jti }))).status,
    ).toBe(202);
    expect(await apiStatus(second.accessToken)).toBe(200);
    const receipts = await t.app.db.orm.em
      .fork()
      .getConnection()
      .execute('select count(*)::int as n from security_event_receipt');
    expect(receipts[0].n).toBeGreaterThan(0);
  });

  test('an unknown registration is acknowledged with nothing to revoke', async () => {
    expect((await deliver(await event({ sub: 'reg_unknownunknownunknown' }))).status).toBe(202);
  });
});

describe('refusals (RFC 8935 {err, description})', () => {
  const sub = 'reg_notrevokednotrevoked0';

  test.each([
    [
      'a wrong content type',
      async () => deliver(await event({ sub }), 'application/json'),
      'invalid_request',
      'the body must be application/secevent+jwt',
    ],
    [
      'an empty body',
      async () => deliver(''),
      'invalid_request',
      'the body must be application/secevent+jwt',
    ],
    [
      'a body that is not a JWT',
      async () => deliver('hello'),
      'invalid_request',
      'the body is not a signed JWT',
    ],
    [
      'an unsigned event (alg: none)',
      async () =>
        deliver(new UnsecuredJWT({ iss: issuer, aud: 'x', jti: 'a', iat: 1, events: {} }).encode()),
      'invalid_key',
      'the event must be signed',
    ],
    [
      'an untrusted issuer',
      async () => deliver(await event({ sub, iss: 'https://evil.example' })),
      'invalid_issuer',
      'the issuer is not trusted',
    ],
    [
      'a signature by another key',
      async () =>
        deliver(await event({ sub, signWith: (await generateKeyPair('ES256')).privateKey })),
      'invalid_key',
      'the signature does not verify with the issuer keys',
    ],
    [
      'a key of the other trusted issuer',
      async () => deliver(await event({ sub, signWith: remoteKey, kid: 'r1' })),
      'invalid_key',
      'the signature does not verify with the issuer keys',
    ],
    [
      'another audience',
      async () => deliver(await event({ sub, aud: 'https://elsewhere.example' })),
      'invalid_audience',
      'aud must be this server',
    ],
    [
      'typ JWT instead of secevent+jwt',
      async () => deliver(await event({ sub, typ: 'JWT' })),
      'invalid_request',
      'claim check failed: typ',
    ],
    [
      'an event older than EVENTS_MAX_AGE',
      async () => deliver(await event({ sub, iat: Math.floor(Date.now() / 1000) - 600 })),
      'invalid_request',
      'the event is too old (iat)',
    ],
    [
      'an event from the future',
      async () => deliver(await event({ sub, iat: Math.floor(Date.now() / 1000) + 600 })),
      'invalid_request',
      'iat is in the future',
    ],
    [
      'an unsupported event type',
      async () => deliver(await event({ sub, events: { 'https://example.test/other': {} } })),
      'invalid_request',
      `no supported event; supported: ${eventType}`,
    ],
    [
      'a subject that is not iss_sub',
      async () =>
        deliver(
          await event({
            sub,
            events: { [eventType]: { subject: { format: 'email', email: 'a@example.test' } } },
          }),
        ),
      'invalid_request',
      'the subject must be an iss_sub subject identifier',
    ],
    [
      'a subject of another issuer',
      async () => deliver(await event({ sub, subjectIss: 'https://other-as.example' })),
      'invalid_request',
      'the subject was not issued by this server',
    ],
  ])('%s', async (_name, send, err, description) => {
    const response = await send();
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ err, description });
  });

  test('a missing jti is invalid_request', async () => {
    const unsignedJti = await new SignJWT({
      events: { [eventType]: { subject: { format: 'iss_sub', iss: t.baseUrl, sub } } },
    })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1', typ: 'secevent+jwt' })
      .setIssuer(issuer)
      .setAudience(t.baseUrl)
      .setIssuedAt()
      .sign(key);
    const response = await deliver(unsignedJti);
    expect(response.status).toBe(400);
    expect(response.body.err).toBe('invalid_request');
  });

  test('an oversized body is refused without a 500', async () => {
    const response = await deliver('x'.repeat(20_000));
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ err: 'invalid_request', description: 'the body is too large' });
  });

  test('a refused event revokes nothing', async () => {
    const agent = await claimedAgent(t, email('untouched'), { scope: 'keys:manage' });
    await deliver(
      await event({ sub: agent.registration.registration_id, aud: 'https://elsewhere.example' }),
    );
    await deliver(
      await event({
        sub: agent.registration.registration_id,
        signWith: (await generateKeyPair('ES256')).privateKey,
      }),
    );
    expect(await apiStatus(agent.accessToken)).toBe(200);
  });
});
