/**
 * Real faults for tests: a TCP proxy between the service and a dependency (PostgreSQL, Redis)
 * that the test cuts and restores, and a database reached only through such a proxy.
 *
 * Nothing is mocked: the service talks to the real server over real sockets, and a cut is what
 * a crashed or partitioned dependency looks like from the service's side — open connections
 * reset and new ones refused (`cut`), or new ones never answered (`blackhole`).
 */
import net from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { createTestDatabase } from './database.ts';

type Mode = 'open' | 'cut' | 'blackhole';

export class FaultProxy {
  readonly #server: net.Server;
  readonly #sockets = new Set<net.Socket>();
  #mode: Mode = 'open';

  private constructor(target: { host: string; port: number }) {
    this.#server = net.createServer((client) => {
      this.#sockets.add(client);
      client.on('close', () => this.#sockets.delete(client));
      client.on('error', () => {});
      // Refused: the connection is reset at once, as by a host whose server is down.
      if (this.#mode === 'cut') return void client.resetAndDestroy();
      // Never answered: the connection is held open and nothing is forwarded.
      if (this.#mode === 'blackhole') return;
      const upstream = net.connect(target.port, target.host);
      this.#sockets.add(upstream);
      upstream.on('close', () => {
        this.#sockets.delete(upstream);
        client.destroy();
      });
      upstream.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
      client.pipe(upstream).pipe(client);
    });
  }

  static async start(target: { host: string; port: number }): Promise<FaultProxy> {
    const proxy = new FaultProxy(target);
    await new Promise<void>((resolve, reject) => {
      proxy.#server.once('error', reject);
      proxy.#server.listen(0, '127.0.0.1', () => resolve());
    });
    return proxy;
  }

  get port(): number {
    return (this.#server.address() as net.AddressInfo).port;
  }

  /** The dependency goes away: open connections are reset, new ones refused. */
  cut() {
    this.#mode = 'cut';
    this.#dropAll();
  }

  /** The dependency stops answering: open connections are reset, new ones hang unanswered. */
  blackhole() {
    this.#mode = 'blackhole';
    this.#dropAll();
  }

  /**
   * The dependency is back: new connections are forwarded again. Connections held unanswered by a
   * blackhole are reset (they were never forwarded); forwarded ones are left alone, since a
   * dependency coming back does not break the connections made to it.
   */
  restore() {
    const was = this.#mode;
    this.#mode = 'open';
    if (was === 'blackhole') this.#dropAll();
  }

  /**
   * The link breaks while the dependency stays up: every open connection is reset, new ones are
   * forwarded as before (a load balancer or NAT dropping idle flows).
   */
  resetConnections() {
    this.#dropAll();
  }

  async close() {
    this.#dropAll();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #dropAll() {
    for (const socket of this.#sockets) socket.resetAndDestroy();
    this.#sockets.clear();
  }
}

export interface ProxiedDatabase {
  /** The connection string through the proxy: give it to the app as DATABASE_URL. */
  url: string;
  proxy: FaultProxy;
  stop(): Promise<void>;
}

/**
 * A database of the test's own behind a FaultProxy: a throw-away database on the real PostgreSQL
 * when LATCHKEY_TEST_DATABASE_URL is set, else an in-memory PGlite served on a loopback socket
 * (the same wire protocol the service speaks to PostgreSQL).
 */
export async function startProxiedDatabase(): Promise<ProxiedDatabase> {
  const real = await createTestDatabase();
  if (real.url) {
    const url = new URL(real.url);
    const proxy = await FaultProxy.start({ host: url.hostname, port: Number(url.port || 5432) });
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    return {
      url: url.href,
      proxy,
      async stop() {
        await proxy.close();
        await real.drop();
      },
    };
  }
  const db = await PGlite.create();
  // Enough connections for the service's non-embedded pool (10) and the ones a cut leaves behind.
  const socket = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 32 });
  await socket.start();
  const [host, port] = socket.getServerConn().split(':') as [string, string];
  const proxy = await FaultProxy.start({ host, port: Number(port) });
  return {
    url: `postgresql://postgres@127.0.0.1:${proxy.port}/postgres`,
    proxy,
    async stop() {
      await proxy.close();
      await socket.stop();
      await db.close();
    },
  };
}

/** A FaultProxy in front of the Redis at LATCHKEY_TEST_REDIS_URL; the URL to give the app. */
export async function startProxiedRedis(redisUrl: string) {
  const url = new URL(redisUrl);
  const proxy = await FaultProxy.start({ host: url.hostname, port: Number(url.port || 6379) });
  url.hostname = '127.0.0.1';
  url.port = String(proxy.port);
  return { url: url.href, proxy };
}
