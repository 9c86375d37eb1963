/**
 * Planner statistics by autovacuum's own rule, where no autovacuum gathers them: always on the
 * embedded database (PGlite runs none), and on a PostgreSQL server whose `autovacuum` is off.
 *
 * With no statistics the planner believes every table nearly empty, and the hot statements' plans
 * go wrong: ingest's lookup of a session by its number scanned every active session (3.3 ms per
 * webhook at 10,820 sessions on PGlite against 0.04 ms analyzed; bench/results/waiters.md,
 * finding 8), and on PostgreSQL the same lookup and a session's close both walked the active
 * sessions' expiry index instead of the number's or the id's (bench/results/throughput.md,
 * session 9). A fixed period (ANALYZE 30 s after start, then every 5 minutes) was tried and
 * reverted: it made the embedded service slower, its statistics taken early going stale while the
 * tables grew (bench/results/throughput.md, "Tried and reverted").
 *
 * So this does what autovacuum does, with its default settings: every CHECK_INTERVAL_MS it reads
 * the changes counted since each table's last analyze (`pg_stat_user_tables.n_mod_since_analyze`)
 * and analyzes, one at a time, the tables whose changes exceed `autovacuum_analyze_threshold` (50)
 * + `autovacuum_analyze_scale_factor` (0.1) × their rows. A growing table is analyzed each time it
 * grows by a tenth, a quiet one never.
 *
 * Statements go through the pool like any query, so each waits its turn behind open transactions
 * (PGlite runs one session: a statement beside a transaction would land inside it). Several
 * instances on one PostgreSQL server without autovacuum each run the check; two that find the same
 * table due analyze it twice (the second waits for the first's lock), which costs a repeat, never
 * a wrong answer.
 *
 * With statistics, PostgreSQL's `auto` plan cache mode re-planned the open statement on every
 * execution; every pooled connection therefore runs with generic plans (orm.ts). Without
 * that, this rule cost open+close a quarter of its rate (bench/results/throughput.md, session 7).
 */
import type { MikroORM } from '@mikro-orm/postgresql';

/** autovacuum_naptime is 60 s; a fresh database fills quickly in a test run or a bench. */
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

/**
 * Whether the service must gather statistics itself: on the embedded database, and on a
 * PostgreSQL server that runs without autovacuum.
 */
export async function needsOwnAnalyzer(orm: MikroORM, embedded: boolean): Promise<boolean> {
  if (embedded) return true;
  const [row] = await orm.em
    .getConnection()
    .execute<{ autovacuum: string }[]>(`select current_setting('autovacuum') as autovacuum`);
  return row?.autovacuum !== 'on';
}

/** Starts checking every `intervalMs`; failures are logged and the next check tries again. */
export function startAnalyzer(
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
        .catch((error: unknown) => log?.(`analyze failed: ${String(error)}`))
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
