/**
 * The authorization server's signing keys for identity assertions (RS256), published at
 * `jwks_uri` through oidc-provider's own `jwks` (so `/oauth2/jwks` shows exactly these keys).
 *
 * Where keys come from:
 * - IDENTITY_SIGNING_KEYS (private JWKs, first one signs) when the operator manages keys;
 * - otherwise the `signing_key` table: generation 1 is generated on first start and inserted with
 *   ON CONFLICT DO NOTHING, so instances starting together agree on one key.
 *
 * Rotation without invalidating live assertions (`rotateSigningKey`): a new generation is added
 * with an activation time; from then on it signs, while older keys stay published and accepted
 * until `retiresAt` = activation + ASSERTION_TTL, after which no assertion they signed is alive.
 * Instances read the table at start; activate far enough ahead for a rolling restart to publish
 * the new key everywhere before it signs anything.
 *
 * Private JWKs are sealed at rest (db/sealer.ts, bound to `signing_key:<kid>`).
 */
import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import { signingKeyOwner } from '../db/sealed-columns.ts';
import type { Sealer } from '../db/sealer.ts';

/**
 * New keys are RS256 (RSA-2048): an assertion is signed once per claim but verified on every
 * refresh, and an RSA-2048 verification costs about 20 µs here against 60–90 µs for P-256
 * (bench/suites/auth.ts is where that matters). ES256 keys given by environment work as well.
 */
export const defaultAlg = 'RS256';
export type AssertionAlg = 'RS256' | 'ES256';

export interface LoadedKey {
  kid: string;
  alg: AssertionAlg;
  generation: number;
  activatesAt: Date;
  privateJwk: JWK;
  publicJwk: JWK;
  key: CryptoKey | Uint8Array;
}

export class KeyRing {
  readonly #keys: LoadedKey[];

  constructor(keys: LoadedKey[]) {
    if (keys.length === 0) throw new Error('no signing key available');
    this.#keys = [...keys].sort((a, b) => b.generation - a.generation);
  }

  /** The newest key that has become active (falls back to the oldest published one). */
  signingKey(now = new Date()): LoadedKey {
    return (
      this.#keys.find((key) => key.activatesAt.getTime() <= now.getTime()) ?? this.#keys.at(-1)!
    );
  }

  /** Public JWKs of every published key (what verification accepts). */
  publicJwks(): { keys: JWK[] } {
    return { keys: this.#keys.map((key) => key.publicJwk) };
  }

  /** Private JWKs for oidc-provider's `jwks` option; it publishes their public parts. */
  providerJwks(): { keys: JWK[] } {
    return { keys: this.#keys.map((key) => key.privateJwk) };
  }
}

/** The members of a private RSA or EC JWK that must never be published. */
const privateMembers = new Set(['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth']);

export function publicPart(jwk: JWK): JWK {
  return Object.fromEntries(
    Object.entries(jwk).filter(([name]) => !privateMembers.has(name)),
  ) as JWK;
}

function algOf(jwk: JWK): AssertionAlg {
  if (jwk.kty === 'RSA') return 'RS256';
  if (jwk.kty === 'EC' && jwk.crv === 'P-256') return 'ES256';
  throw new Error(`unsupported signing key type for kid ${jwk.kid}`);
}

async function toLoaded(jwk: JWK, generation: number, activatesAt: Date): Promise<LoadedKey> {
  const alg = algOf(jwk);
  const privateJwk: JWK = { ...jwk, alg, use: 'sig' };
  return {
    kid: privateJwk.kid!,
    alg,
    generation,
    activatesAt,
    privateJwk,
    publicJwk: publicPart(privateJwk),
    key: await importJWK(privateJwk, alg),
  };
}

async function newPrivateJwk(): Promise<JWK> {
  const { privateKey } = await generateKeyPair(defaultAlg, {
    extractable: true,
    modulusLength: 2048,
  });
  const jwk = await exportJWK(privateKey);
  return {
    ...jwk,
    kid: `sk_${randomBytes(12).toString('base64url')}`,
    alg: defaultAlg,
    use: 'sig',
  };
}

const sealJwk = (sealer: Sealer, jwk: JWK) =>
  sealer.sealText(JSON.stringify(jwk), signingKeyOwner(jwk.kid!));

interface KeyRow {
  kid: string;
  generation: number;
  private_jwk: string;
  activates_at: Date;
}

/** Loads the key ring: from the environment when given, else from the database (creating one). */
export async function loadKeyRing(
  em: EntityManager,
  fromEnvironment: Record<string, unknown>[] | undefined,
  sealer: Sealer,
  now = new Date(),
): Promise<KeyRing> {
  if (fromEnvironment) {
    const count = fromEnvironment.length;
    return new KeyRing(
      await Promise.all(
        fromEnvironment.map((jwk, i) => toLoaded(jwk as JWK, count - i, new Date(0))),
      ),
    );
  }
  const first = await newPrivateJwk();
  await em.execute(
    `insert into signing_key (kid, generation, alg, private_jwk, created_at, activates_at)
     values (?, 1, ?, ?, ?, ?) on conflict do nothing`,
    [first.kid, defaultAlg, sealJwk(sealer, first), now, new Date(0)],
  );
  const rows = await em.execute<KeyRow[]>(
    `select kid, generation, private_jwk, activates_at from signing_key
     where retires_at is null or retires_at > ? order by generation desc`,
    [now],
  );
  return new KeyRing(
    await Promise.all(
      rows.map((row) =>
        toLoaded(
          JSON.parse(sealer.openText(row.private_jwk, signingKeyOwner(row.kid))) as JWK,
          row.generation,
          new Date(row.activates_at),
        ),
      ),
    ),
  );
}

/**
 * Adds the next key generation, signing from `activatesAt`; every older key stays published until
 * `activatesAt + assertionTtl`. Returns the new key id. Instances pick it up when they restart.
 */
export async function rotateSigningKey(
  em: EntityManager,
  sealer: Sealer,
  options: { assertionTtl: number; activatesAt?: Date },
): Promise<string> {
  const activatesAt = options.activatesAt ?? new Date();
  const retiresAt = new Date(activatesAt.getTime() + options.assertionTtl * 1000);
  const jwk = await newPrivateJwk();
  return em.transactional(async (tx) => {
    await tx.execute(
      `insert into signing_key (kid, generation, alg, private_jwk, created_at, activates_at)
       select ?, coalesce(max(generation), 0) + 1, ?, ?, ?, ? from signing_key`,
      [jwk.kid, defaultAlg, sealJwk(sealer, jwk), new Date(), activatesAt],
    );
    await tx.execute(
      'update signing_key set retires_at = ? where kid <> ? and (retires_at is null or retires_at > ?)',
      [retiresAt, jwk.kid, retiresAt],
    );
    return jwk.kid!;
  });
}
