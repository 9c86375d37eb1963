/**
 * Verifies identity assertions this server issued, with jose (never a hand-written JWS parser).
 *
 * Strict by configuration: the key is chosen from our published keys by `kid`, and jose accepts
 * only that key's own `alg` (so neither `none` nor an algorithm confusion can pass) from the
 * allow-list of algorithms our keys use; `typ` must be oauth-id-jag+jwt; `iss` and `aud` are the
 * issuer; `exp` must be in the future with no tolerance. Beyond jose: `iat` not in the future (up
 * to a small skew between instances), no header that would point at other keys (`jku`, `jwk`,
 * `x5u`, `x5c`), and non-empty string `sub`, `jti`, `scope`, `tenant`, `client_id`.
 */
import {
  createLocalJWKSet,
  decodeProtectedHeader,
  errors,
  type JWK,
  type JWTPayload,
  jwtVerify,
} from 'jose';

const maxLength = 8192;
/** Seconds an `iat` may run ahead of our clock (clock skew between instances). */
const iatSkew = 60;
const foreignKeyHeaders = ['jku', 'jwk', 'x5u', 'x5c'];
const requiredStrings = ['sub', 'jti', 'scope', 'tenant', 'client_id'] as const;

export type Refusal = 'expired' | 'invalid';

export interface AssertionClaims {
  sub: string;
  jti: string;
  scope: string;
  tenant: string;
  client_id: string;
  exp: number;
}

export class AssertionVerifier {
  readonly #keys: ReturnType<typeof createLocalJWKSet>;
  readonly #algorithms: string[];
  readonly #issuer: string;
  readonly #type: string;

  constructor(publicJwks: JWK[], issuer: string, type: string) {
    this.#keys = createLocalJWKSet({ keys: publicJwks });
    this.#algorithms = [
      ...new Set(publicJwks.map((jwk) => jwk.alg).filter((alg) => alg !== undefined)),
    ];
    this.#issuer = issuer;
    this.#type = type;
  }

  /** The verified claims, or the reason for refusing them. */
  async verify(assertion: string, now = Date.now()): Promise<AssertionClaims | Refusal> {
    if (assertion.length > maxLength) return 'invalid';
    let payload: JWTPayload;
    try {
      const header = decodeProtectedHeader(assertion);
      if (typeof header.kid !== 'string' || foreignKeyHeaders.some((name) => name in header)) {
        return 'invalid';
      }
      ({ payload } = await jwtVerify(assertion, this.#keys, {
        issuer: this.#issuer,
        audience: this.#issuer,
        typ: this.#type,
        algorithms: this.#algorithms,
        requiredClaims: ['exp', 'iat', ...requiredStrings],
        currentDate: new Date(now),
        clockTolerance: 0,
      }));
    } catch (error) {
      return error instanceof errors.JWTExpired ? 'expired' : 'invalid';
    }
    if (typeof payload.iat !== 'number' || payload.iat > Math.floor(now / 1000) + iatSkew) {
      return 'invalid';
    }
    for (const name of requiredStrings) {
      if (typeof payload[name] !== 'string' || payload[name] === '') return 'invalid';
    }
    return payload as unknown as AssertionClaims;
  }
}
