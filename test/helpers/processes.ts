/**
 * Waiting on a real `node src/main.ts` child process: its log lines arrive on stdout, and an exit
 * before the awaited line fails the test with what the process printed.
 */
import type { ChildProcess } from 'node:child_process';

/** The first stdout line matching `pattern`; rejects if the process exits first. */
export function waitForLog(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const line = seen.split('\n').find((l) => pattern.test(l));
      if (line) {
        child.stdout?.off('data', onData);
        resolve(line);
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) =>
      reject(new Error(`exited with ${code} before ${pattern}: ${seen}`)),
    );
  });
}

/** Resolves once the service logs that it has started (listening, migrations applied). */
export async function started(child: ChildProcess): Promise<void> {
  await waitForLog(child, /latchkey started/);
}
