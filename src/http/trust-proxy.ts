/**
 * TRUST_PROXY: which proxies in front of the service may speak for the client's address
 * (`X-Forwarded-For`), and so which address the per-address throttles count.
 *
 * Accepted: `false` or `0` (no proxy: the socket's peer is the client), a hop count (`1` when one
 * proxy stands in front), or a comma-separated list of proxy addresses, CIDR ranges, or
 * proxy-addr's names `loopback`, `linklocal` and `uniquelocal`. `true` is refused at start: it
 * would trust every entry of the header, so any client could claim any address by sending one and
 * walk around every per-address limit.
 *
 * Hop counts are built here as a trust function, because Fastify 5 takes a bare number to mean
 * "trust nothing" (it cannot check the immediate peer). With a count of N the client address is
 * the Nth entry from the right: entries further left were written by whoever sent the request and
 * are never believed. A count is only safe when the service cannot be reached except through
 * those proxies; a list of proxy addresses is safe either way.
 */
import proxyAddr from '@fastify/proxy-addr';

export type TrustProxy = false | { hops: number } | { proxies: string[] };

/** Parses TRUST_PROXY; throws an Error whose message says what is accepted. */
export function parseTrustProxy(raw: string): TrustProxy {
  const value = raw.trim();
  if (value === 'false' || value === '0') return false;
  if (value === 'true') {
    throw new Error(
      'true would trust every X-Forwarded-For entry, so any client could pick its own address; give the number of proxies in front of the service (e.g. 1) or their addresses (e.g. 10.0.0.1,10.0.0.0/8)',
    );
  }
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 32) throw new Error(`a hop count of ${hops} is not plausible (at most 32)`);
    return { hops };
  }
  const proxies = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (proxies.length === 0) throw new Error('must be a hop count or a list of proxy addresses');
  try {
    // The very parser Fastify uses, so whatever passes here is what Fastify will trust.
    proxyAddr.compile(proxies);
  } catch (error) {
    throw new Error(
      `${(error as Error).message}; expected a hop count, or proxy addresses or CIDR ranges separated by commas`,
    );
  }
  return { proxies };
}

/** Fastify's `trustProxy` option for a parsed TRUST_PROXY. */
export function trustProxyOption(trust: TrustProxy): false | string[] | TrustHop {
  if (trust === false) return false;
  if ('proxies' in trust) return trust.proxies;
  const { hops } = trust;
  // Hop 0 is the socket's peer (the nearest proxy), hop 1 the next entry from the right, ….
  return (_address: string, hop: number) => hop < hops;
}

type TrustHop = (address: string, hop: number) => boolean;
