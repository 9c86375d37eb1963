/**
 * The one place that reaches into @electric-sql/pglite-socket beyond its documented API, so an
 * upgrade has one file to re-check (test/db/pglite-socket-internals.test.ts guards it).
 *
 * One write per read. The socket server hands PGlite each protocol message of a read on its own
 * (Parse, Bind, Describe, Execute, Sync: one query from `pg` is five) and writes each reply to the
 * socket as soon as PGlite gives it, so one query cost the database thread four or five socket
 * writes, each a system call that wakes the service's event loop for a partial reply. In the
 * embedded throughput bench the database thread spent 13 % of its time in those writes against
 * 33 % running PostgreSQL itself (bench/results/throughput.md, session 8). The handler reads all
 * complete messages of a read in one call (`handleData`); corking the socket for that call sends
 * their replies in one write when it returns. Nothing waits longer for it: a client that sent
 * those messages together (an extended query and its Sync) needs every reply before it can go
 * on, and a read that ends without a Sync (COPY, a half-sent message) is flushed all the same when
 * the call returns. Corks nest, so overlapping calls (the handler starts one per `data` event)
 * flush when the last of them returns.
 */
import type { Socket } from 'node:net';
import { PGLiteSocketHandler } from '@electric-sql/pglite-socket';

interface HandlerInternals {
  socket: Socket | null;
  handleData(data: Buffer): Promise<number>;
}

let installed = false;

/** Makes every handler send the replies to one read in one socket write. Idempotent. */
export function coalesceRepliesPerRead() {
  if (installed) return;
  const prototype = PGLiteSocketHandler.prototype as unknown as HandlerInternals;
  const handleData = prototype.handleData;
  if (typeof handleData !== 'function') {
    throw new Error(
      'pglite-socket PGLiteSocketHandler.handleData is gone: revisit pglite-socket-internals.ts',
    );
  }
  prototype.handleData = async function handleDataCorked(this: HandlerInternals, data: Buffer) {
    const socket = this.socket;
    socket?.cork();
    try {
      return await handleData.call(this, data);
    } finally {
      socket?.uncork();
    }
  };
  installed = true;
}
