/**
 * A real DNS server on loopback (dns2, UDP) for sender-authentication tests: it publishes TXT
 * records (SPF, DKIM keys at `selector._domainkey`, DMARC at `_dmarc`) and A records, answers
 * NXDOMAIN for every other name, and is handed to the app as DNS_SERVERS exactly as an operator's
 * resolver would be. Also a silent server: a UDP socket that reads queries and never answers.
 */
import { createSocket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { createServer, Packet } from 'dns2';

export interface DnsServer {
  /** `127.0.0.1:<port>`, for DNS_SERVERS. */
  address: string;
  /** Publishes (replaces) the TXT strings of `name`. */
  txt(name: string, ...values: string[]): void;
  /** Publishes the A record of `name`. */
  a(name: string, address: string): void;
  /** How many questions it was asked. */
  readonly queries: number;
  stop(): Promise<void>;
}

export async function startDnsServer(): Promise<DnsServer> {
  const txt = new Map<string, string[]>();
  const a = new Map<string, string>();
  let queries = 0;
  const server = createServer({
    udp: true,
    handle(request, send) {
      queries++;
      const response = Packet.createResponseFromRequest(request);
      const question = request.questions[0];
      if (!question) return send(response);
      const name = question.name.toLowerCase().replace(/\.$/, '');
      const known = txt.has(name) || a.has(name);
      if (!known) {
        response.header.rcode = Packet.RCODE.NXDOMAIN;
      } else if (question.type === Packet.TYPE.TXT && txt.has(name)) {
        for (const value of txt.get(name)!) {
          // A TXT string holds 255 bytes at most: a long record is several strings (RFC 7208 3.3).
          const chunks = value.match(/.{1,255}/g) ?? [''];
          response.answers.push(
            Packet.createResourceFromQuestion(question, { ttl: 60, data: chunks }),
          );
        }
      } else if (question.type === Packet.TYPE.A && a.has(name)) {
        response.answers.push(
          Packet.createResourceFromQuestion(question, { ttl: 60, address: a.get(name)! }),
        );
      }
      send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const { port } = addresses.udp as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    txt: (name, ...values) => void txt.set(name.toLowerCase(), values),
    a: (name, address) => void a.set(name.toLowerCase(), address),
    get queries() {
      return queries;
    },
    stop: () => server.close(),
  };
}

/** A resolver that never answers: every query is read and dropped. */
export async function startSilentDns(): Promise<{
  address: string;
  readonly queries: number;
  stop(): Promise<void>;
}> {
  const socket = createSocket('udp4');
  let queries = 0;
  socket.on('message', () => {
    queries++;
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  return {
    address: `127.0.0.1:${port}`,
    get queries() {
      return queries;
    },
    stop: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
