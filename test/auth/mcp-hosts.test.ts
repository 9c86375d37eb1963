/**
 * MCP hosts connect with the MCP authorization flow (decisions.md "MCP hosts"), end to end with
 * stock parts: the MCP SDK client's own `auth()` (driven by StreamableHTTPClientTransport on its
 * 401) registers dynamically, sends the person's browser (real Chromium) to the authorization
 * endpoint, the person signs in and approves on the console, the browser lands on the host's
 * loopback redirect URI, and the SDK exchanges the code (PKCE S256) for a token that /mcp accepts.
 */
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/browser.ts';
import {
  type LoopbackRedirect,
  MemoryOAuthClient,
  startLoopbackRedirect,
} from '../helpers/mcp-oauth.ts';
import { email, password, person } from './support.ts';

let t: TestApp;
let browser: Browser;
let redirect: LoopbackRedirect;

beforeAll(async () => {
  t = await startTestApp();
  browser = await launchBrowser();
  redirect = await startLoopbackRedirect();
});
afterAll(async () => {
  await browser?.close();
  await redirect?.close();
  await t?.stop();
});

const mcpUrl = () => new URL(`${t.baseUrl}/mcp`);

async function signIn(page: Page, who: string) {
  await page.getByLabel('Email').fill(who);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe('the MCP authorization flow', () => {
  test('an MCP host registers, the person signs in and approves on the console, and the SDK client lists and calls tools with the token', async () => {
    const who = email('mcp-host');
    await person(t, who);
    const host = new MemoryOAuthClient(redirect.url);

    // The host's first request is refused; the SDK runs auth() and asks for a browser.
    const first = new Client({ name: 'test-host', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(mcpUrl(), { authProvider: host });
    await expect(first.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(host.client?.client_id).toEqual(expect.any(String));
    const authorization = host.authorizationUrl!;
    expect(authorization.origin + authorization.pathname).toBe(`${t.baseUrl}/oauth2/authorize`);
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorization.searchParams.get('resource')).toBe(t.baseUrl);

    const page = await (await browser.newContext()).newPage();
    await page.goto(authorization.href);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/console/login');
    await signIn(page, who);
    await expect
      .poll(() => page.getByRole('heading', { name: 'Connect Test MCP Host' }).count())
      .toBe(1);
    const consent = await page.locator('main').textContent();
    expect(consent).toContain(new URL(redirect.url).host);
    expect(consent).toContain('sessions:write');
    await page.getByRole('button', { name: 'Approve' }).click();
    const callback = await redirect.next();
    expect(callback.error).toBeNull();
    expect(callback.code).toEqual(expect.any(String));

    await transport.finishAuth(callback.code!);
    expect(host.saved?.access_token).toMatch(/^agt_/);
    expect(host.saved?.token_type).toBe('Bearer');
    // The SDK host registered for refresh_token, so it gets one (rotated on use).
    expect(host.saved?.refresh_token).toEqual(expect.any(String));

    const client = new Client({ name: 'test-host', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: host }));
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('open_challenge');
    const listed = await client.callTool({ name: 'list_numbers', arguments: { input: {} } });
    expect(listed.isError).toBeFalsy();
    expect(listed.structuredContent).toEqual({ sessions: [], has_more: false });

    // The host is an agent of the approving person's account, and Disconnect ends its token.
    await page.goto(`${t.consoleUrl}/agents`);
    expect(await page.locator('tbody').textContent()).toContain(who);
    await page.getByRole('button', { name: /^Disconnect/ }).click();
    await expect.poll(() => page.getByText('Agent disconnected.').count()).toBe(1);
    await expect(client.listTools()).rejects.toThrow();
    await client.close();
    await page.context().close();
  });
});
