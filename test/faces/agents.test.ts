/** The account's agents over GraphQL: a claimed agent sees itself and its siblings, never others'. */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { claimedAgent, email } from '../auth/support.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.stop());

const agents = async (accessToken: string) => {
  const response = await fetch(`${t.baseUrl}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      query: '{ agents { id status scopes claimEmail claimedAt revokedAt } }',
    }),
  });
  return (await response.json()) as {
    data?: { agents: { id: string; status: string; scopes: string[]; claimEmail: string }[] };
    errors?: { extensions: { code: string } }[];
  };
};

test('a claimed agent with keys:manage lists the agents claimed into its account, and only those', async () => {
  const owner = email('owner');
  const manager = await claimedAgent(t, owner, { scope: 'keys:manage' });
  const stranger = await claimedAgent(t, email('stranger'), { scope: 'keys:manage' });

  const listed = await agents(manager.accessToken);
  expect(listed.errors).toBeUndefined();
  expect(listed.data!.agents).toEqual([
    expect.objectContaining({
      id: manager.registration.registration_id,
      status: 'claimed',
      claimEmail: owner,
      scopes: expect.arrayContaining(['keys:manage', 'sessions:write']),
      revokedAt: null,
    }),
  ]);
  const theirs = await agents(stranger.accessToken);
  expect(theirs.data!.agents.map((a) => a.id)).toEqual([stranger.registration.registration_id]);
});

test('an agent without keys:manage is refused with insufficient_scope', async () => {
  const plain = await claimedAgent(t, email('plain'));
  expect((await agents(plain.accessToken)).errors?.[0]?.extensions.code).toBe('insufficient_scope');
});
