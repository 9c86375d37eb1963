/**
 * The identity assertion: a JWT the authorization server signs for a claimed registration and the
 * agent later exchanges for access tokens (RFC 7523 jwt-bearer grant).
 *
 * Claims are modelled on the IETF Identity Assertion JWT Authorization Grant draft (ID-JAG), where
 * this server is both the identity provider and the resource authorization server:
 *   header `typ: oauth-id-jag+jwt`, `alg` (RS256; ES256 for P-256 keys), `kid`;
 *   `iss` = `aud` = the issuer, `sub` = registration id, `client_id`, `jti`, `iat`, `exp`,
 *   `scope` (what the person granted), `resource` (this API), `tenant` (the account it joined).
 * Verification accepts any published key (rotation), exactly one algorithm, the `typ` above (so no
 * other kind of JWT can be replayed as an assertion), and no clock tolerance on `exp`
 * (assertion-verifier.ts).
 */
import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { AssertionVerifier } from './assertion-verifier.ts';
import type { KeyRing } from './signing-keys.ts';

export const assertionType = 'oauth-id-jag+jwt';

export interface AssertionSubject {
  registrationId: string;
  accountId: string;
  scope: string;
  clientId: string;
}

export interface VerifiedAssertion extends AssertionSubject {
  jti: string;
  expiresAt: Date;
}

export class AssertionError extends Error {
  override name = 'AssertionError';
  readonly reason: 'expired' | 'invalid';
  constructor(reason: 'expired' | 'invalid', message: string) {
    super(message);
    this.reason = reason;
  }
}

export class IdentityAssertions {
  readonly #keys: KeyRing;
  readonly #issuer: string;
  readonly #ttl: number;
  readonly #clock: () => Date;
  #verifier: { kids: string; verifier: AssertionVerifier } | undefined;

  constructor(keys: KeyRing, issuer: string, ttlSeconds: number, clock = () => new Date()) {
    this.#keys = keys;
    this.#issuer = issuer;
    this.#ttl = ttlSeconds;
    this.#clock = clock;
  }

  /**
   * The verifier for the keys live now: rebuilt when the ring was re-read or a key retired, so a
   * retired or deleted key stops verifying without a restart.
   */
  #verifierNow(now: Date): AssertionVerifier {
    const jwks = this.#keys.publicJwks(now).keys;
    const kids = `${this.#keys.version}:${jwks.map((jwk) => jwk.kid).join(' ')}`;
    if (this.#verifier?.kids !== kids) {
      this.#verifier = { kids, verifier: new AssertionVerifier(jwks, this.#issuer, assertionType) };
    }
    return this.#verifier.verifier;
  }

  async issue(subject: AssertionSubject, now = this.#clock()) {
    const key = this.#keys.signingKey(now);
    const iat = Math.floor(now.getTime() / 1000);
    const exp = iat + this.#ttl;
    const assertion = await new SignJWT({
      client_id: subject.clientId,
      scope: subject.scope,
      resource: this.#issuer,
      tenant: subject.accountId,
    })
      .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: assertionType })
      .setIssuer(this.#issuer)
      .setAudience(this.#issuer)
      .setSubject(subject.registrationId)
      .setJti(randomBytes(16).toString('base64url'))
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(key.key);
    return { assertion, expiresAt: new Date(exp * 1000) };
  }

  /** Verifies an assertion this server issued (assertion-verifier.ts). */
  async verify(assertion: string, now = this.#clock()): Promise<VerifiedAssertion> {
    const result = await this.#verifierNow(now).verify(assertion, now.getTime());
    if (result === 'expired') {
      throw new AssertionError('expired', 'the identity assertion has expired');
    }
    if (result === 'invalid') {
      throw new AssertionError('invalid', 'the identity assertion is not valid');
    }
    return {
      registrationId: result.sub,
      accountId: result.tenant,
      scope: result.scope,
      clientId: result.client_id,
      jti: result.jti,
      expiresAt: new Date(result.exp * 1000),
    };
  }
}

/** ISO 8601 UTC to the second, as the interface shows timestamps. */
export const isoSeconds = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');
