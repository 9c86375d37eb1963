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
 * Every instance re-reads the table every SIGNING_KEYS_REFRESH_INTERVAL seconds (`refreshKeyRing`),
 * so a rotation is published and a retired or deleted key stops verifying without a restart;
 * a key is also refused from its `retiresAt` on, even before the next read. Activate a new key
 * at least one refresh interval ahead, so every instance publishes it before anything it signs
 * is presented.
 *
 * Private JWKs are sealed at rest (db/sealer.ts, bound to `signing_key:<kid>`).
 */
import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import { signingKeyOwner } from '../db/sealed-columns.ts';
import type { Sealer } from '../db/sealer.ts';
import type { RowOf } from '../entities/row.ts';
import type { SigningKey } from '../entities/signing-key.ts';

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
  /** From then on the key neither signs nor verifies (null: no end planned). */
  retiresAt: Date | null;
  privateJwk: JWK;
  publicJwk: JWK;
  key: CryptoKey | Uint8Array;
}

export class KeyRing {
  #keys: LoadedKey[] = [];
  #version = 0;

  constructor(keys: LoadedKey[]) {
    this.replace(keys);
  }

  /** Changes whenever the keys are replaced (verifiers rebuild on it). */
  get version() {
    return this.#version;
  }

  /** Takes a fresh read of the keys (a rotation, a retirement, a deletion). */
  replace(keys: LoadedKey[]) {
    if (keys.length === 0) throw new Error('no signing key available');
    this.#keys = [...keys].sort((a, b) => b.generation - a.generation);
    this.#version++;
  }

  /** Keys not yet retired at `now`. */
  #live(now: Date) {
    return this.#keys.filter((key) => !key.retiresAt || key.retiresAt.getTime() > now.getTime());
  }

  /** The newest key that has become active (falls back to the oldest published one). */
  signingKey(now = new Date()): LoadedKey {
    const live = this.#live(now);
    const keys = live.length ? live : this.#keys;
    return keys.find((key) => key.activatesAt.getTime() <= now.getTime()) ?? keys.at(-1)!;
  }

  /** Public JWKs of every key not retired at `now` (what is published, and what verifies). */
  publicJwks(now = new Date()): { keys: JWK[] } {
    return { keys: this.#live(now).map((key) => key.publicJwk) };
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

async function toLoaded(
  jwk: JWK,
  generation: number,
  activatesAt: Date,
  retiresAt: Date | null = null,
): Promise<LoadedKey> {
  const alg = algOf(jwk);
  const privateJwk: JWK = { ...jwk, alg, use: 'sig' };
  return {
    kid: privateJwk.kid!,
    alg,
    generation,
    activatesAt,
    retiresAt,
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

type KeyRow = Pick<
  RowOf<SigningKey>,
  'kid' | 'generation' | 'private_jwk' | 'activates_at' | 'retires_at'
>;

/** The keys in the table not yet retired at `now`. */
async function readKeys(em: EntityManager, sealer: Sealer, now: Date): Promise<LoadedKey[]> {
  const rows = await em.execute<KeyRow[]>(
    `select kid, generation, private_jwk, activates_at, retires_at from signing_key
     where retires_at is null or retires_at > ? order by generation desc`,
    [now],
  );
  return Promise.all(
    rows.map((row) =>
      toLoaded(
        JSON.parse(sealer.openText(row.private_jwk, signingKeyOwner(row.kid))) as JWK,
        row.generation,
        new Date(row.activates_at),
        row.retires_at ? new Date(row.retires_at) : null,
      ),
    ),
  );
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
  // Only into an empty table: once generation 1 has retired and been swept, a restart must not
  // bring a new "generation 1" back.
  await em.execute(
    `insert into signing_key (kid, generation, alg, private_jwk, created_at, activates_at)
     select ?, 1, ?, ?, ?, ? where not exists (select 1 from signing_key) on conflict do nothing`,
    [first.kid, defaultAlg, sealJwk(sealer, first), now, new Date(0)],
  );
  return new KeyRing(await readKeys(em, sealer, now));
}

/**
 * Re-reads the keys from the database into `ring` (keys given by environment never change).
 * False when the table had no live key: the ring is kept (an operator mistake must not stop
 * every sign-in), and the caller logs it.
 */
export async function refreshKeyRing(
  em: EntityManager,
  sealer: Sealer,
  ring: KeyRing,
  now = new Date(),
) {
  const keys = await readKeys(em, sealer, now);
  if (keys.length === 0) return false;
  ring.replace(keys);
  return true;
}

/**
 * Retires a key at once (a compromised key): from the next refresh on no instance publishes it,
 * signs with it or accepts what it signed. Returns false when there is no such live key.
 */
export async function retireSigningKey(em: EntityManager, kid: string, now = new Date()) {
  const rows = await em.execute<Pick<KeyRow, 'kid'>[]>(
    `update signing_key set retires_at = ? where kid = ? and (retires_at is null or retires_at > ?)
     returning kid`,
    [now, kid, now],
  );
  return rows.length === 1;
}

/**
 * Adds the next key generation, signing from `activatesAt`; every older key stays published until
 * `activatesAt + assertionTtl`. Returns the new key id. Instances pick it up at their next refresh.
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
