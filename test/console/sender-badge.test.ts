/** The console's sender badge (issue 21): who sent a message and whether it is authenticated. */
import { describe, expect, test } from 'vitest';
import { senderBadge } from '../../src/console/sender-badge.ts';

describe('sender badge', () => {
  test('an authenticated sender shows its address and "Authenticated" with the three results', () => {
    const out = senderBadge({
      address: 'login@acme.example',
      domain: 'acme.example',
      authenticated: true,
      spf: 'pass',
      dkim: 'pass',
      dmarc: 'pass',
    }).value;
    expect(out).toContain('login@acme.example');
    expect(out).toContain('>Authenticated<');
    expect(out).toContain('title="SPF pass, DKIM pass, DMARC pass"');
  });

  test('a forged sender says "Not authenticated", and its address cannot inject markup', () => {
    const out = senderBadge({
      address: '"<img src=x onerror=alert(1)>"@evil.example',
      domain: 'evil.example',
      authenticated: false,
      spf: 'pass',
      dkim: 'none',
      dmarc: 'fail',
    }).value;
    expect(out).toContain('>Not authenticated<');
    expect(out).not.toContain('<img');
    expect(out).toContain('DMARC fail');
  });

  test('an SMS has no email sender', () => {
    expect(senderBadge(null).value).toContain('SMS');
  });
});
