/**
 * Operator command: rotate the identity-assertion signing key kept in the database.
 *
 *   node src/auth/rotate-signing-key.ts [--activate-in <seconds>]
 *
 * Adds the next key generation, signing from now + `--activate-in` (default 0); older keys stay
 * published and accepted until every assertion they signed has expired (ASSERTION_TTL after the
 * activation), then the sweeper removes them. Instances load keys at start: with several
 * instances, activate far enough ahead for a rolling restart to publish the new key everywhere
 * first. On the embedded database run it while the service is stopped (one process owns
 * DATA_DIR). Keys given by IDENTITY_SIGNING_KEYS are rotated there instead (new key first).
 */
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase } from '../db/orm.ts';
import { rotateSigningKey } from './signing-keys.ts';

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

if (import.meta.main) {
  try {
    const { kid, activatesAt } = await rotate(process.argv.slice(2), process.env);
    console.log(`new signing key ${kid}, signing from ${activatesAt.toISOString()}`);
  } catch (error) {
    console.error(`rotate-signing-key: ${(error as Error).message}`);
    process.exit(error instanceof ConfigError ? 78 : 1);
  }
}
