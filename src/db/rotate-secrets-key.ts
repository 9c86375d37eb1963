/**
 * Operator command: rotate the sealing key.
 *
 *   npm run secrets:rotate
 *
 * With the key file (SECRETS_KEY unset): a new key is generated and put first in
 * DATA_DIR/secrets.key (older keys kept), every sealed value is re-sealed with it, and once no
 * value names an older key those keys are removed from the file. A crash midway leaves the file
 * with every key still needed; run the command again.
 *
 * With SECRETS_KEY: the operator adds the new key there (first, so it seals) and runs this command,
 * which re-seals every value with the first key and lists the older key ids nothing names any more;
 * those are then removed from SECRETS_KEY. With several instances, roll the new key out second in
 * the list first, then first, so no instance ever meets a key it lacks.
 *
 * On the embedded database run it while the service is stopped (one process owns DATA_DIR; the
 * command refuses when the database answers on its socket).
 */
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase } from './orm.ts';
import { resealColumns } from './sealed-columns.ts';
import {
  keyFilePath,
  loadSealingKeys,
  newSealingKey,
  SealingKeyError,
  writeKeyFile,
} from './sealing-keys.ts';

export interface RotationResult {
  /** The key that seals from now on. */
  keyId: string;
  /** Values sealed anew. */
  resealed: number;
  /** Older key ids no value names any more (removed from the key file; remove from SECRETS_KEY). */
  unused: string[];
  /** Older key ids still named by some value (kept). */
  stillUsed: string[];
  /** Whether the key file was rewritten without the unused keys. */
  removedFromFile: boolean;
}

export async function rotateSecretsKey(
  env: Record<string, string | undefined>,
): Promise<RotationResult> {
  const config = loadConfig(env);
  let keys = config.secretsKey;
  const fromFile = keys === undefined;
  const file = keyFilePath(config.dataDir);
  if (fromFile) {
    const current = await loadSealingKeys({ secretsKey: undefined, dataDir: config.dataDir });
    keys = [newSealingKey(), ...current];
    // Written before anything is sealed with the new key, so no value ever names a missing key.
    await writeKeyFile(file, keys);
  }
  const ring = keys!;
  const db = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    sealingKeys: ring,
    // The command's own output says what it did; migration chatter would bury it.
    log: () => {},
  });
  let report: Awaited<ReturnType<typeof resealColumns>>;
  try {
    report = await resealColumns(db.orm.em.fork(), db.sealer, 'all');
  } finally {
    await db.close();
  }
  const older = ring.slice(1).map((key) => key.kid);
  // A row that changed under the pass may name any key: then no older key is declared unused.
  const unused = report.conflicts ? [] : older.filter((kid) => !report.byKeyId[kid]);
  const stillUsed = older.filter((kid) => !unused.includes(kid));
  let removedFromFile = false;
  if (fromFile && unused.length) {
    await writeKeyFile(
      file,
      ring.filter((key) => !unused.includes(key.kid)),
    );
    removedFromFile = true;
  }
  return { keyId: ring[0]!.kid, resealed: report.resealed, unused, stillUsed, removedFromFile };
}

if (import.meta.main) {
  try {
    const result = await rotateSecretsKey(process.env);
    console.log(
      `sealing key ${result.keyId} seals from now on; ${result.resealed} values re-sealed`,
    );
    if (result.removedFromFile) {
      console.log(`removed from the key file: ${result.unused.join(', ')}`);
    } else if (result.unused.length) {
      console.log(
        `no value names ${result.unused.join(', ')} any more: remove them from SECRETS_KEY`,
      );
    }
    if (result.stillUsed.length) {
      console.log(`still named by some values (kept): ${result.stillUsed.join(', ')}; run again`);
    }
  } catch (error) {
    console.error(`secrets:rotate: ${(error as Error).message}`);
    process.exit(error instanceof ConfigError || error instanceof SealingKeyError ? 78 : 1);
  }
}
