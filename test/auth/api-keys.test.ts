/**
 * API keys: /v1/api-keys (keys:manage) and the console page. The secret is shown once, stored as
 * a digest, recognisable by its prefix, records its last use, and acts only within its account
 * and its scopes.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { FormClient } from '../helpers/form.ts';
import { bearer, claimedAgent, email, get, person, postJson } from './support.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.stop());

const api = (path = '') => `${t.baseUrl}/v1/api-keys${path}`;
const del = async (path: string, headers: Record<string, string>) => {
  const response = await fetch(api(path), { method: 'DELETE', headers });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
};

describe('/v1/api-keys', () => {
  test('create shows the secret once; list never does; the key works and records its use', async () => {
    const agent = await claimedAgent(t, email('keys'), { scope: 'keys:manage' });
    const created = await postJson(
      api(),
      { name: 'CI', scopes: ['sessions:read', 'keys:manage'] },
      bearer(agent.accessToken),
    );
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    expect(created.body).toMatchObject({
      name: 'CI',
      scopes: ['sessions:read', 'keys:manage'],
      last_used_at: null,
      created_by: agent.registration.registration_id,
    });
    expect(created.body.id).toMatch(/^key_/);
    expect(created.body.key).toMatch(/^lk_live_[A-Za-z0-9_-]{43}$/);
    expect(created.body.hint).toBe(`${created.body.key.slice(0, 12)}…`);

    const listed = await get(api(), bearer(agent.accessToken));
    expect(listed.status).toBe(200);
    expect(listed.text).not.toContain(created.body.key);
    expect(listed.body.api_keys).toEqual([
      expect.objectContaining({ id: created.body.id, name: 'CI', hint: created.body.hint }),
    ]);

    const [row] = await t.app.db.orm.em
      .fork()
      .getConnection()
      .execute('select * from api_key where id = ?', [created.body.id]);
    expect(JSON.stringify(row)).not.toContain(created.body.key);
    expect(row.secret_hash).toBe(createHash('sha256').update(created.body.key).digest('hex'));

    const viaKey = await get(api(), { 'x-api-key': created.body.key });
    expect(viaKey.status).toBe(200);
    const used = viaKey.body.api_keys.find((k: { id: string }) => k.id === created.body.id);
    expect(used.last_used_at).not.toBeNull();

    const principal = await t.app.server.credentials.authenticate({ apiKey: created.body.key });
    expect(principal).toMatchObject({
      kind: 'api_key',
      credentialId: created.body.id,
      agentId: created.body.id,
    });
    expect([...principal.scopes]).toEqual(['sessions:read', 'keys:manage']);
  });

  test('a key created without scopes gets its creator’s; never more than its creator holds', async () => {
    const agent = await claimedAgent(t, email('subset'), { scope: 'keys:manage' });
    const defaulted = await postJson(api(), { name: 'default' }, bearer(agent.accessToken));
    expect(defaulted.body.scopes).toEqual([
      'sessions:write',
      'sessions:read',
      'otp:read',
      'usage:read',
      'keys:manage',
    ]);
    const narrow = await postJson(
      api(),
      { name: 'narrow', scopes: ['keys:manage'] },
      bearer(agent.accessToken),
    );
    const widened = await postJson(
      api(),
      { name: 'wider', scopes: ['otp:read'] },
      { 'x-api-key': narrow.body.key },
    );
    expect(widened.status).toBe(403);
    expect(widened.body).toMatchObject({
      code: 'forbidden',
      detail: 'A key cannot have scopes its creator lacks: otp:read',
    });
  });

  test('delete removes the key; it stops working; another account’s key is not_found', async () => {
    const owner = await claimedAgent(t, email('owner'), { scope: 'keys:manage' });
    const stranger = await claimedAgent(t, email('stranger'), { scope: 'keys:manage' });
    const created = await postJson(api(), { name: 'doomed' }, bearer(owner.accessToken));

    const foreign = await del(`/${created.body.id}`, bearer(stranger.accessToken));
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ code: 'not_found', status: 404 });
    expect((await get(api(), { 'x-api-key': created.body.key })).status).toBe(200);
    const strangerList = await get(api(), bearer(stranger.accessToken));
    expect(strangerList.body.api_keys).toEqual([]);

    const deleted = await del(`/${created.body.id}`, bearer(owner.accessToken));
    expect(deleted.status).toBe(204);
    expect((await get(api(), { 'x-api-key': created.body.key })).status).toBe(401);
    expect((await del(`/${created.body.id}`, bearer(owner.accessToken))).status).toBe(404);
  });

  test.each([
    [{ name: 'x', scopes: ['root'] }, 'scopes.0'],
    [{ name: 'x', scopes: 'keys:manage' }, 'scopes'],
    [{ name: 'x'.repeat(101) }, 'name'],
    [{ name: 'x', admin: true }, ''],
    [{ name: '   ' }, 'name'],
    [{ name: 'x', scopes: [] }, 'scopes'],
  ])('a malformed body is a problem+json invalid_request (%#)', async (body, field) => {
    const agent = await claimedAgent(t, email('malformed'), { scope: 'keys:manage' });
    const response = await postJson(api(), body, bearer(agent.accessToken));
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(response.body.code).toBe('invalid_request');
    if (field) expect(response.body.detail).toContain(field);
  });

  test('malformed JSON is a problem+json invalid_request', async () => {
    const agent = await claimedAgent(t, email('json'), { scope: 'keys:manage' });
    const response = await postJson(api(), '{"name":', bearer(agent.accessToken));
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('invalid_request');
  });

  test('every route needs keys:manage', async () => {
    const agent = await claimedAgent(t, email('noscope'));
    expect((await get(api(), bearer(agent.accessToken))).status).toBe(403);
    expect((await postJson(api(), { name: 'x' }, bearer(agent.accessToken))).status).toBe(403);
    expect((await del('/key_x', bearer(agent.accessToken))).status).toBe(403);
    expect((await del('/key_x', {})).status).toBe(401);
  });
});

describe('the console page', () => {
  const page = async (client: FormClient) => client.get('/console/api-keys');

  test('an anonymous visitor is sent to sign in and back', async () => {
    const { response } = await new FormClient(t.baseUrl).get('/console/api-keys');
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/console/login?return_to=%2Fconsole%2Fapi-keys');
  });

  test('a person creates a key (shown once), sees it listed by hint, and deletes it', async () => {
    const client = await person(t, email('console-keys'));
    const form = new URLSearchParams({
      _csrf: FormClient.csrf((await page(client)).text),
      name: 'Laptop <b>',
    });
    form.append('scopes', 'sessions:read');
    form.append('scopes', 'otp:read');
    const created = await client.post('/console/api-keys', form.toString());
    expect(created.response.status).toBe(201);
    const secret = /<code id="new-key">(lk_live_[A-Za-z0-9_-]{43})<\/code>/.exec(created.text)![1]!;
    expect(created.text).toContain('Laptop &lt;b&gt;');
    expect(created.text).not.toContain('Laptop <b>');

    const principal = await t.app.server.credentials.authenticate({ apiKey: secret });
    expect([...principal.scopes]).toEqual(['sessions:read', 'otp:read']);

    const listing = await page(client);
    expect(listing.text).not.toContain(secret);
    expect(listing.text).toContain(secret.slice(0, 12));
    const id = /action="\/console\/api-keys\/(key_[A-Za-z0-9_-]+)\/delete"/.exec(listing.text)![1]!;

    const deleted = await client.post(
      `/console/api-keys/${id}/delete`,
      new URLSearchParams({ _csrf: FormClient.csrf(listing.text) }).toString(),
    );
    expect(deleted.response.status).toBe(303);
    await expect(t.app.server.credentials.authenticate({ apiKey: secret })).rejects.toMatchObject({
      status: 401,
    });
  });

  test('forms without a CSRF token change nothing', async () => {
    const client = await person(t, email('csrf-keys'));
    await page(client);
    const created = await client.post(
      '/console/api-keys',
      new URLSearchParams({ name: 'sneaky', scopes: 'otp:read' }).toString(),
    );
    expect(created.response.status).toBe(403);
    expect((await page(client)).text).toContain('No API keys yet.');
  });

  test('a person cannot delete another account’s key', async () => {
    const owner = await claimedAgent(t, email('console-owner'), { scope: 'keys:manage' });
    const created = await postJson(api(), { name: 'theirs' }, bearer(owner.accessToken));
    const client = await person(t, email('console-stranger'));
    const listing = await page(client);
    const response = await client.post(
      `/console/api-keys/${created.body.id}/delete`,
      new URLSearchParams({ _csrf: FormClient.csrf(listing.text) }).toString(),
    );
    expect(response.response.status).toBe(404);
    expect((await get(api(), { 'x-api-key': created.body.key })).status).toBe(200);
  });

  test('an unknown scope is refused with the form shown again', async () => {
    const client = await person(t, email('console-bad'));
    const form = new URLSearchParams({
      _csrf: FormClient.csrf((await page(client)).text),
      name: 'x',
      scopes: 'root',
    });
    const response = await client.post('/console/api-keys', form.toString());
    expect(response.response.status).toBe(400);
    expect(response.text).toContain('Choose scopes from the list');
  });
});
