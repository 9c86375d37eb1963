import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';

describe('configuration', () => {
  test('defaults follow the interface decisions', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      publicBaseUrl: 'http://localhost:8080',
      consoleUrl: 'http://localhost:8080/console',
      consolePath: '/console',
      databaseUrl: undefined,
      redisUrl: undefined,
      smtpPort: 2525,
      inboundEmailDomain: 'inbox.localhost',
      eventsSchemaBase: 'https://schemas.latchkey.dev',
      userCodeTtl: 600,
      claimPollInterval: 5,
      accessTokenTtl: 3600,
      assertionTtl: 2592000,
      sessionTtl: 900,
      socialProviders: [],
    });
    expect(config.dataDir).toMatch(/\/data$/);
  });

  test('PUBLIC_BASE_URL follows PORT and CONSOLE_URL follows PUBLIC_BASE_URL', () => {
    expect(loadConfig({ PORT: '9000' }).publicBaseUrl).toBe('http://localhost:9000');
    const config = loadConfig({ PUBLIC_BASE_URL: 'https://api.example.test/' });
    expect(config.publicBaseUrl).toBe('https://api.example.test');
    expect(config.consoleUrl).toBe('https://api.example.test/console');
  });

  test.each([
    ['PORT', 'eighty', /^PORT: /],
    ['PORT', '70000', /^PORT: /],
    ['PUBLIC_BASE_URL', 'not a url', /^PUBLIC_BASE_URL: /],
    ['DATABASE_URL', 'mysql://x', /^DATABASE_URL: must be a postgres/],
    ['REDIS_URL', 'http://x', /^REDIS_URL: must be a redis/],
    ['USER_CODE_TTL', '-5', /^USER_CODE_TTL: /],
    ['LOG_LEVEL', 'loud', /^LOG_LEVEL: /],
  ])('a bad %s value stops the start with a message naming it', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });

  test('a social provider slot must be configured completely', () => {
    expect(() => loadConfig({ OIDC_1_ISSUER: 'https://idp.example.test' })).toThrow(
      /OIDC_1_NAME, OIDC_1_ISSUER, OIDC_1_CLIENT_ID and OIDC_1_CLIENT_SECRET must be set together/,
    );
    const config = loadConfig({
      OIDC_2_NAME: 'Example',
      OIDC_2_ISSUER: 'https://idp.example.test',
      OIDC_2_CLIENT_ID: 'id',
      OIDC_2_CLIENT_SECRET: 'secret',
    });
    expect(config.socialProviders).toEqual([
      {
        slot: 2,
        name: 'Example',
        issuer: 'https://idp.example.test',
        clientId: 'id',
        clientSecret: 'secret',
      },
    ]);
  });
});
