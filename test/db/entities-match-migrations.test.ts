/**
 * The entities are the one description of every table (docs/architecture.md, "Data layer"): the
 * committed migrations, applied to an empty database, must leave nothing for the entities to
 * change — no column, type, index, foreign key or table that one has and the other does not.
 * `npm run migration:create` writes the next migration from the same diff.
 */
import { expect, test } from 'vitest';
import { openDatabase } from '../../src/db/orm.ts';
import { newSealingKey } from '../../src/db/sealing-keys.ts';

test('the migrated schema is exactly what the entities describe', async () => {
  const db = await openDatabase({
    databaseUrl: undefined,
    dataDir: '',
    embeddedInMemory: true,
    sealingKeys: [newSealingKey()],
    log: () => {},
  });
  try {
    const drift = await db.orm.schema.getUpdateSchemaSQL({ wrap: false, safe: false });
    expect(drift.trim(), 'entities and migrations disagree; run npm run migration:create').toBe('');
  } finally {
    await db.close();
  }
});

test('every table the migrations create has its entity', async () => {
  const db = await openDatabase({
    databaseUrl: undefined,
    dataDir: '',
    embeddedInMemory: true,
    sealingKeys: [newSealingKey()],
    log: () => {},
  });
  try {
    const tables = await db.orm.em.fork().execute<{ table_name: string }[]>(
      `select table_name from information_schema.tables
         where table_schema = 'public' and table_name <> 'mikro_orm_migrations'`,
    );
    const described = [...db.orm.getMetadata().getAll().values()]
      .filter((meta) => !meta.embeddable && !meta.virtual)
      .map((meta) => meta.tableName);
    expect(tables.map((t) => t.table_name).sort()).toEqual(described.sort());
  } finally {
    await db.close();
  }
});
