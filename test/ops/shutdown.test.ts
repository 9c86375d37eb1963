/**
 * The real process (`node src/main.ts`, as `npm start` runs it): it starts on the embedded
 * database, and on SIGTERM stops accepting, lets a request in flight finish, and exits 0.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { freePort } from '../helpers/app.ts';
import { waitForLog } from '../helpers/processes.ts';

const dataDir = await mkdtemp(path.join(tmpdir(), 'latchkey-shutdown-'));
let child: ChildProcess | undefined;
afterAll(async () => {
  child?.kill('SIGKILL');
  await rm(dataDir, { recursive: true, force: true });
});

test('SIGTERM lets an in-flight request finish, then the process exits 0', async () => {
  const port = await freePort();
  child = spawn(process.execPath, ['src/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      DATABASE_URL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await waitForLog(child, /latchkey started/);

  // A request whose body is still arriving when the signal comes.
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/healthz',
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    request.on('error', reject);
    request.write('{"half": ');
    setTimeout(() => {
      child!.kill('SIGTERM');
      setTimeout(() => request.end('"done"}'), 300);
    }, 200);
  });
  const exited = new Promise<number | null>((resolve) =>
    child!.once('exit', (code) => resolve(code)),
  );

  const answer = await response;
  // The route does not exist for POST: what matters is a complete answer, not a reset connection.
  expect(answer.status).toBe(404);
  expect(JSON.parse(answer.body).code).toBe('not_found');
  expect(await exited).toBe(0);
}, 120_000);
