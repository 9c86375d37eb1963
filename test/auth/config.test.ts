/** The authentication settings of configuration: validated at start, errors naming the variable. */
import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';

describe('authentication configuration', () => {
  test('defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      trustedEventIssuers: [],
      eventsMaxAge: 300,
      serviceAuthEnabled: true,
      identitySigningKeys: undefined,
      authSweepInterval: 60,
      credentialRecheckInterval: 30,
      signingKeysRefreshInterval: 10,
    });
  });

  test.each([
    ['CREDENTIAL_RECHECK_INTERVAL', '0'],
    ['CREDENTIAL_RECHECK_INTERVAL', 'soon'],
    ['SIGNING_KEYS_REFRESH_INTERVAL', '-5'],
    ['SIGNING_KEYS_REFRESH_INTERVAL', '1.5'],
  ])('%s=%s stops the start with a ConfigError naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^${name}: `));
  });

  test('EVENTS_TRUSTED_ISSUERS accepts issuers with a jwks_uri or inline jwks', () => {
    const config = loadConfig({
      EVENTS_TRUSTED_ISSUERS: JSON.stringify([
        { issuer: 'https://a.example', jwks_uri: 'https://a.example/jwks' },
        {
          issuer: 'https://b.example',
          jwks: { keys: [{ kty: 'EC', crv: 'P-256', x: 'x', y: 'y' }] },
        },
      ]),
    });
    expect(config.trustedEventIssuers.map((i) => i.issuer)).toEqual([
      'https://a.example',
      'https://b.example',
    ]);
  });

  test.each([
    ['not json', 'EVENTS_TRUSTED_ISSUERS: must be valid JSON'],
    ['{"issuer":"x"}', 'EVENTS_TRUSTED_ISSUERS: '],
    ['[{"issuer":"x"}]', 'EVENTS_TRUSTED_ISSUERS: '],
    ['[{"issuer":"x","jwks_uri":"not a url"}]', 'EVENTS_TRUSTED_ISSUERS: '],
    ['[{"issuer":"x","jwks":{"keys":[]}}]', 'EVENTS_TRUSTED_ISSUERS: '],
    ['[{"issuer":"x","jwks_uri":"https://a","extra":1}]', 'EVENTS_TRUSTED_ISSUERS: '],
  ])('EVENTS_TRUSTED_ISSUERS=%s stops the start with a ConfigError naming it', (value, message) => {
    expect(() => loadConfig({ EVENTS_TRUSTED_ISSUERS: value })).toThrow(ConfigError);
    expect(() => loadConfig({ EVENTS_TRUSTED_ISSUERS: value })).toThrow(message);
  });

  test.each([
    ['[]'],
    ['[{"kty":"EC","crv":"P-256","x":"x","y":"y","kid":"public-only"}]'],
    ['[{"kty":"RSA","d":"x","kid":"k"}]'],
    ['nope'],
  ])('IDENTITY_SIGNING_KEYS=%s is refused (private P-256 keys with kid only)', (value) => {
    expect(() => loadConfig({ IDENTITY_SIGNING_KEYS: value })).toThrow(/^IDENTITY_SIGNING_KEYS: /);
  });

  test('IDENTITY_SIGNING_KEYS accepts private RSA and P-256 keys', async () => {
    const { exportJWK, generateKeyPair } = await import('jose');
    const rsa = await exportJWK((await generateKeyPair('RS256', { extractable: true })).privateKey);
    const ec = await exportJWK((await generateKeyPair('ES256', { extractable: true })).privateKey);
    const config = loadConfig({
      IDENTITY_SIGNING_KEYS: JSON.stringify([
        { ...rsa, kid: 'a' },
        { ...ec, kid: 'b' },
      ]),
    });
    expect(config.identitySigningKeys?.map((k) => k.kid)).toEqual(['a', 'b']);
  });

  test('SERVICE_AUTH_ENABLED takes true or false only', () => {
    expect(loadConfig({ SERVICE_AUTH_ENABLED: 'false' }).serviceAuthEnabled).toBe(false);
    expect(() => loadConfig({ SERVICE_AUTH_ENABLED: 'no' })).toThrow(/^SERVICE_AUTH_ENABLED: /);
  });
});
