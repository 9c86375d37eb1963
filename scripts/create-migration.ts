/**
 * Writes a migration for whatever the entities declare beyond the committed migrations.
 *
 * It applies the committed migrations to a throw-away in-memory PGlite database, diffs the
 * entities against that schema, and writes `src/db/migrations/Migration<timestamp>_<name>.ts`.
 * Add the new class to `src/db/migrations/index.ts` afterwards.
 * Usage: npm run migration:create -- <name>
 */
import { openDatabase } from '../src/db/orm.ts';
import { newSealingKey } from '../src/db/sealing-keys.ts';

const name = process.argv[2];
if (!name || !/^[a-z0-9-]+$/.test(name)) {
  console.error('usage: npm run migration:create -- <kebab-case-name>');
  process.exit(2);
}
// A throw-away key: the scratch database seals nothing worth keeping, and no key file is written.
const db = await openDatabase({
  databaseUrl: undefined,
  dataDir: '',
  embeddedInMemory: true,
  sealingKeys: [newSealingKey()],
});
try {
  const result = await db.orm.migrator.create(undefined, false, false, name);
  console.log(result.diff.up.length ? `wrote ${result.fileName}` : 'no changes: nothing written');
} finally {
  await db.close();
}
