/**
 * The virtual environment the Python SDK's tests run in: created on first use under
 * node_modules/.cache (so the README's `npm test` works on a fresh machine, and .ci/run creates it
 * by running the tests), with pytest from the machine's package index, and the SDK installed from
 * ./sdks/python as a customer would install it, re-installed on every run so it is never stale.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

export const repoRoot = path.resolve(import.meta.dirname, '../..');
export const venvDir =
  process.env.LATCHKEY_PYTHON_VENV ??
  path.join(repoRoot, 'node_modules/.cache/latchkey-python-venv');
export const venvBin = (name: string) => path.join(venvDir, 'bin', name);

export interface Run {
  code: number | null;
  output: string;
}

/** Runs a command without blocking the event loop (the service under test is in-process). */
export function run(
  command: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: repoRoot,
      env: { ...process.env, PIP_RETRIES: '0', PIP_DISABLE_PIP_VERSION_CHECK: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

async function must(command: string, args: string[]) {
  const result = await run(command, args);
  if (result.code !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} failed (${result.code}):\n${result.output.slice(-3000)}`,
    );
  }
}

export async function ensureVenv() {
  const sdk = path.join(repoRoot, 'sdks/python');
  if (!existsSync(venvBin('pytest'))) {
    // A fresh environment gets the SDK with its dependencies resolved as a customer's would.
    await must('python3', ['-m', 'venv', venvDir]);
    await must(venvBin('pip'), ['install', '--quiet', sdk, 'pytest', 'pytest-asyncio']);
  }
  // The SDK's current source, every run; its dependencies are already there.
  await must(venvBin('pip'), ['install', '--quiet', '--force-reinstall', '--no-deps', sdk]);
}
