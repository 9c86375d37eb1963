/**
 * Outgoing mail (verification and password-reset links) through nodemailer to `MAIL_SMTP_URL`.
 * Unset, each mail is written to the service log as one line with its link, so a newcomer's
 * `npm start` can still verify and reset without a mail server (decisions.md).
 *
 * Mail is sent after the answer, in the background: the answer to "send me a reset link" must not
 * take longer for an existing account than for an unknown one, and a slow mail server must not
 * hold a sign-up. A failed send is logged (never with its link); the person retries with the
 * page's button. Why no outbox: the row would have to hold the link's token in the clear, which is
 * exactly what the database must never hold (only hashes of tokens are stored).
 */
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../config.ts';
import { Background, type DomainLog } from '../domain/context.ts';

export interface OutgoingMail {
  to: string;
  subject: string;
  /** Plain text; the link appears on a line of its own. */
  text: string;
  /** The single-use link the mail carries (logged when no SMTP server is configured). */
  link: string;
}

export class Mailer {
  readonly #transport: Transporter | undefined;
  readonly #from: string;
  readonly #log: DomainLog;
  readonly #background = new Background();

  constructor(config: Pick<Config, 'mailSmtpUrl' | 'mailFrom'>, log: DomainLog) {
    this.#transport = config.mailSmtpUrl
      ? nodemailer.createTransport(config.mailSmtpUrl)
      : undefined;
    this.#from = config.mailFrom;
    this.#log = log;
    if (!this.#transport) {
      log.warn({}, 'MAIL_SMTP_URL is unset: outgoing mail (with its links) is written to this log');
    }
  }

  /** Queues `mail`; returns at once. Failures are logged without the link. */
  send(mail: OutgoingMail) {
    const transport = this.#transport;
    if (!transport) {
      // The one place a link is logged on purpose: there is nowhere else for it to go.
      this.#log.info(
        { mail: { to: mail.to, subject: mail.subject, link: mail.link } },
        'outgoing mail (not sent: MAIL_SMTP_URL is unset)',
      );
      return;
    }
    this.#background.run(
      async () => {
        const info = await transport.sendMail({
          from: this.#from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
        });
        this.#log.info({ messageId: info.messageId }, 'outgoing mail sent');
      },
      (error) =>
        this.#log.error(
          { err: { name: (error as Error).name, message: (error as Error).message } },
          'outgoing mail failed',
        ),
    );
  }

  /** Waits for mail in flight, then closes the SMTP connections. */
  async close() {
    await this.#background.drain();
    this.#transport?.close();
  }
}
