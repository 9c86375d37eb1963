/**
 * Watches the statements the hot paths send by name on the ORM's pool (src/db/prepared.ts), which
 * bypass `em.execute`: `onQuery` sees each one's values before it is sent. Returns the undo.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Pool, QueryConfig } from 'pg';

export async function interceptPoolQueries(
  em: EntityManager,
  onQuery: (values: readonly unknown[]) => void,
): Promise<() => void> {
  const pool = (await em.getConnection().getNativeClient()) as Pool;
  const original = pool.query;
  pool.query = ((config: QueryConfig, ...rest: unknown[]) => {
    onQuery(config.values ?? []);
    return (original as (...a: unknown[]) => unknown).apply(pool, [config, ...rest]);
  }) as Pool['query'];
  return () => {
    pool.query = original;
  };
}
