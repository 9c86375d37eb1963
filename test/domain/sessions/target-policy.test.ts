/**
 * The unsupported-target policy: matching on registrable domain (subdomains refused, look-alikes
 * not), operator additions and exceptions, and the documented list kept identical to the code.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'tldts';
import { describe, expect, test } from 'vitest';
import { createTargetPolicy } from '../../../src/domain/sessions/target-policy.ts';
import {
  refusedDomains,
  refusedTopLevelDomains,
} from '../../../src/domain/sessions/target-policy-list.ts';

const policy = createTargetPolicy();
const refusal = (target: string, p = policy) => {
  try {
    p.check(target);
    return null;
  } catch (error) {
    return error as { code: string; extra: { category: string; domain: string } };
  }
};

describe('matching', () => {
  test.each([
    ['google.com', 'identity_provider', 'google.com'],
    ['https://accounts.google.com/signin/v2', 'identity_provider', 'google.com'],
    ['LOGIN.MICROSOFTONLINE.COM.', 'identity_provider', 'microsoftonline.com'],
    ['acme.okta.com', 'identity_provider', 'okta.com'],
    ['https://dashboard.stripe.com/login', 'payment_processor', 'stripe.com'],
    ['www.paypal.com:443', 'payment_processor', 'paypal.com'],
    ['secure.chase.com', 'bank', 'chase.com'],
    ['online.hsbc.co.uk', 'bank', 'hsbc.co.uk'],
    ['www.anybank.bank', 'bank', 'anybank.bank'],
  ])('%s is refused as %s (%s)', (target, category, domain) => {
    expect(refusal(target)).toMatchObject({
      code: 'unsupported_target',
      extra: { category, domain },
    });
  });

  test.each([
    'google.com.example.net',
    'paypa1.com',
    'pаypal.com',
    'stripe.com.co',
    'notchase.com',
    'someone.github.io',
    'myapp.example.com',
    'http://127.0.0.1:3000/login',
    'localhost',
  ])('%s is allowed', (target) => {
    expect(refusal(target)).toBeNull();
  });

  test('an unparseable target is invalid_request', () => {
    expect(refusal('not a host')?.code).toBe('invalid_request');
    expect(refusal('https://')?.code).toBe('invalid_request');
  });

  test('TARGET_POLICY_EXTRA refuses more (subdomains included); TARGET_POLICY_ALLOW makes exceptions', () => {
    const configured = createTargetPolicy({ extra: ['acme-idp.example'], allow: ['okta.com'] });
    expect(refusal('login.acme-idp.example', configured)?.extra).toEqual({
      category: 'configured',
      domain: 'acme-idp.example',
    });
    expect(refusal('acme.okta.com', configured)).toBeNull();
    expect(refusal('google.com', configured)?.code).toBe('unsupported_target');
  });
});

describe('the maintained list', () => {
  test('every entry is a registrable domain, listed once', () => {
    const all = Object.values(refusedDomains).flat();
    expect(new Set(all).size).toBe(all.length);
    for (const domain of all) {
      expect(parse(domain, { allowPrivateDomains: true }).domain, domain).toBe(domain);
    }
  });

  test('docs/target-policy.md lists exactly the same domains and top-level domains', () => {
    const doc = readFileSync(new URL('../../../docs/target-policy.md', import.meta.url), 'utf8');
    const documented = [...doc.matchAll(/^\| `([a-z0-9.-]+)` \|$/gm)].map((m) => m[1]);
    expect(documented.sort()).toEqual(Object.values(refusedDomains).flat().sort());
    const tlds = [...doc.matchAll(/^\| `\.([a-z]+)` \| `([a-z_]+)` \|$/gm)].map((m) => [
      m[1],
      m[2],
    ]);
    expect(Object.fromEntries(tlds)).toEqual(refusedTopLevelDomains);
  });
});
