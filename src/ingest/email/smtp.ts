/**
 * The inbound SMTP listener (smtp-server) on SMTP_PORT; each message is parsed and searched for its
 * code or link once, by the mail reader's worker pool (mail-reader.ts), then stored per recipient.
 *
 * - `RCPT TO` is accepted only for the inbox address of an active, unexpired session at
 *   INBOUND_EMAIL_DOMAIN; anything else is `550` (so unknown mail is refused during the
 *   conversation, not bounced later).
 * - Messages larger than SMTP_MAX_MESSAGE_BYTES are refused (`SIZE` is advertised; `552`).
 * - At most SMTP_MAX_CLIENTS connections at once; the next one is greeted with `421` and closed.
 * - A message mailparser cannot parse gets a permanent `554` (retrying cannot help, and a `451`
 *   would make the sender retry it forever); one that runs out of the extraction budget is stored
 *   as "no code" (nothing is delivered) and acknowledged.
 * - The `250` after DATA is sent only once the message is committed for every accepted recipient;
 *   a failure to store is a temporary `451`, so the sending server retries. Message-ID makes a
 *   retry idempotent per inbox.
 * - Every message's sender is authenticated (SPF, DKIM, DMARC: sender-auth.ts) alongside its
 *   parse, within its own DNS budget (3.5 s), so whatever DNS does the `250` still comes within 5 s;
 *   the results are stored with the message, and a session that requires an authenticated sender
 *   gets no verdict from any other (receive.ts decides, under the session's row lock).
 * - STARTTLS is offered when SMTP_TLS_CERT and SMTP_TLS_KEY are set (RFC 3207), and not advertised
 *   otherwise. It is never required: an MX must take mail from senders without TLS, as senders
 *   treat MX TLS as opportunistic. TLS 1.2 or later.
 * No AUTH (anyone may deliver, as to any MX); the listener only accepts mail for its own inboxes.
 */
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import type { Config } from '../../config.ts';
import { type ChallengeDeps, forked } from '../../domain/context.ts';
import { receiveMessage } from '../../domain/messages/receive.ts';
import { type MailReader, NO_CODE } from './mail-reader.ts';
import type { SenderAuthenticator } from './sender-auth.ts';

export interface SmtpListener {
  port: number;
  close(): Promise<void>;
}

const MAX_RECIPIENTS = 20;
/** Async zlib runs on libuv's thread pool, off the event loop. */
const gzipAsync = promisify(gzip);

function smtpError(message: string, responseCode: number) {
  return Object.assign(new Error(message), { responseCode });
}

export async function startSmtpListener(
  config: Pick<
    Config,
    | 'smtpPort'
    | 'host'
    | 'inboundEmailDomain'
    | 'smtpMaxMessageBytes'
    | 'smtpMaxClients'
    | 'smtpTls'
  >,
  deps: ChallengeDeps,
  reader: MailReader,
  senders: SenderAuthenticator,
): Promise<SmtpListener> {
  const domain = config.inboundEmailDomain;
  const server = new SMTPServer({
    name: domain,
    banner: 'Latchkey inbound mail',
    authOptional: true,
    disabledCommands: config.smtpTls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    ...(config.smtpTls
      ? { key: config.smtpTls.key, cert: config.smtpTls.cert, minVersion: 'TLSv1.2' as const }
      : {}),
    size: config.smtpMaxMessageBytes,
    maxClients: config.smtpMaxClients,
    logger: false,
    closeTimeout: 5_000,
    // No PTR lookup per connection: nothing uses the name, and it went to the system's DNS (not
    // DNS_SERVERS) before the client could even speak, a stall when that DNS is silent.
    disableReverseLookup: true,

    onRcptTo(address, session, callback) {
      const recipient = address.address.toLowerCase();
      if (session.envelope.rcptTo.length >= MAX_RECIPIENTS) {
        return callback(smtpError('5.5.3 Too many recipients', 452));
      }
      if (!recipient.endsWith(`@${domain}`)) {
        return callback(smtpError('5.1.1 No such mailbox here', 550));
      }
      isActiveInbox(deps, recipient).then(
        (active) => (active ? callback() : callback(smtpError('5.1.1 Mailbox unavailable', 550))),
        (error) => {
          deps.log.error({ err: error }, 'smtp recipient check failed');
          callback(smtpError('4.3.0 Temporary failure, try again later', 451));
        },
      );
    },

    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      let bytes = 0;
      stream.on('data', (chunk: Buffer) => {
        // Past the limit the message is refused anyway: keep reading, stop keeping.
        bytes += chunk.length;
        if (bytes <= config.smtpMaxMessageBytes) chunks.push(chunk);
      });
      stream.on('end', () => {
        if (
          (stream as { sizeExceeded?: boolean }).sizeExceeded ||
          bytes > config.smtpMaxMessageBytes
        ) {
          return callback(smtpError('5.3.4 Message too big', 552));
        }
        storeMail(deps, reader, senders, Buffer.concat(chunks), session).then(
          (stored) =>
            stored ? callback() : callback(smtpError('5.6.0 Message could not be parsed', 554)),
          (error) => {
            deps.log.error({ err: error }, 'smtp message not stored');
            callback(smtpError('4.3.0 Temporary failure, try again later', 451));
          },
        );
      });
      stream.on('error', (error) => callback(error));
    },
  });
  server.on('error', (error) => deps.log.warn({ err: error }, 'smtp connection error'));

  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(config.smtpPort, config.host, () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function isActiveInbox(deps: ChallengeDeps, address: string): Promise<boolean> {
  const ctx = forked(deps);
  const [row] = await ctx.em.execute<{ id: string }[]>(
    `select id from challenge_session
     where inbox_address = ? and state = 'active' and expires_at > ?`,
    [address, ctx.clock()],
  );
  return row !== undefined;
}

/** Reads the message once, then stores it for each recipient; false when it cannot be parsed. */
async function storeMail(
  deps: ChallengeDeps,
  reader: MailReader,
  senders: SenderAuthenticator,
  raw: Buffer,
  session: SMTPServerSession,
): Promise<boolean> {
  const envelopeFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
  const [outcome, rawGzipped, sender] = await Promise.all([
    reader.read(raw),
    gzipAsync(raw),
    senders.authenticate(raw, {
      // An IPv4 client on a dual-stack socket appears as ::ffff:a.b.c.d; SPF wants a.b.c.d.
      clientIp: session.remoteAddress.replace(/^::ffff:(?=\d+\.)/, ''),
      helo: session.hostNameAppearsAs ?? '',
      mailFrom: envelopeFrom,
    }),
  ]);
  if (outcome.kind === 'unparseable') return false;
  // Over budget, the headers were not read either: the envelope sender stands in, no dedupe key.
  const read = outcome.kind === 'read' ? outcome : undefined;
  // When the stop of a silent DNS left no From address, the parser's stands in.
  const from = sender.address ?? read?.from ?? null;
  const withAddress = sender.address
    ? sender
    : { ...sender, address: from, domain: from?.slice(from.lastIndexOf('@') + 1) || null };
  // One message to several of our inboxes is stored once per inbox, each bound to its session.
  for (const recipient of session.envelope.rcptTo) {
    await receiveMessage(forked(deps), {
      medium: 'email',
      carrier: 'smtp',
      to: recipient.address,
      from: read?.from || envelopeFrom || 'unknown',
      sender: withAddress,
      extraction: read?.extraction ?? NO_CODE,
      raw,
      rawGzipped,
      externalId: read?.messageId,
    });
  }
  return true;
}
