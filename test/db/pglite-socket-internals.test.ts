/**
 * src/db/pglite-socket-internals.ts: the embedded database's socket server sends the replies to
 * one read in one socket write, where it sent one write per protocol message. Runs the library's
 * server in this process (the service runs it on its own thread) so its sockets can be watched,
 * with the real `pg` client the service uses.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import pg from 'pg';
import { afterAll, expect, test } from 'vitest';
import { coalesceRepliesPerRead } from '../../src/db/pglite-socket-internals.ts';

const scratch = await mkdtemp(path.join(tmpdir(), 'latchkey-pglite-socket-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));

type Writes = (this: Socket, ...args: never[]) => unknown;

/** Counts the writes every socket but `except` makes to the kernel while `run` runs. */
async function serverWrites(except: Socket, run: () => Promise<void>): Promise<number> {
  const prototype = Socket.prototype as unknown as { _write: Writes; _writev: Writes };
  const original = { _write: prototype._write, _writev: prototype._writev };
  let count = 0;
  for (const name of ['_write', '_writev'] as const) {
    prototype[name] = function counted(this: Socket, ...args: never[]) {
      if (this !== except) count += 1;
      return original[name].apply(this, args);
    };
  }
  try {
    await run();
  } finally {
    Object.assign(prototype, original);
  }
  return count;
}

test('an extended query is answered in one socket write, not one per message', async () => {
  const db = await PGlite.create();
  const socketPath = path.join(scratch, '.s.PGSQL.5432');
  const server = new PGLiteSocketServer({ db, path: socketPath });
  await server.start();
  const client = new pg.Client({ host: scratch, database: 'postgres', user: 'postgres' });
  try {
    await client.connect();
    const clientSocket = (client as unknown as { connection: { stream: Socket } }).connection
      .stream;
    // Parse, Bind, Describe, Execute and Sync, sent together by `pg` (a named statement, as the
    // service's hot paths are).
    const query = { name: 'sum', text: 'select $1::int + 1 as n', values: [41] };
    const ask = async () => {
      const result = await client.query(query);
      expect(result.rows).toEqual([{ n: 42 }]);
    };
    await ask();

    // The library alone: a write per reply (BindComplete, RowDescription, DataRow and
    // CommandComplete, ReadyForQuery).
    const before = await serverWrites(clientSocket, ask);
    expect(before).toBeGreaterThanOrEqual(3);

    coalesceRepliesPerRead();
    coalesceRepliesPerRead(); // idempotent: one wrap, not two
    const after = await serverWrites(clientSocket, ask);
    expect(after).toBe(1);

    // A failing statement still answers (ErrorResponse, ReadyForQuery) and the session goes on.
    await expect(client.query('select 1/0')).rejects.toThrow(/division by zero/);
    await ask();
  } finally {
    await client.end();
    await server.stop();
    await db.close();
  }
});
