/**
 * Named prepared statements for the hot paths (issue 16): the credential lookups, open, close,
 * ingest and the wait's consume.
 *
 * Why: MikroORM's `em.execute` inlines every value into the SQL text, so PostgreSQL parses and
 * plans each execution anew, and planning was ~70 % of those statements' server time
 * (bench/results/throughput.md, finding 4). A named statement is parsed once per connection and
 * its plan reused, so each execution is Bind/Execute only.
 *
 * How: a statement is declared once with MikroORM's `?` placeholders (so its text reads like every
 * other statement here) and rewritten to `$1…$n`; it runs on the ORM's own `pg` pool with a name,
 * so `pg` prepares it the first time on each pooled connection. Values go as `pg` parameters
 * instead of inlined literals: Dates are sent as UTC ISO strings (what `forceUtcTimezone` inlines),
 * Buffers as bytea. Arrays are not accepted: MikroORM expands `in (?)` into a list where `pg` would
 * send one array, so such a statement stays on `em.execute`.
 *
 * Invariants:
 * - A statement declared `readOnly` is sent a second time when the pooled connection it went out on
 *   proves dead (a connection the server dropped while idle, noticed only on use); writes never
 *   are, since a write may have committed before its connection died.
 * - Inside a transaction (the entity manager carries one) the statement falls back to
 *   `em.execute` with its `?` text, so it runs on the transaction's connection exactly as before.
 * - Errors are converted as `em.execute` converts them (MikroORM's exception classes).
 * - PGlite keeps one session behind its socket for every connection (the embedded database, or
 *   PGlite reached by DATABASE_URL as in the outage tests), so a statement prepared on a connection
 *   the pool has since retired is still there when the next connection (which `pg` believes fresh)
 *   prepares it again: `DEALLOCATE ALL` on each new connection (orm.ts) keeps `pg`'s bookkeeping
 *   and the session in step. On PostgreSQL it costs one statement per new pooled connection.
 */
import type { EntityManager, PostgreSqlConnection } from '@mikro-orm/postgresql';
import type { Pool } from 'pg';

export type PreparedValue = string | number | boolean | Date | Buffer | null;

export interface PreparedStatement {
  /** Unique per text: `pg` refuses one name prepared with two texts on a connection. */
  readonly name: string;
  /** The text with MikroORM's `?` placeholders, for the in-transaction fallback. */
  readonly source: string;
  /** The text with `$1…$n`. */
  readonly text: string;
  /** How many values it takes. */
  readonly arity: number;
  /** A read: sent once more when the pooled connection it went out on turns out to be dead. */
  readonly readOnly: boolean;
}

const declared = new Map<string, string>();

/**
 * Declares a statement written with `?` placeholders under a unique name. It refuses a `?` that
 * MikroORM would read differently (inside quotes, `??`, the jsonb `?|`/`?&`) and comments.
 */
export function prepared(
  name: string,
  source: string,
  options: { readOnly?: boolean } = {},
): PreparedStatement {
  const previous = declared.get(name);
  if (previous !== undefined && previous !== source) {
    throw new Error(`prepared statement ${name} is declared twice with different texts`);
  }
  declared.set(name, source);
  let arity = 0;
  let text = '';
  let quote: string | null = null;
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    if (quote) {
      // MikroORM's formatting would take it for a placeholder in the in-transaction fallback.
      if (char === '?') throw new Error(`prepared statement ${name}: a ? inside quotes`);
      if (char === quote) quote = null;
      text += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      text += char;
    } else if (char === '-' && source[i + 1] === '-') {
      throw new Error(`prepared statement ${name}: comments are not supported`);
    } else if (char === '?') {
      if (source[i + 1] === '|' || source[i + 1] === '&' || source[i + 1] === '?') {
        throw new Error(`prepared statement ${name}: jsonb ? operators are not supported`);
      }
      arity += 1;
      text += `$${arity}`;
    } else {
      text += char;
    }
  }
  if (quote) throw new Error(`prepared statement ${name}: unterminated quote`);
  return { name, source, text, arity, readOnly: options.readOnly ?? false };
}

const pools = new WeakMap<object, Pool>();

async function poolOf(em: EntityManager): Promise<Pool> {
  const connection: PostgreSqlConnection = em.getConnection();
  const known = pools.get(connection);
  if (known) return known;
  const pool = (await connection.getNativeClient()) as Pool;
  pools.set(connection, pool);
  return pool;
}

/**
 * The statement's values as `pg` parameters. A statement often passes one instant many times (an
 * open passes `now` nine times): each Date object is formatted once per statement (issue 16).
 */
function toParameters(values: readonly PreparedValue[]) {
  const parameters = new Array<string | number | boolean | Buffer | null>(values.length);
  let formatted: Map<Date, string> | undefined;
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!;
    if (value instanceof Date) {
      formatted ??= new Map();
      let text = formatted.get(value);
      if (text === undefined) {
        text = value.toISOString();
        formatted.set(value, text);
      }
      parameters[i] = text;
    } else {
      parameters[i] = value;
    }
  }
  return parameters;
}

/** Runs a declared statement; its rows, as `em.execute` would return them. */
export async function executePrepared<T extends object>(
  em: EntityManager,
  statement: PreparedStatement,
  values: readonly PreparedValue[],
): Promise<T[]> {
  if (values.length !== statement.arity) {
    throw new Error(
      `prepared statement ${statement.name} takes ${statement.arity} values, got ${values.length}`,
    );
  }
  if (em.getTransactionContext()) {
    return em.execute<T[]>(statement.source, values as unknown[]);
  }
  const pool = await poolOf(em);
  const query = { name: statement.name, text: statement.text, values: toParameters(values) };
  try {
    return (await pool.query<T>(query)).rows;
  } catch (error) {
    if (!(statement.readOnly && wentOutOnDeadConnection(error))) {
      throw em.getDriver().convertException(error as Error);
    }
  }
  // The pool handed out an idle connection the server (or a proxy) had already dropped, before its
  // close event arrived; the pool has discarded it now. A read is safe to send once more.
  try {
    return (await pool.query<T>(query)).rows;
  } catch (error) {
    throw em.getDriver().convertException(error as Error);
  }
}

/** `pg`'s error for a connection that ended while the statement was in flight. */
const wentOutOnDeadConnection = (error: unknown) =>
  error instanceof Error &&
  (error.message === 'Connection terminated unexpectedly' ||
    (error as { code?: unknown }).code === 'ECONNRESET' ||
    (error as { code?: unknown }).code === 'EPIPE');
