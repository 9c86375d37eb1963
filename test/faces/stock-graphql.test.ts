/**
 * Stock GraphQL tools work unchanged (issue 15): graphql-js's standard introspection query (what
 * GraphiQL, graphql-codegen, Postman and Apollo send) answers the whole schema, the SDL is served
 * as committed, and GraphiQL loads in a real Chromium and runs a query under the page's own
 * 'self'-only script policy.
 */
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { buildClientSchema, getIntrospectionQuery, printSchema } from 'graphql';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { graphql } from '../helpers/faces.ts';
import { apiKey, newAccount } from '../helpers/principals.ts';

const committed = readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8');

let t: TestApp;
let key: string;

beforeAll(async () => {
  t = await startTestApp();
  key = await apiKey(t, await newAccount(t));
});
afterAll(() => t?.stop());

describe('introspection', () => {
  test('the standard introspection query answers the full schema, equal to schema.graphql', async () => {
    const query = getIntrospectionQuery({
      descriptions: true,
      specifiedByUrl: true,
      directiveIsRepeatable: true,
      schemaDescription: true,
      inputValueDeprecation: true,
    });
    const answer = await graphql(t, key, query);
    expect(answer.status).toBe(200);
    expect(answer.body.errors).toBeUndefined();
    const client = buildClientSchema(answer.body.data);
    expect(printSchema(client)).toBe(committed.trimEnd());
  });

  test('introspection without a credential is refused with 401', async () => {
    const answer = await graphql(t, null, getIntrospectionQuery());
    expect(answer.status).toBe(401);
  });
});

describe('SDL', () => {
  test('GET /graphql/schema.graphql serves the committed schema as text/plain', async () => {
    const response = await fetch(`${t.baseUrl}/graphql/schema.graphql`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await response.text()).toBe(committed);
  });
});

describe('GraphiQL', () => {
  test('a browser GET /graphql gets GraphiQL whose scripts are allowed from self only', async () => {
    const response = await fetch(`${t.baseUrl}/graphql`, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*(unsafe|https?:|\*)/);
    expect(await response.text()).toContain('/graphql/graphiql/graphiql.js');
  });

  test('GraphiQL loads in Chromium and runs a query with an API key', async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      const violations: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy|Refused to/i.test(message.text()))
          violations.push(message.text());
      });
      await page.goto(`${t.baseUrl}/graphql`);
      await page.locator('.graphiql-container').first().waitFor({ timeout: 30_000 });
      // A person pastes the key into the Headers tab (open by default) and writes a query.
      await page.locator('.graphiql-editor-tool .monaco-editor').last().click();
      await page.keyboard.press('Control+A');
      await page.keyboard.insertText(JSON.stringify({ 'x-api-key': key }));
      // The editor closes brackets and quotes as they are typed; drop what it added.
      await page.keyboard.press('Shift+End');
      await page.keyboard.press('Delete');
      await page.locator('.graphiql-query-editor .monaco-editor').first().click();
      await page.keyboard.press('Control+A');
      await page.keyboard.insertText('{ viewer { accountId } }');
      await page.keyboard.press('Shift+End');
      await page.keyboard.press('Delete');
      const answered = page.waitForResponse(
        (r) => r.request().method() === 'POST' && (r.request().postData() ?? '').includes('viewer'),
        { timeout: 10_000 },
      );
      await page.locator('.graphiql-execute-button').click();
      const response = await answered;
      expect(response.status()).toBe(200);
      expect((await response.json()).data.viewer.accountId).toMatch(/\S/);
      await page.locator('.graphiql-response').getByText('accountId').first().waitFor();
      expect(violations).toEqual([]);
    } finally {
      await mkdir('test-results', { recursive: true });
      await browser.contexts()[0]?.pages()[0]?.screenshot({ path: 'test-results/graphiql.png' });
      await browser.close();
    }
  }, 60_000);

  test('with GRAPHIQL=false a browser GET /graphql gets no page', async () => {
    const off = await startTestApp({ env: { GRAPHIQL: 'false' } });
    try {
      const response = await fetch(`${off.baseUrl}/graphql`, { headers: { accept: 'text/html' } });
      expect(response.headers.get('content-type') ?? '').not.toMatch(/^text\/html/);
      expect(response.status).toBe(401);
      expect((await fetch(`${off.baseUrl}/graphql/graphiql/graphiql.js`)).status).toBe(404);
    } finally {
      await off.stop();
    }
  });
});
