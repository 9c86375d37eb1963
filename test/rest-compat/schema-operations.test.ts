/**
 * The /v1 routes and the MCP tools run their fixed documents compiled once (graphql-jit) instead
 * of through graphql-js's `execute` on every request (issue 16: the per-field resolve info and
 * argument objects were the largest part of a request's allocation). Compiled execution must
 * answer exactly what graphql-js answers, data and errors alike, with the same resolvers and so
 * the same scope and tenant checks; and a document that does not fit the schema is still refused.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { execute, parse } from 'graphql';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Principal } from '../../src/auth/principal.ts';
import { closeChallenge } from '../../src/rest-compat/operations/close-challenge.ts';
import { getSession } from '../../src/rest-compat/operations/get-session.ts';
import { listSessions } from '../../src/rest-compat/operations/list-sessions.ts';
import { openChallenge } from '../../src/rest-compat/operations/open-challenge.ts';
import { SchemaOperations } from '../../src/rest-compat/schema-operations.ts';
import type { GraphQLContext } from '../../src/schema/context.ts';
import { appErrorOf } from '../../src/schema/errors.ts';
import { schema } from '../../src/schema/index.ts';
import type { TestApp } from '../helpers/app.ts';
import { createAccount, principalFor, startChallengeApp } from '../helpers/challenges.ts';

let t: TestApp;
let operations: SchemaOperations;
beforeAll(async () => {
  t = await startChallengeApp();
  operations = new SchemaOperations(t.app.db.orm, {
    config: t.app.config,
    challenge: t.app.challenges,
  });
});
afterAll(() => t?.stop());

/** graphql-js's answer for the same document, principal and variables. */
async function reference(document: object, principal: Principal, variables: object) {
  const contextValue: GraphQLContext = {
    principal,
    em: t.app.db.orm.em.fork() as EntityManager,
    services: { config: t.app.config, challenge: t.app.challenges },
  };
  const result = await execute({
    schema,
    document: document as never,
    contextValue,
    variableValues: variables as Record<string, unknown>,
  });
  if (result.errors?.length) {
    const app = appErrorOf(result.errors[0]);
    return { error: app?.code ?? 'unexpected' };
  }
  return { data: result.data };
}

async function compiled(run: () => Promise<unknown>) {
  try {
    return { data: await run() };
  } catch (error) {
    return { error: (error as { code?: string }).code ?? 'unexpected' };
  }
}

test('compiled documents answer what graphql-js answers: data, nulls and errors', async () => {
  const principal = principalFor(await createAccount(t.app));
  const opened = (await operations.run(openChallenge.document, principal, {
    input: {
      channel: 'email_otp',
      target: 'example.com',
      numberType: undefined,
      authenticatorId: undefined,
      requireAuthenticatedSender: undefined,
    },
  })) as { openChallenge: { id: string } };
  const id = opened.openChallenge.id;

  const get = { id };
  expect(await compiled(() => operations.run(getSession.document, principal, get))).toEqual(
    await reference(getSession.document, principal, get),
  );
  const list = { first: 5, after: undefined };
  expect(await compiled(() => operations.run(listSessions.document, principal, list))).toEqual(
    await reference(listSessions.document, principal, list),
  );

  // Another account's session: the same refusal either way (tenancy is in the resolvers).
  const stranger = principalFor(await createAccount(t.app));
  const theirs = await compiled(() => operations.run(getSession.document, stranger, get));
  expect(theirs).toEqual(await reference(getSession.document, stranger, get));
  expect(theirs).toEqual({ error: 'not_found' });

  // A credential without the scope: refused by the same scope check.
  const readOnly = principalFor(principal.accountId, { scopes: ['sessions:read'] });
  const refused = await compiled(() =>
    operations.run(closeChallenge.document, readOnly, { id } as never),
  );
  expect(refused).toEqual(await reference(closeChallenge.document, readOnly, { id }));
  expect(refused).toEqual({ error: 'insufficient_scope' });

  // Variables are coerced the same way: an unknown channel is a bad input either way.
  const bad = { input: { channel: 'carrier_pigeon' } };
  const badCompiled = await compiled(() =>
    operations.run(openChallenge.document, principal, bad as never),
  );
  expect(badCompiled.error).toBeDefined();
  expect(await reference(openChallenge.document, principal, bad)).toMatchObject({
    error: expect.any(String),
  });
});

test('a document that does not fit the running schema is refused before it runs', () => {
  expect(() => operations.check(parse('query { noSuchField }'))).toThrow(
    /operation does not fit the schema/,
  );
});
