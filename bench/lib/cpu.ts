/**
 * CPU spent per operation by a bench's service process, the PostgreSQL backends serving its
 * database (found in pg_stat_activity; PostgreSQL runs on this machine) and the bench client.
 * CPU per operation moves little with the machine's load, unlike wall-clock throughput.
 */
import { readFileSync } from 'node:fs';
import pg from 'pg';

const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** CPU ms (user + system) of a process from /proc/<pid>/stat; 0 when it is gone. */
export function processCpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

export interface CpuPerOp {
  serverMsPerOp: number;
  databaseMsPerOp: number | null;
  clientMsPerOp: number;
}

/** `await meter()` starts a window; `await end(operations)` closes it with CPU per operation. */
export function cpuMeter(serverPid: number, databaseUrl: string | undefined) {
  const backends = async () => {
    if (!databaseUrl) return [] as number[];
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ pid: number }>(
        'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
      );
      return rows.map((r) => r.pid);
    } finally {
      await client.end();
    }
  };
  return async () => {
    const pids = await backends();
    const server0 = processCpuMs(serverPid);
    const db0 = new Map(pids.map((pid) => [pid, processCpuMs(pid)]));
    const client0 = process.cpuUsage();
    return async (operations: number): Promise<CpuPerOp> => {
      const client1 = process.cpuUsage(client0);
      const server = processCpuMs(serverPid) - server0;
      // Backends opened during the window count from zero.
      const after = await backends();
      let database = 0;
      for (const pid of after) database += processCpuMs(pid) - (db0.get(pid) ?? 0);
      const per = (ms: number) => round3(ms / operations);
      return {
        serverMsPerOp: per(server),
        databaseMsPerOp: databaseUrl ? per(database) : null,
        clientMsPerOp: per((client1.user + client1.system) / 1000),
      };
    };
  };
}
