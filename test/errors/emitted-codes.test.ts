/**
 * Every error code the source sends is in a registry (and so, by test/errors.test.ts, in
 * docs/errors.md). TypeScript already holds `AppError` and `OAuthError` to their registries; this
 * reads the source for the codes that pass through untyped strings: oidc-provider's error classes
 * and `CustomOIDCProviderError`, `WWW-Authenticate` challenges, GraphQL `extensions.code`,
 * interaction results, and the security-event receiver's refusals — and holds OAuth bodies to the
 * one path that builds them (`oauthBody`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { errorCodes, oauthErrorCodes, securityEventErrorCodes } from '../../src/errors/index.ts';

const root = new URL('../../src/', import.meta.url).pathname;

function sources(dir: string): { path: string; text: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    if (!entry.name.endsWith('.ts')) return [];
    return [{ path: relative(root, path), text: readFileSync(path, 'utf8') }];
  });
}

const files = sources(root);

/** `InvalidGrant` → `invalid_grant`: oidc-provider's classes are named after their codes. */
const snake = (name: string) => name.replace(/(?<!^)([A-Z])/g, '_$1').toLowerCase();

type Registry = 'problem' | 'oauth' | 'security-event';
const registries: Record<Registry, Record<string, unknown>> = {
  problem: errorCodes,
  oauth: oauthErrorCodes,
  'security-event': securityEventErrorCodes,
};

const patterns: [Registry, RegExp, (match: RegExpExecArray) => string][] = [
  ['problem', /new AppError\(\s*'([a-z_]+)'/g, (m) => m[1]!],
  ['problem', /extensions: \{[^}]*?\bcode: '([a-z_]+)'/g, (m) => m[1]!],
  ['oauth', /new OAuthError\(\s*'([a-z_]+)'/g, (m) => m[1]!],
  ['oauth', /CustomOIDCProviderError\(\s*'([a-z_]+)'/g, (m) => m[1]!],
  ['oauth', /new errors\.((?!Custom)[A-Z][A-Za-z]+)\(/g, (m) => snake(m[1]!)],
  ['oauth', /error="([a-z_]+)"/g, (m) => m[1]!],
  ['oauth', /\berror: '([a-z_]+)',\s*error_description/g, (m) => m[1]!],
  ['oauth', /'([a-z_]+_not_enabled)'/g, (m) => m[1]!],
  ['security-event', /new EventRefused\(\s*'([a-z_]+)'/g, (m) => m[1]!],
  ['security-event', /refuse\(reply, '([a-z_]+)'/g, (m) => m[1]!],
];

const emitted = files.flatMap(({ path, text }) =>
  patterns.flatMap(([registry, pattern, code]) =>
    [...text.matchAll(pattern)].map((match) => ({ registry, code: code(match), path })),
  ),
);

describe('codes the source emits', () => {
  test.each(emitted.map((e) => [`${e.registry} ${e.code} (${e.path})`, e] as const))(
    '%s is in its registry',
    (_label, { registry, code }) => {
      expect(Object.keys(registries[registry])).toContain(code);
    },
  );

  test('the scan sees the codes of every path, the *_not_enabled ones included', () => {
    const seen = (registry: Registry) =>
      new Set(emitted.filter((e) => e.registry === registry).map((e) => e.code));
    expect([...seen('oauth')]).toEqual(
      expect.arrayContaining([
        'anonymous_not_enabled',
        'identity_assertion_not_enabled',
        'service_auth_not_enabled',
        'invalid_grant',
        'authorization_pending',
        'slow_down',
        'expired_token',
        'invalid_token',
        'rate_limited',
      ]),
    );
    expect([...seen('problem')]).toEqual(
      expect.arrayContaining(['query_too_complex', 'not_found', 'invalid_request']),
    );
    expect([...seen('security-event')]).toEqual(
      expect.arrayContaining(['invalid_issuer', 'invalid_key', 'internal_error']),
    );
  });

  test('OAuth bodies are built in one place: no error_description outside oauthBody', () => {
    const builders = files
      .filter(({ text }) => /\berror_description:/.test(text))
      .map(({ path }) => path);
    // The console's consent page hands oidc-provider an interaction result, which the provider
    // renders itself (RFC 6749 §4.1.2.1, to the redirect URI).
    expect(builders.sort()).toEqual(['console/authorize-routes.ts', 'errors/oauth.ts']);
  });
});
