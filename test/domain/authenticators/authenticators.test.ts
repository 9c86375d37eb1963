/**
 * Issue 20: authenticators over /v1 and GraphQL — stored from an otpauth URI or a base32 secret,
 * listed and deleted without their secret, every bad input a 400 naming the field that stores
 * nothing, and another account's authenticator invisible everywhere.
 */
import { authenticator as stock } from 'otplib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { graphql, rest } from '../../helpers/faces.ts';
import { apiKey, newAccount } from '../../helpers/principals.ts';

let t: TestApp;
let key: string;
let foreignKey: string;
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const URI = `otpauth://totp/ACME%20Co:alice%40example.com?secret=${SECRET}&issuer=ACME%20Co&digits=8&period=60&algorithm=SHA256`;

beforeAll(async () => {
  t = await startTestApp();
  key = await apiKey(t, await newAccount(t));
  foreignKey = await apiKey(t, await newAccount(t));
});
afterAll(() => t?.stop());

const list = async (k = key) => (await rest(t, 'GET', '/v1/authenticators', k)).body;

describe('REST /v1/authenticators', () => {
  test('an otpauth URI is stored with its label, issuer and parameters, listed, and deleted; the secret is in no answer', async () => {
    const created = await rest(t, 'POST', '/v1/authenticators', key, {
      target: 'https://app.acme.example/login',
      otpauth_uri: URI,
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^aut_/),
      target: 'https://app.acme.example/login',
      label: 'alice@example.com',
      issuer: 'ACME Co',
      digits: 8,
      period: 60,
      algorithm: 'SHA256',
      created_at: expect.any(String),
    });
    expect(created.text).not.toContain(SECRET);
    const listed = await rest(t, 'GET', '/v1/authenticators', key);
    expect(listed.body).toEqual({ authenticators: [created.body], has_more: false });
    expect(listed.text).not.toContain(SECRET);
    const gql = await graphql(
      t,
      key,
      '{ authenticators { edges { node { id target label issuer digits period algorithm createdAt } } } }',
    );
    expect(gql.body.data.authenticators.edges[0].node.id).toBe(created.body.id);
    expect(gql.text).not.toContain(SECRET);

    const deleted = await rest(t, 'DELETE', `/v1/authenticators/${created.body.id}`, key);
    expect(deleted.status).toBe(204);
    expect((await list()).authenticators).toEqual([]);
    const again = await rest(t, 'DELETE', `/v1/authenticators/${created.body.id}`, key);
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('not_found');
  });

  test('a base32 secret takes the defaults 6 digits, 30 s and SHA1, or the parameters given, and the enrolment a stock authenticator makes is accepted', async () => {
    const plain = await rest(t, 'POST', '/v1/authenticators', key, {
      target: 'plain.example',
      secret: 'jbsw y3dp ehpk 3pxp',
    });
    expect(plain.status).toBe(201);
    expect(plain.body).toMatchObject({ digits: 6, period: 30, algorithm: 'SHA1', label: null });
    const tuned = await rest(t, 'POST', '/v1/authenticators', key, {
      target: 'tuned.example',
      secret: SECRET,
      digits: 7,
      period: 45,
      algorithm: 'SHA512',
      label: 'bob',
      issuer: 'Tuned',
    });
    expect(tuned.body).toMatchObject({
      digits: 7,
      period: 45,
      algorithm: 'SHA512',
      label: 'bob',
      issuer: 'Tuned',
    });
    const stockUri = stock.keyuri('carol@example.com', 'Stock', stock.generateSecret(20));
    const fromStock = await rest(t, 'POST', '/v1/authenticators', key, {
      target: 'stock.example',
      otpauth_uri: stockUri,
    });
    expect(fromStock.status).toBe(201);
    expect(fromStock.body).toMatchObject({ label: 'carol@example.com', issuer: 'Stock' });
    for (const id of [plain.body.id, tuned.body.id, fromStock.body.id]) {
      expect((await rest(t, 'DELETE', `/v1/authenticators/${id}`, key)).status).toBe(204);
    }
  });

  const bad: [string, Record<string, unknown> | string, string][] = [
    [
      'an HOTP URI',
      { target: 'a.example', otpauth_uri: `otpauth://hotp/x?secret=${SECRET}&counter=1` },
      'otpauth_uri',
    ],
    [
      'bad base32 in a URI',
      { target: 'a.example', otpauth_uri: 'otpauth://totp/x?secret=AB1!' },
      'otpauth_uri',
    ],
    ['bad base32', { target: 'a.example', secret: 'NOT-BASE32-0189' }, 'secret'],
    ['a secret under 80 bits', { target: 'a.example', secret: 'JBSWY3DPEHPK3PX' }, 'secret'],
    [
      'a URI secret under 80 bits',
      { target: 'a.example', otpauth_uri: 'otpauth://totp/x?secret=JBSWY3DP' },
      'otpauth_uri',
    ],
    ['5 digits', { target: 'a.example', secret: SECRET, digits: 5 }, 'digits'],
    ['9 digits', { target: 'a.example', secret: SECRET, digits: 9 }, 'digits'],
    ['a 10 s period', { target: 'a.example', secret: SECRET, period: 10 }, 'period'],
    ['a 121 s period', { target: 'a.example', secret: SECRET, period: 121 }, 'period'],
    ['MD5', { target: 'a.example', secret: SECRET, algorithm: 'MD5' }, 'algorithm'],
    [
      'digits out of range in a URI',
      { target: 'a.example', otpauth_uri: `otpauth://totp/x?secret=${SECRET}&digits=10` },
      'otpauth_uri',
    ],
    [
      'a period out of range in a URI',
      { target: 'a.example', otpauth_uri: `otpauth://totp/x?secret=${SECRET}&period=5` },
      'otpauth_uri',
    ],
    [
      'an algorithm out of range in a URI',
      { target: 'a.example', otpauth_uri: `otpauth://totp/x?secret=${SECRET}&algorithm=MD5` },
      'otpauth_uri',
    ],
    ['a missing target', { secret: SECRET }, 'target'],
    ['an empty target', { target: ' ', secret: SECRET }, 'target'],
    ['a target that is no host', { target: '../..', secret: SECRET }, 'target'],
    ['neither secret nor URI', { target: 'a.example' }, 'otpauth_uri'],
    ['both secret and URI', { target: 'a.example', secret: SECRET, otpauth_uri: URI }, 'secret'],
    ['digits beside a URI', { target: 'a.example', otpauth_uri: URI, digits: 6 }, 'digits'],
    ['an unknown field', { target: 'a.example', secret: SECRET, counter: 1 }, ''],
    ['a body that is not JSON', '{"target": "a.example", secret', ''],
  ];

  test.each(bad)(
    '%s is 400 invalid_request naming the field, and nothing is stored',
    async (_name, body, field) => {
      const answer =
        typeof body === 'string'
          ? await rest(t, 'POST', '/v1/authenticators', key, undefined, body)
          : await rest(t, 'POST', '/v1/authenticators', key, body);
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('invalid_request');
      if (field) expect(answer.body.detail).toMatch(new RegExp(`^${field}\\b`));
      expect(answer.text).not.toContain(SECRET);
      expect((await list()).authenticators).toEqual([]);
    },
  );

  test("another account's authenticator is invisible: absent from its list, 404 to delete, no_authenticator to open a session on", async () => {
    const mine = await rest(t, 'POST', '/v1/authenticators', key, {
      target: 'mine.example',
      secret: SECRET,
    });
    expect((await list(foreignKey)).authenticators).toEqual([]);
    const deleted = await rest(t, 'DELETE', `/v1/authenticators/${mine.body.id}`, foreignKey);
    expect(deleted.status).toBe(404);
    expect(deleted.body.code).toBe('not_found');
    const viaGraphql = await graphql(
      t,
      foreignKey,
      'mutation($id: ID!) { deleteAuthenticator(id: $id) }',
      {
        id: mine.body.id,
      },
    );
    expect(viaGraphql.body.errors[0].extensions.code).toBe('not_found');
    for (const body of [
      { channel: 'totp', authenticator_id: mine.body.id },
      { channel: 'totp', target: 'mine.example' },
    ]) {
      const opened = await rest(t, 'POST', '/v1/sessions', foreignKey, body);
      expect(opened.status).toBe(422);
      expect(opened.body.code).toBe('no_authenticator');
    }
    const pagedByForeign = await rest(
      t,
      'GET',
      `/v1/authenticators?after=${mine.body.id}`,
      foreignKey,
    );
    expect(pagedByForeign.status).toBe(400);
    // Still there for its owner.
    expect((await list()).authenticators.map((a: { id: string }) => a.id)).toEqual([mine.body.id]);
    await rest(t, 'DELETE', `/v1/authenticators/${mine.body.id}`, key);
  });

  test('the list pages with limit and after', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const created = await rest(t, 'POST', '/v1/authenticators', key, {
        target: `page${i}.example`,
        secret: SECRET,
      });
      ids.push(created.body.id);
    }
    const first = await rest(t, 'GET', '/v1/authenticators?limit=2', key);
    expect(first.body.authenticators.map((a: { id: string }) => a.id)).toEqual(ids.slice(0, 2));
    expect(first.body.has_more).toBe(true);
    const second = await rest(t, 'GET', `/v1/authenticators?limit=2&after=${ids[1]}`, key);
    expect(second.body.authenticators.map((a: { id: string }) => a.id)).toEqual([ids[2]]);
    expect(second.body.has_more).toBe(false);
    for (const id of ids) await rest(t, 'DELETE', `/v1/authenticators/${id}`, key);
  });
});

