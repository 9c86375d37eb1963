/**
 * Every sealed column in the database, and the pass that re-seals them under the primary key.
 *
 * The pass serves two purposes:
 * - rotation (`npm run secrets:rotate`): every value not sealed with the primary key is opened with
 *   its own key and sealed again, after which the older keys seal nothing and can be removed;
 * - the one-time upgrade at start (`upgradeSealedValues`): databases from before sealing keys
 *   lived outside the database hold plaintext server secrets and signing keys and version 1
 *   blobs sealed with a key kept in `server_secret`. They are sealed with the outside key, then the
 *   in-database key is deleted. The pass is resumable: a crash leaves values either old (and still
 *   openable, the legacy key is deleted last) or new.
 *
 * Rows are visited in key order, a batch at a time, and written with compare-and-set
 * (`where value = <what was read>`), so a row that changed meanwhile (retention erasing a body) is
 * left alone and several instances starting together do not undo each other's work.
 *
 * A new sealed column (webhook signing secrets, TOTP seeds) is added to `sealedColumns` below.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Sealer } from './sealer.ts';
import { createSealer } from './sealer.ts';
import type { SealingKey } from './sealing-keys.ts';
import { serverSecretOwner } from './server-secrets.ts';

/** Where the version 1 sealing key used to be kept, in plaintext, next to what it sealed. */
export const LEGACY_KEY_NAME = 'message-sealing-key';

/** The associated data an identity signing key's private JWK is sealed with. */
export const signingKeyOwner = (kid: string) => `signing_key:${kid}`;

export interface SealedColumn {
  table: string;
  /** The primary-key column (a string): the batch order and the compare-and-set target. */
  key: string;
  column: string;
  /** bytea columns hold binary sealed values, text columns the `v2.<kid>.<…>` form. */
  form: 'binary' | 'text';
  /** The associated data the value is sealed with, from the row's key. */
  owner: (key: string) => string;
  /** Extra SQL condition limiting which rows are sealed values. */
  where?: string;
}

export const sealedColumns: SealedColumn[] = [
  { table: 'inbound_message', key: 'id', column: 'raw_body', form: 'binary', owner: (id) => id },
  { table: 'verdict', key: 'id', column: 'secret', form: 'binary', owner: (id) => id },
  {
    table: 'server_secret',
    key: 'name',
    column: 'value',
    form: 'text',
    owner: serverSecretOwner,
    where: `name <> '${LEGACY_KEY_NAME}'`,
  },
  {
    table: 'signing_key',
    key: 'kid',
    column: 'private_jwk',
    form: 'text',
    owner: signingKeyOwner,
  },
  // TOTP seeds of stored authenticators, bound to their row id (domain/authenticators).
  { table: 'authenticator', key: 'id', column: 'secret', form: 'text', owner: (id) => id },
];

const BATCH = 200;

export interface ResealReport {
  /** Values sealed anew during the pass. */
  resealed: number;
  /** After the pass: how many values each key id seals (as far as this pass saw). */
  byKeyId: Record<string, number>;
  /** Rows that changed between read and write (left alone; their key is not known here). */
  conflicts: number;
}

/**
 * Re-seals values under `sealer`'s primary key: every value (`all`), or only plaintext and version
 * 1 values (`unsealed`, the start-up upgrade).
 */
export async function resealColumns(
  em: EntityManager,
  sealer: Sealer,
  scope: 'all' | 'unsealed',
  columns: SealedColumn[] = sealedColumns,
): Promise<ResealReport> {
  const report: ResealReport = { resealed: 0, byKeyId: {}, conflicts: 0 };
  const count = (kid: string) => {
    report.byKeyId[kid] = (report.byKeyId[kid] ?? 0) + 1;
  };
  for (const column of columns) {
    let after = '';
    for (;;) {
      const rows = await em.execute<{ k: string; v: Buffer | string }[]>(
        `select ${column.key} as k, ${column.column} as v from ${column.table}
         where ${column.column} is not null and ${column.key} > ?
         ${column.where ? `and ${column.where}` : ''}
         order by ${column.key} limit ${BATCH}`,
        [after],
      );
      const updates: { key: string; from: Buffer | string; to: Buffer | string }[] = [];
      for (const row of rows) {
        const kid = sealer.keyIdOf(row.v);
        const sealed = kid !== undefined && kid !== 'legacy';
        if (kid === sealer.keyId || (scope === 'unsealed' && sealed)) {
          count(kid!);
          continue;
        }
        const owner = column.owner(row.k);
        const to =
          column.form === 'binary'
            ? sealer.seal(sealer.open(row.v as Buffer, owner), owner)
            : sealer.sealText(
                sealed ? sealer.openText(row.v as string, owner) : (row.v as string),
                owner,
              );
        updates.push({ key: row.k, from: row.v, to });
      }
      // One transaction per batch: one commit (one fsync on PGlite) per 200 rows, not per row.
      if (updates.length) {
        await em.transactional(async (tx) => {
          for (const update of updates) {
            const changed = await tx.execute(
              `update ${column.table} set ${column.column} = ? where ${column.key} = ? and ${column.column} = ?`,
              [update.to, update.key, update.from],
              'run',
            );
            if ((changed as { affectedRows?: number }).affectedRows !== 0) {
              report.resealed++;
              count(sealer.keyId);
            } else {
              report.conflicts++;
            }
          }
        });
      }
      if (rows.length < BATCH) break;
      after = rows.at(-1)!.k;
    }
  }
  return report;
}

/**
 * The one-time upgrade at start: seals plaintext secrets and re-seals version 1 blobs with the
 * outside key, then deletes the in-database key. Cheap when there is nothing to do (one lookup per
 * text column).
 */
export async function upgradeSealedValues(em: EntityManager, keys: SealingKey[]): Promise<number> {
  const [legacy] = await em.execute<{ value: string }[]>(
    'select value from server_secret where name = ?',
    [LEGACY_KEY_NAME],
  );
  let plaintext = false;
  for (const column of sealedColumns.filter((c) => c.form === 'text')) {
    const rows = await em.execute(
      `select 1 from ${column.table} where ${column.column} not like 'v2.%'
       ${column.where ? `and ${column.where}` : ''} limit 1`,
    );
    plaintext ||= rows.length > 0;
  }
  if (!legacy && !plaintext) return 0;
  const sealer = createSealer(keys, {
    ...(legacy ? { legacyKey: Buffer.from(legacy.value, 'base64url') } : {}),
  });
  const { resealed } = await resealColumns(em, sealer, 'unsealed');
  if (legacy) await em.execute('delete from server_secret where name = ?', [LEGACY_KEY_NAME]);
  return resealed;
}
