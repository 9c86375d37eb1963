/**
 * Operator command: rotate the identity-assertion signing key kept in the database.
 *
 *   node src/auth/rotate-signing-key.ts [--activate-in <seconds>]
 *   node src/auth/rotate-signing-key.ts --retire <kid>
 *
 * Adds the next key generation, signing from now + `--activate-in` (default 0); older keys stay
 * published and accepted until every assertion they signed has expired (ASSERTION_TTL after the
 * activation), then the sweeper removes them. Running instances re-read the keys every
 * SIGNING_KEYS_REFRESH_INTERVAL seconds: with several instances, activate at least that far ahead
 * so every instance publishes the new key before it signs anything.
 * `--retire <kid>` ends a key at once (a compromised key): within one refresh interval no instance
 * publishes it or accepts an assertion it signed; rotate first if it is the signing key.
 * On the embedded database run it while the service is stopped (one process owns DATA_DIR). Keys
 * given by IDENTITY_SIGNING_KEYS are rotated there instead (new key first).
 */
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase } from '../db/orm.ts';
import { retireSigningKey, rotateSigningKey } from './signing-keys.ts';

export async function rotate(argv: string[], env: Record<string, string | undefined>) {
  const config = loadConfig(env);
  if (config.identitySigningKeys) {
    throw new ConfigError(
      'IDENTITY_SIGNING_KEYS is set: rotate by putting the new key first in that variable',
    );
  }
  const at = argv.indexOf('--activate-in');
  const delay = at === -1 ? 0 : Number(argv[at + 1]);
  if (!Number.isInteger(delay) || delay < 0) {
    throw new ConfigError('--activate-in takes a whole number of seconds');
  }
  const db = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    sealingKeys: config.secretsKey,
  });
  try {
    const activatesAt = new Date(Date.now() + delay * 1000);
    const kid = await rotateSigningKey(db.orm.em.fork(), db.sealer, {
      assertionTtl: config.assertionTtl,
      activatesAt,
    });
    return { kid, activatesAt };
  } finally {
    await db.close();
  }
}

/** `--retire <kid>`: ends a key at once (see the header). */
export async function retire(argv: string[], env: Record<string, string | undefined>) {
  const config = loadConfig(env);
  if (config.identitySigningKeys) {
    throw new ConfigError('IDENTITY_SIGNING_KEYS is set: retire a key by removing it there');
  }
  const kid = argv[argv.indexOf('--retire') + 1];
  if (!kid || kid.startsWith('--')) throw new ConfigError('--retire takes the kid of a key');
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    if (!(await retireSigningKey(db.orm.em.fork(), kid))) {
      throw new ConfigError(`no live signing key has the kid ${kid}`);
    }
    return { retired: kid };
  } finally {
    await db.close();
  }
}

if (import.meta.main) {
  try {
    const argv = process.argv.slice(2);
    if (argv.includes('--retire')) {
      const { retired } = await retire(argv, process.env);
      console.log(`signing key ${retired} retired`);
    } else {
      const { kid, activatesAt } = await rotate(argv, process.env);
      console.log(`new signing key ${kid}, signing from ${activatesAt.toISOString()}`);
    }
  } catch (error) {
    console.error(`rotate-signing-key: ${(error as Error).message}`);
    process.exit(error instanceof ConfigError ? 78 : 1);
  }
}