describe('OpenAPI', () => {
  test('documents the authenticator routes without a secret in any answer, and the totp refusals of POST /v1/sessions', async () => {
    const doc = (await rest(t, 'GET', '/openapi.json', null)).body;
    const routes = doc.paths['/v1/authenticators'];
    expect(routes.get['x-required-scope']).toBe('authenticators:manage');
    expect(
      Object.keys(routes.post.requestBody.content['application/json'].schema.properties).sort(),
    ).toEqual([
      'algorithm',
      'digits',
      'issuer',
      'label',
      'otpauth_uri',
      'period',
      'secret',
      'target',
    ]);
    const created = routes.post.responses['201'].content['application/json'].schema;
    expect(Object.keys(created.properties)).not.toContain('secret');
    expect(doc.paths['/v1/authenticators/{id}'].delete.responses['204']).toBeDefined();
    const open = doc.paths['/v1/sessions'].post;
    expect(open.requestBody.content['application/json'].schema.properties.channel.enum).toContain(
      'totp',
    );
    expect(open.responses['422'].description).toContain('no_authenticator');
    expect(open.responses['409'].description).toContain('ambiguous_authenticator');
    const wait =
      doc.paths['/v1/sessions/{id}/wait'].post.responses['200'].content['application/json'];
    // Named shapes are components (`$ref`), inline ones are not.
    const waitSchema = wait.schema.$ref
      ? doc.components.schemas[wait.schema.$ref.split('/').pop()]
      : wait.schema;
    expect(waitSchema.properties.valid_until).toBeDefined();
  });
});
