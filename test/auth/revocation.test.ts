/**
 * POST /oauth2/revoke (RFC 7009): revokes that one access token and no sibling, without a
 * client_id, answering 200 whether or not the token existed.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { bearer, claimedAgent, email, get, jwtBearer, postForm, token } from './support.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.stop());

const revoke = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  postForm(`${t.baseUrl}/oauth2/revoke`, fields, headers);
const status = async (accessToken: string) =>
  (await get(`${t.baseUrl}/v1/api-keys`, bearer(accessToken))).status;

test('revoking an access token stops it and leaves its siblings working', async () => {
  const agent = await claimedAgent(t, email('siblings'), { scope: 'keys:manage' });
  const second = (await token(t, { grant_type: jwtBearer, assertion: agent.assertion })).body
    .access_token;
  const third = (await token(t, { grant_type: jwtBearer, assertion: agent.assertion })).body
    .access_token;
  for (const value of [agent.accessToken, second, third]) expect(await status(value)).toBe(200);

  const response = await revoke({ token: second, token_type_hint: 'access_token' });
  expect(response.status).toBe(200);
  expect(response.text).toBe('');

  expect(await status(second)).toBe(401);
  expect(await status(agent.accessToken)).toBe(200);
  expect(await status(third)).toBe(200);
  // The registration itself stays claimed: the assertion still refreshes.
  expect((await token(t, { grant_type: jwtBearer, assertion: agent.assertion })).status).toBe(200);
});

test('revocation works without token_type_hint and with a wrong hint', async () => {
  const agent = await claimedAgent(t, email('hints'), { scope: 'keys:manage' });
  const other = (await token(t, { grant_type: jwtBearer, assertion: agent.assertion })).body
    .access_token;
  expect((await revoke({ token: agent.accessToken })).status).toBe(200);
  expect((await revoke({ token: other, token_type_hint: 'refresh_token' })).status).toBe(200);
  expect(await status(agent.accessToken)).toBe(401);
  expect(await status(other)).toBe(401);
});

test('an unknown or already revoked token is answered 200 (RFC 7009 §2.2)', async () => {
  const response = await revoke({ token: 'agt_never-issued', token_type_hint: 'access_token' });
  expect(response.status).toBe(200);
  expect(response.text).toBe('');
});

test('a missing token is invalid_request', async () => {
  const response = await revoke({ token_type_hint: 'access_token' });
  expect(response.status).toBe(400);
  expect(response.body).toEqual({
    error: 'invalid_request',
    error_description: "missing required parameter 'token'",
  });
});

test('the identity assertion cannot be revoked here (unsupported_token_type)', async () => {
  const agent = await claimedAgent(t, email('assertion'));
  const response = await revoke({ token: agent.assertion });
  expect(response.status).toBe(400);
  expect(response.body).toEqual({
    error: 'unsupported_token_type',
    error_description: 'Structured JWT Tokens cannot be revoked via the revocation_endpoint',
  });
});

test('an unknown client is invalid_client and revokes nothing', async () => {
  const agent = await claimedAgent(t, email('intruder'), { scope: 'keys:manage' });
  const response = await revoke({ token: agent.accessToken, client_id: 'intruder' });
  expect(response.status).toBe(401);
  expect(response.body).toEqual({
    error: 'invalid_client',
    error_description: 'client authentication failed',
  });
  expect(await status(agent.accessToken)).toBe(200);
});
