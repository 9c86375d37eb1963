/**
 * Sender authentication (issue 21): is an inbound email really from who its `From` says? SPF for
 * the SMTP client's address, `HELO` and `MAIL FROM`, DKIM, and DMARC alignment with the `From`
 * domain, by mailauth (RFC 7208, RFC 6376, RFC 7489), with its results in RFC 8601 words.
 *
 * Why on the event loop and not in the mail reader's workers: the work is DNS (I/O, which a worker
 * would only wait on while holding its slot and its 2 s extraction budget) plus one SHA-256 over
 * the body (native, ~2 ms per MiB); `bench/results/sender.md` measures it. It runs concurrently
 * with the worker's parse, so it adds no time unless DNS is slow.
 *
 * Invariants:
 * - DNS goes to DNS_SERVERS (`host:port`, IP addresses) or the system's resolvers, through one
 *   node:dns Resolver with a per-query timeout; a message has AUTH_BUDGET_MS for all its lookups,
 *   after which every pending and later lookup fails at once as `ETIMEOUT` (mailauth reports
 *   `temperror`), and a hard stop shortly after answers all-`temperror` whatever mailauth does. So a
 *   dead or silent DNS server costs a message at most ~3.8 s and the SMTP `250` still comes within
 *   5 s of its data (the reader's budget runs alongside, not after).
 * - Nothing here throws for the sender's doing: a message mailauth cannot read is `permerror`.
 * - `authenticated` is true exactly when DMARC passes.
 * - BIMI (fetches logos over HTTPS) and ARC (Latchkey seals nothing and forwards nothing) are off.
 */
import { Resolver } from 'node:dns/promises';
import { authenticate } from 'mailauth';
import type { DomainLog } from '../../domain/context.ts';
import type { AuthResult, SenderAuthentication } from '../../entities/inbound-message.ts';

/** Time all of one message's lookups may take together; the SMTP 250 must come within 5 s. */
export const AUTH_BUDGET_MS = 3_500;
/** After the budget, how long mailauth gets to finish with its lookups failed before we stop. */
const HARD_STOP_MS = 300;
/** One DNS query's timeout per try (c-ares), and tries per server. */
const QUERY_TIMEOUT_MS = 1_000;
const QUERY_TRIES = 2;

const RESULT_WORDS = new Set<AuthResult>([
  'pass',
  'fail',
  'softfail',
  'neutral',
  'none',
  'temperror',
  'permerror',
  'policy',
]);

export interface SmtpEnvelope {
  /** The SMTP client's IP address (the TCP peer). */
  clientIp: string;
  /** What the client said in `HELO`/`EHLO`. */
  helo: string;
  /** The `MAIL FROM` address; empty for a bounce (`<>`). */
  mailFrom: string;
}

export interface SenderAuthenticatorOptions {
  /** `host:port` (or bare IP) resolvers; empty or absent: the system's. */
  dnsServers?: readonly string[] | undefined;
  /** This receiver's host name, written as the authserv-id (the inbound email domain). */
  mta: string;
  log: DomainLog;
  /** Milliseconds all lookups of one message may take; AUTH_BUDGET_MS unless a test says. */
  budgetMs?: number;
}

export interface SenderAuthenticator {
  authenticate(raw: Buffer, envelope: SmtpEnvelope): Promise<SenderAuthentication>;
}

export function createSenderAuthenticator(
  options: SenderAuthenticatorOptions,
): SenderAuthenticator {
  const resolver = new Resolver({ timeout: QUERY_TIMEOUT_MS, tries: QUERY_TRIES });
  if (options.dnsServers?.length) resolver.setServers([...options.dnsServers]);
  const budgetMs = options.budgetMs ?? AUTH_BUDGET_MS;

  return {
    async authenticate(raw, envelope) {
      const deadline = deadlineAfter(budgetMs);
      // Each lookup races the message's deadline: once it passes, mailauth sees ETIMEOUT at once.
      const resolve = (name: string, rrtype: string) =>
        Promise.race([
          resolver.resolve(name, rrtype) as Promise<string[] | string[][]>,
          deadline.passed,
        ]);
      let hardStop: NodeJS.Timeout | undefined;
      const stopped = new Promise<'stopped'>((done) => {
        hardStop = setTimeout(() => done('stopped'), budgetMs + HARD_STOP_MS);
      });
      try {
        const outcome = await Promise.race([
          authenticate(raw, {
            ip: envelope.clientIp,
            helo: envelope.helo,
            sender: envelope.mailFrom,
            mta: options.mta,
            resolver: resolve,
            disableArc: true,
            disableBimi: true,
          }),
          stopped,
        ]);
        if (outcome === 'stopped') {
          options.log.warn({ budgetMs }, 'sender authentication over budget: temperror');
          return everything('temperror', null);
        }
        return summarize(outcome);
      } catch (error) {
        // mailauth refuses input it cannot read at all; that is the sender's message, not ours.
        options.log.warn({ err: error }, 'sender authentication failed: permerror');
        return everything('permerror', null);
      } finally {
        clearTimeout(hardStop);
        deadline.clear();
      }
    },
  };
}

function deadlineAfter(ms: number) {
  let timer: NodeJS.Timeout | undefined;
  const passed = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error('DNS budget spent'), { code: 'ETIMEOUT' })),
      ms,
    );
  });
  // Lookups that finished first leave this promise unobserved; it must not count as unhandled.
  passed.catch(() => {});
  return { passed, clear: () => clearTimeout(timer) };
}

function everything(result: AuthResult, address: string | null): SenderAuthentication {
  return {
    address,
    domain: domainOf(address),
    authenticated: false,
    spf: result,
    dkim: result,
    dmarc: result,
  };
}

function domainOf(address: string | null): string | null {
  if (!address) return null;
  const at = address.lastIndexOf('@');
  return at >= 0 && at < address.length - 1 ? address.slice(at + 1) : null;
}

const word = (value: unknown): AuthResult =>
  typeof value === 'string' && RESULT_WORDS.has(value as AuthResult)
    ? (value as AuthResult)
    : 'none';

type Outcome = Awaited<ReturnType<typeof authenticate>>;

/**
 * mailauth's report, reduced: several DKIM signatures count as `pass` when any passes (DMARC
 * takes any aligned pass too), else the first one's result; no signature is `none`; a message
 * DMARC cannot evaluate (no From, or several From domains) is `none`.
 */
function summarize(outcome: Outcome): SenderAuthentication {
  const dkimResults = (outcome.dkim?.results ?? []).map((r) => word(r.status?.result));
  const dkim = dkimResults.includes('pass') ? 'pass' : (dkimResults[0] ?? 'none');
  const spf = outcome.spf ? word(outcome.spf.status?.result) : 'none';
  const dmarc = outcome.dmarc ? word(outcome.dmarc.status?.result) : 'none';
  const address = outcome.dkim?.headerFrom?.[0] ?? null;
  return {
    address,
    domain: domainOf(address),
    authenticated: dmarc === 'pass',
    spf,
    dkim,
    dmarc,
  };
}
