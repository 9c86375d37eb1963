/**
 * TRUST_PROXY (issue 11, hardening §4): a hop count or a list of proxy addresses, never "trust
 * everything". The client address is observed through the per-address registration throttle,
 * which counts `request.ip`.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { registrationLimits } from '../../src/auth/registration-routes.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

describe('TRUST_PROXY at start', () => {
  test('TRUST_PROXY=true stops the start with a message naming the variable and what to give', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(
      /^TRUST_PROXY: true would trust every X-Forwarded-For entry.*number of proxies.*addresses/,
    );
  });

  test('a hop count, a list of addresses and CIDR ranges, or false are accepted', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toEqual({ hops: 2 });
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.1.0.0/16,loopback' }).trustProxy).toEqual({
      proxies: ['10.0.0.1', '10.1.0.0/16', 'loopback'],
    });
  });

  test.each([
    ['not-an-address', /^TRUST_PROXY: invalid IP address: not-an-address; expected a hop count/],
    ['10.0.0.0/33', /^TRUST_PROXY: invalid range on address: 10\.0\.0\.0\/33/],
    ['yes', /^TRUST_PROXY: invalid IP address: yes/],
    ['500', /^TRUST_PROXY: a hop count of 500 is not plausible/],
  ])('TRUST_PROXY=%s stops the start with a message naming the variable', (value, message) => {
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(message);
  });
});

const register = (t: TestApp, email: string, forwardedFor: string) =>
  fetch(`${t.baseUrl}/agent/identity`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
    body: JSON.stringify({ type: 'service_auth', login_hint: email }),
  });

/**
 * Registers `max + 1` agents, each from a fresh spoofed leftmost X-Forwarded-For entry, as a
 * proxy would forward them for one real client at `client`; answers the statuses.
 */
async function registerAsOneClient(t: TestApp, client: string, label: string) {
  const statuses: number[] = [];
  for (let i = 0; i <= registrationLimits.perAddress.max; i += 1) {
    const spoofed = `203.0.113.${i + 1}`;
    const response = await register(t, `${label}-${i}@example.test`, `${spoofed}, ${client}`);
    statuses.push(response.status);
  }
  return statuses;
}

describe('with TRUST_PROXY=1 (one proxy in front)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { TRUST_PROXY: '1' } });
  });
  afterAll(() => t?.stop());

  test('a spoofed leftmost X-Forwarded-For address does not become the client address', async () => {
    const statuses = await registerAsOneClient(t, '198.51.100.7', 'hop');
    // Every request counted against the one address the proxy saw, so the last one is refused.
    expect(statuses.slice(0, -1).every((s) => s === 201)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  test('the address the proxy appended is the client address, so another client is not throttled', async () => {
    const response = await register(t, 'other-client@example.test', '198.51.100.8');
    expect(response.status).toBe(201);
  });
});

describe('with TRUST_PROXY listing the proxy address', () => {
  let t: TestApp;
  beforeAll(async () => {
    // The test client connects from loopback, so loopback plays the proxy.
    t = await startTestApp({ env: { TRUST_PROXY: '127.0.0.1' } });
  });
  afterAll(() => t?.stop());

  test('only the entry the trusted proxy appended is believed, not the spoofed ones before it', async () => {
    const statuses = await registerAsOneClient(t, '198.51.100.9', 'list');
    expect(statuses.slice(0, -1).every((s) => s === 201)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    expect((await register(t, 'list-other@example.test', '198.51.100.10')).status).toBe(201);
  });
});
