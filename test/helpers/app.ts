/**
 * Runs the real service in-process for a test: a free loopback port (so PUBLIC_BASE_URL is known
 * before the app is built), its own database, and a stop() that closes every socket.
 */
import { randomInt } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type App, buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createTestDatabase } from './database.ts';
import { startDnsServer } from './dns.ts';
import { type MailCatcher, startMailCatcher } from './mail.ts';

export interface TestApp {
  app: App;
  baseUrl: string;
  consoleUrl: string;
  /** The SMTP receiver the app's outgoing mail goes to (absent when env sets MAIL_SMTP_URL). */
  mail: MailCatcher | undefined;
  stop(): Promise<void>;
}

/**
 * A loopback port nothing listens on, below the kernel's ephemeral range. A port the kernel hands
 * out (listen(0)) is free only until the app listens on it a second later, and meanwhile any
 * outgoing connection of the parallel test files may take it as its source port (seen in CI:
 * EADDRINUSE). Below the ephemeral range no outgoing connection is given one; two callers can
 * still pick the same port only by drawing the same of some 20,000 at once.
 */
export async function freePort(): Promise<number> {
  const ephemeralLow = await readFile('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
    .then((range) => Number(range.trim().split(/\s+/)[0]))
    .catch(() => 32768);
  const lowest = 10_000;
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = lowest + randomInt(Math.max(ephemeralLow, lowest + 1_000) - lowest);
    if (await canListen(port)) return port;
  }
  throw new Error('no free loopback port below the ephemeral range after 100 tries');
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

export interface TestAppOptions {
  env?: Record<string, string>;
  /** Use this DATA_DIR with the on-disk embedded database (persistence tests). */
  dataDir?: string;
  /** A port chosen beforehand (when a URL must be known before the app starts). */
  port?: number;
  /** Collect log lines here (LOG_LEVEL is then `debug` unless env says otherwise). */
  logLines?: string[];
  /** The app's clock (a `MovableClock`'s `now`), so the test moves time instead of sleeping. */
  clock?: () => Date;
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const port = options.port ?? (await freePort());
  const baseUrl = `http://127.0.0.1:${port}`;
  const database = options.dataDir
    ? { url: undefined, drop: async () => {} }
    : await createTestDatabase();
  const scratch = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'latchkey-test-')));
  // Outgoing mail goes to a real SMTP receiver of the test's own, unless the test chooses
  // (MAIL_SMTP_URL '' leaves it unset: mail is then logged).
  const mail = options.env && 'MAIL_SMTP_URL' in options.env ? undefined : await startMailCatcher();
  // Sender authentication's DNS goes to a loopback server of the test's own (an empty zone:
  // NXDOMAIN for all), so no test depends on the machine's resolvers, unless the test chooses.
  const dns = options.env && 'DNS_SERVERS' in options.env ? undefined : await startDnsServer();
  const config = loadConfig({
    PORT: String(port),
    PUBLIC_BASE_URL: baseUrl,
    // Never a fixed port in tests: files run in parallel, each app with its own SMTP listener.
    SMTP_PORT: '0',
    DATA_DIR: scratch,
    LOG_LEVEL: options.logLines ? 'debug' : (process.env.LATCHKEY_TEST_LOG_LEVEL ?? 'silent'),
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    ...(mail ? { MAIL_SMTP_URL: mail.url } : {}),
    ...(dns ? { DNS_SERVERS: dns.address } : {}),
    // Test files sign many people up from 127.0.0.1; the per-address limit has tests of its own.
    SIGNUP_MAX_PER_ADDRESS: '1000',
    ...options.env,
  });
  const logDestination = options.logLines
    ? { write: (line: string) => void options.logLines!.push(line) }
    : undefined;
  const app = await buildApp(config, {
    embeddedInMemory: !options.dataDir,
    logDestination,
    clock: options.clock,
  });
  await app.start(port);
  return {
    app,
    baseUrl,
    consoleUrl: config.consoleUrl,
    mail,
    async stop() {
      await app.stop();
      await mail?.stop();
      await dns?.stop();
      await database.drop();
      if (!options.dataDir) await rm(scratch, { recursive: true, force: true });
    },
  };
}
