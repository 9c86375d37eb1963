/**
 * Issue 11 §5: the embedded database listens on no TCP port. It is reached on a 0600 unix socket
 * in a 0700 directory, a second process cannot open a DATA_DIR in use, and a connection left idle
 * inside a transaction is cut (its transaction rolled back) instead of stalling the service.
 * Always runs on PGlite, whatever database the rest of the suite uses.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, test } from 'vitest';
import { openDatabase } from '../../src/db/orm.ts';
import { openInMemoryEmbedded } from '../helpers/database.ts';

const scratch = await mkdtemp(path.join(tmpdir(), 'latchkey-socket-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));

/** Inodes of the TCP sockets this process listens on (Linux: /proc/net/tcp{,6} state 0A). */
function listeningTcpInodesOfThisProcess(): Set<string> {
  const own = new Set<string>();
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/self/fd/${fd}`));
      if (match) own.add(match[1]!);
    } catch {
      // The fd closed while we listed it.
    }
  }
  const listening = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // Fields: sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode …
      if (fields[3] === '0A' && own.has(fields[9]!)) listening.add(fields[9]!);
    }
  }
  return listening;
}

const quiet = () => {};
const modeOf = async (file: string) => (await stat(file)).mode & 0o777;

describe('the embedded database has no TCP listener', () => {
  test('opening it adds no listening TCP socket to the process; it answers on a 0600 unix socket', async () => {
    const before = listeningTcpInodesOfThisProcess();
    const db = await openInMemoryEmbedded(scratch);
    try {
      expect(listeningTcpInodesOfThisProcess()).toEqual(before);
      const socket = db.embeddedSocketPath!;
      expect((await stat(socket)).isSocket()).toBe(true);
      expect(await modeOf(socket)).toBe(0o600);
      expect(await modeOf(path.dirname(socket))).toBe(0o700);
      const [row] = await db.orm.em.fork().execute<{ one: number }[]>('select 1 as one');
      expect(row!.one).toBe(1);
      // The probe does see a loopback listener when there is one (what the old database had).
      const probe = net.createServer();
      await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
      expect(listeningTcpInodesOfThisProcess().size).toBe(before.size + 1);
      await new Promise((resolve) => probe.close(resolve));
    } finally {
      await db.close();
    }
  });

  test('a DATA_DIR too long for a socket address gets a private 0700 socket directory instead', async () => {
    const deep = path.join(scratch, 'd'.repeat(60), 'e'.repeat(60));
    await mkdir(deep, { recursive: true });
    const db = await openDatabase({ databaseUrl: undefined, dataDir: deep, log: quiet });
    try {
      const socket = db.embeddedSocketPath!;
      expect(socket.length).toBeLessThanOrEqual(103);
      expect(socket.startsWith(deep)).toBe(false);
      expect(await modeOf(socket)).toBe(0o600);
      expect(await modeOf(path.dirname(socket))).toBe(0o700);
      expect((await db.orm.em.fork().execute('select 1 as one')).length).toBe(1);
    } finally {
      await db.close();
    }
  });

  test('a second process cannot open a DATA_DIR whose database is running', async () => {
    const dataDir = path.join(scratch, 'owned');
    const first = await openDatabase({ databaseUrl: undefined, dataDir, log: quiet });
    try {
      expect(first.embeddedSocketPath).toBe(path.join(dataDir, 'run', '.s.PGSQL.5432'));
      await expect(openDatabase({ databaseUrl: undefined, dataDir, log: quiet })).rejects.toThrow(
        /is in use by another running Latchkey/,
      );
    } finally {
      await first.close();
    }
    // Once the owner stopped, the directory opens again.
    const again = await openDatabase({ databaseUrl: undefined, dataDir, log: quiet });
    await again.close();
  });
});

describe('an idle open transaction cannot stall the service', () => {
  test('a connection idle inside a transaction is cut and rolled back; the service carries on', async () => {
    const db = await openInMemoryEmbedded(scratch, { embeddedIdleTimeoutMs: 600 });
    const idle = new pg.Client({
      host: path.dirname(db.embeddedSocketPath!),
      port: 5432,
      user: 'postgres',
      database: 'postgres',
    });
    const cut = new Promise<Error>((resolve) => idle.once('error', resolve));
    try {
      await idle.connect();
      await idle.query('begin');
      await idle.query(
        "insert into server_secret (name, value, created_at) values ('idle-probe', 'x', now())",
      );
      // The service's own query queues behind the open transaction until the guard cuts it; on an
      // unguarded database it would wait forever and the test would time out.
      const [row] = await db.orm.em
        .fork()
        .execute<{ n: number }[]>(
          "select count(*)::int as n from server_secret where name = 'idle-probe'",
        );
      expect(row!.n).toBe(0);
      expect((await cut).message).toMatch(/terminated/i);
    } finally {
      await idle.end().catch(() => {});
      await db.close();
    }
  });
});
