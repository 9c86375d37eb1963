/**
 * Planner statistics for the embedded database, by autovacuum's own rule.
 *
 * PGlite runs no autovacuum, so nothing gathers statistics: with none, ingest's lookup of a session
 * by its number scanned every active session (3.3 ms per webhook at 10,820 sessions against
 * 0.04 ms analyzed; bench/results/waiters.md, finding 8). A fixed period (ANALYZE 30 s after
 * start, then every 5 minutes) was tried and reverted: it made the embedded service slower, its
 * statistics taken early going stale while the tables grew (bench/results/throughput.md, "Tried
 * and reverted").
 *
 * So this does what autovacuum does on a PostgreSQL server, with its default settings: every
 * CHECK_INTERVAL_MS it reads the changes counted since each table's last analyze
 * (`pg_stat_user_tables.n_mod_since_analyze`) and analyzes, one at a time, the tables whose
 * changes exceed `autovacuum_analyze_threshold` (50) + `autovacuum_analyze_scale_factor` (0.1)
 * × their rows. A growing table is analyzed each time it grows by a tenth, a quiet one never.
 *
 * Statements go through the pool like any query, so each waits its turn behind open transactions
 * (PGlite runs one session: a statement beside a transaction would land inside it).
 *
 * With statistics, PostgreSQL's `auto` plan cache mode re-planned the open statement on every
 * execution; every pooled connection therefore runs with generic plans (orm.ts). Without
 * that, this rule cost open+close a quarter of its rate (bench/results/throughput.md, session 7).
 */
import type { MikroORM } from '@mikro-orm/postgresql';

/** autovacuum_naptime is 60 s; the embedded database fills quickly in a test run or a bench. */
export const CHECK_INTERVAL_MS = 10_000;
/** autovacuum_analyze_threshold and autovacuum_analyze_scale_factor, PostgreSQL's defaults. */
const ANALYZE_THRESHOLD = 50;
const ANALYZE_SCALE_FACTOR = 0.1;

/** The tables due for ANALYZE, quoted for the statement. */
const DUE_TABLES = `
  select format('%I.%I', s.schemaname, s.relname) as name
    from pg_stat_user_tables s
    join pg_class c on c.oid = s.relid
   where s.n_mod_since_analyze > ${ANALYZE_THRESHOLD} + ${ANALYZE_SCALE_FACTOR} * greatest(c.reltuples, 0)
   order by s.n_mod_since_analyze desc`;

export interface Analyzer {
  /** Stops checking and waits for a check or an ANALYZE under way. */
  stop(): Promise<void>;
}

/** Starts checking every `intervalMs`; failures are logged and the next check tries again. */
export function startEmbeddedAnalyzer(
  orm: MikroORM,
  intervalMs = CHECK_INTERVAL_MS,
  log?: (message: string) => void,
): Analyzer {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  const check = async () => {
    const connection = orm.em.getConnection();
    const due = await connection.execute<{ name: string }[]>(DUE_TABLES);
    for (const { name } of due) {
      if (stopped) return;
      await connection.execute(`analyze ${name}`);
    }
  };
  const schedule = () => {
    timer = setTimeout(() => {
      running = check()
        .catch((error: unknown) => log?.(`embedded analyze failed: ${String(error)}`))
        .finally(() => {
          running = undefined;
          if (!stopped) schedule();
        });
    }, intervalMs);
    // The service's lifetime is held by its servers, not by this timer.
    timer.unref();
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
