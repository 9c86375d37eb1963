/**
 * A real SMTP receiver (smtp-server + mailparser) standing in for the mail provider: the service
 * sends to it through MAIL_SMTP_URL exactly as it would to a real one, and tests read what arrived
 * and follow the links in it.
 */
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
}

export interface MailCatcher {
  /** smtp://127.0.0.1:<port>, for MAIL_SMTP_URL. */
  url: string;
  received: ReceivedMail[];
  /** The next mail to `to` not taken yet (waits for it to arrive). */
  next(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  stop(): Promise<void>;
}

/** The first console link (`…/verify?token=…`, `…/reset?token=…`) in a mail's text. */
export function linkIn(mail: ReceivedMail, kind: 'verify' | 'reset'): string {
  const match = new RegExp(`https?://\\S+/${kind}\\?token=[A-Za-z0-9_-]+`).exec(mail.text);
  if (!match) throw new Error(`no ${kind} link in the mail: ${mail.text}`);
  return match[0];
}

export async function startMailCatcher(): Promise<MailCatcher> {
  const received: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const listeners = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          received.push({
            from: parsed.from?.text ?? '',
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
          });
          for (const listener of listeners) listener();
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  const find = (to: string) =>
    received.find((mail) => !taken.has(mail) && mail.to.includes(to.toLowerCase()));

  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    next(to, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const mail = find(to);
          if (!mail) return;
          taken.add(mail);
          listeners.delete(check);
          clearTimeout(timer);
          resolve(mail);
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`no mail to ${to} arrived`));
        }, timeoutMs);
        listeners.add(check);
        check();
      });
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
