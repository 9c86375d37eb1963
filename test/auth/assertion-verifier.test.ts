/**
 * The assertion verifier (src/auth/assertion-verifier.ts) against plain jose: whatever it accepts
 * jose accepts too (it is never more lenient), and it refuses every classic JWS attack.
 */
import fc from 'fast-check';
import {
  base64url,
  createLocalJWKSet,
  exportJWK,
  generateKeyPair,
  type JWK,
  jwtVerify,
  SignJWT,
  UnsecuredJWT,
} from 'jose';
import { beforeAll, describe, expect, test } from 'vitest';
import { AssertionVerifier } from '../../src/auth/assertion-verifier.ts';

const issuer = 'https://as.example.test';
const typ = 'oauth-id-jag+jwt';
let rsa: CryptoKey;
let ec: CryptoKey;
let jwks: JWK[];
let verifier: AssertionVerifier;

beforeAll(async () => {
  const r = await generateKeyPair('RS256', { extractable: true });
  const e = await generateKeyPair('ES256', { extractable: true });
  rsa = r.privateKey;
  ec = e.privateKey;
  jwks = [
    { ...(await exportJWK(r.publicKey)), kid: 'rsa', alg: 'RS256', use: 'sig' },
    { ...(await exportJWK(e.publicKey)), kid: 'ec', alg: 'ES256', use: 'sig' },
  ];
  verifier = new AssertionVerifier(jwks, issuer, typ);
});

const claims = () => {
  const now = Math.floor(Date.now() / 1000);
  return {
    iss: issuer,
    aud: issuer,
    sub: 'reg_1',
    jti: 'j1',
    iat: now,
    exp: now + 3600,
    scope: 'sessions:read',
    tenant: 'acc_1',
    client_id: 'latchkey-agent',
  };
};
const sign = (
  header: Record<string, unknown> = {},
  payload: Record<string, unknown> = {},
  key: CryptoKey = rsa,
) =>
  new SignJWT({ ...claims(), ...payload })
    .setProtectedHeader({ alg: 'RS256', kid: 'rsa', typ, ...header } as { alg: string })
    .sign(key);

/** Signs with node:crypto directly, for headers jose refuses to produce. */
async function rawSign(header: Record<string, unknown>) {
  const { createPrivateKey, sign: nodeSign } = await import('node:crypto');
  const jwk = await exportJWK(rsa);
  const input = `${base64url.encode(JSON.stringify(header))}.${base64url.encode(JSON.stringify(claims()))}`;
  const signature = nodeSign(
    'sha256',
    Buffer.from(input),
    createPrivateKey({ key: jwk as never, format: 'jwk' }),
  );
  return `${input}.${base64url.encode(signature)}`;
}

async function joseAccepts(token: string) {
  try {
    await jwtVerify(token, createLocalJWKSet({ keys: jwks }), {
      issuer,
      audience: issuer,
      typ,
      algorithms: ['RS256', 'ES256'],
      requiredClaims: ['sub', 'jti', 'iat', 'exp', 'scope', 'tenant', 'client_id'],
    });
    return true;
  } catch {
    return false;
  }
}

describe('accepts', () => {
  test('an RS256 and an ES256 assertion of a published key, as jose does', async () => {
    for (const token of [await sign(), await sign({ alg: 'ES256', kid: 'ec' }, {}, ec)]) {
      expect(await verifier.verify(token)).toMatchObject({
        sub: 'reg_1',
        tenant: 'acc_1',
        jti: 'j1',
      });
      expect(await joseAccepts(token)).toBe(true);
    }
  });
});

describe('refuses', () => {
  test.each([
    ['alg none', async () => new UnsecuredJWT(claims()).encode()],
    [
      'HS256 keyed with the public key',
      async () =>
        new SignJWT(claims())
          .setProtectedHeader({ alg: 'HS256', kid: 'rsa', typ })
          .sign(new TextEncoder().encode(JSON.stringify(jwks[0]))),
    ],
    ['the EC key named with alg RS256', async () => sign({ alg: 'ES256', kid: 'rsa' }, {}, ec)],
    ['an unknown kid', async () => sign({ kid: 'other' })],
    ['no kid', async () => sign({ kid: undefined })],
    ['typ JWT', async () => sign({ typ: 'JWT' })],
    ['a crit header', async () => rawSign({ alg: 'RS256', kid: 'rsa', typ, crit: ['exp'] })],
    [
      'a jku header',
      async () => rawSign({ alg: 'RS256', kid: 'rsa', typ, jku: 'https://evil.example/jwks' }),
    ],
    ['another issuer', async () => sign({}, { iss: 'https://evil.example' })],
    ['another audience', async () => sign({}, { aud: 'https://evil.example' })],
    ['an iat in the future', async () => sign({}, { iat: Math.floor(Date.now() / 1000) + 3600 })],
    ['an nbf in the future', async () => sign({}, { nbf: Math.floor(Date.now() / 1000) + 3600 })],
    ['no tenant', async () => sign({}, { tenant: undefined })],
    ['an empty scope', async () => sign({}, { scope: '' })],
    ['a foreign RSA key', async () => sign({}, {}, (await generateKeyPair('RS256')).privateKey)],
  ])('%s', async (_name, make) => {
    const token = await make();
    expect(await verifier.verify(token)).toBe('invalid');
  });

  test('an expired assertion, with no tolerance', async () => {
    const token = await sign({}, { exp: Math.floor(Date.now() / 1000) });
    expect(await verifier.verify(token)).toBe('expired');
    expect(await joseAccepts(token)).toBe(false);
  });

  test('structural garbage', async () => {
    for (const token of [
      '',
      'a',
      'a.b',
      'a.b.c.d',
      '..',
      'a..c',
      'e30.e30.',
      'e30.e30.!!!',
      `${'a'.repeat(9000)}.b.c`,
    ]) {
      expect(await verifier.verify(token)).toBe('invalid');
    }
  });
});

describe('never more lenient than jose', () => {
  test('random single-character mutations of a valid assertion', async () => {
    const token = await sign();
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/';
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: token.length - 1 }),
        fc.constantFrom(...alphabet),
        async (at, char) => {
          const mutated = token.slice(0, at) + char + token.slice(at + 1);
          if (typeof (await verifier.verify(mutated)) === 'object')
            expect(await joseAccepts(mutated)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  test('re-encoded headers that jose also reads', async () => {
    const token = await sign();
    const [, payload, signature] = token.split('.');
    for (const header of [
      { alg: 'RS256', kid: 'rsa', typ: 'application/oauth-id-jag+jwt' },
      { alg: 'RS256', kid: 'rsa', typ, jku: 'https://evil.example/jwks' },
      { alg: 'RS256', kid: 'rsa', typ, b64: false, crit: ['b64'] },
    ]) {
      const forged = `${base64url.encode(JSON.stringify(header))}.${payload}.${signature}`;
      // The signature no longer matches the new header: both refuse.
      expect(await verifier.verify(forged)).toBe('invalid');
      expect(await joseAccepts(forged)).toBe(false);
    }
  });
});

test('the raw signer used above makes tokens both accept (so its refusals are about the header)', async () => {
  const token = await rawSign({ alg: 'RS256', kid: 'rsa', typ });
  expect(await verifier.verify(token)).toMatchObject({ sub: 'reg_1' });
  expect(await joseAccepts(token)).toBe(true);
});
