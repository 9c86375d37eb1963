/**
 * A fixed amount of work timed on this machine, printed with each run's figures so runs on
 * different machines can be told apart and scaled. `cpus()[0].model` does not do it: two
 * "AMD EPYC × 2" machines of this project differed by 1.8× in CPU per operation on every process
 * (server, PostgreSQL, client) with the same code (bench/results/throughput.md, session 8).
 *
 * Two single-threaded measures, each the median of five, so neither the other core's work nor a
 * single stall decides them:
 * - `sha256Ms`: SHA-256 over 32 MiB, in 64 KiB chunks (native code: the CPU itself);
 * - `jsonMs`: 200 JSON round trips of 500 session-shaped objects (V8's compiled code and
 *   allocation: what the service's request handling is made of).
 */
import { createHash } from 'node:crypto';
import { stats } from './stats.ts';

export interface MachineCalibration {
  sha256Ms: number;
  jsonMs: number;
}

function timed(work: () => void) {
  const samples: number[] = [];
  work(); // warm-up: compile, allocate
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    work();
    samples.push(performance.now() - t);
  }
  return stats(samples).p50;
}

const chunk = Buffer.alloc(64 * 1024, 7);
const sessions = Array.from({ length: 500 }, (_, i) => ({
  id: `ses_${i.toString(36).padStart(20, '0')}`,
  state: i % 3 ? 'active' : 'closed',
  channel: 'sms_otp',
  number: `+1555010${String(i % 100).padStart(2, '0')}`,
  expires_at: new Date(1_800_000_000_000 + i * 1000).toISOString(),
  verdict: i % 2 ? { kind: 'otp_code', otp_code: String(100000 + i), confidence: 0.97 } : null,
}));

export function calibrate(): MachineCalibration {
  return {
    sha256Ms: timed(() => {
      const hash = createHash('sha256');
      for (let i = 0; i < 512; i++) hash.update(chunk);
      hash.digest();
    }),
    jsonMs: timed(() => {
      let total = 0;
      for (let i = 0; i < 200; i++) total += JSON.parse(JSON.stringify(sessions)).length;
      if (total !== 200 * sessions.length)
        throw new Error('calibration: JSON round trip lost data');
    }),
  };
}

/** One line for a figures file. */
export function describeCalibration(start: MachineCalibration, end: MachineCalibration) {
  return `machine calibration (lower is faster; median of 5): SHA-256 of 32 MiB ${start.sha256Ms} ms at the start, ${end.sha256Ms} ms at the end; 200 JSON round trips of 500 objects ${start.jsonMs} ms, ${end.jsonMs} ms`;
}
