/**
 * The console routes behind mailed links: `/verify?token=…` (a GET, as a link in a mail is),
 * `POST /verify/resend` (the dashboard's "Resend verification email"), `/forgot` and
 * `/reset?token=…`. Every form is CSRF-protected. The domain rules (single use, expiry, limits,
 * what a reset ends) live in src/domain/accounts/; this file maps them onto pages.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { closeConsoleSession, sessionHash } from '../domain/accounts/console-sessions.ts';
import { invalidLink, isLiveEmailToken } from '../domain/accounts/email-links.ts';
import { requestPasswordReset, resetPassword } from '../domain/accounts/password-reset.ts';
import { resendVerificationMail, verifyEmail } from '../domain/accounts/verification.ts';
import type { Background } from '../domain/context.ts';
import { isAppError } from '../errors/index.ts';
import type { Mailer } from '../mail/outgoing.ts';
import { emailVerifiedPage, forgotPage, resetPage } from './account-pages.ts';
import { formFields } from './forms.ts';
import { sendPage } from './html.ts';
import { chromeFor } from './layout.ts';
import { errorPage } from './pages.ts';
import { cookieToken, startSession } from './session.ts';

export interface MailLinkDeps {
  config: Config;
  mailer: Mailer;
  /** Work started after an answer (a reset request), drained before the mailer closes. */
  afterAnswer: Background;
  now: () => Date;
}

export function mailLinkRoutes({ config, mailer, afterAnswer, now }: MailLinkDeps) {
  const prefix = config.consolePath;
  return async function mailLinks(app: FastifyInstance) {
    const chrome = (request: FastifyRequest, reply: FastifyReply) =>
      chromeFor(prefix, request, reply);

    // A verification link works whether or not this browser is signed in (mail is often read on
    // another device); GET, because it is a link in a mail.
    app.get('/verify', async (request, reply) => {
      const user = await verifyEmail(request.em, formFields(request.query).token, now());
      request.log.info({ userId: user.id }, 'email verified');
      return sendPage(reply, 200, emailVerifiedPage(chrome(request, reply), user.email));
    });

    app.post('/verify/resend', { preHandler: app.csrfProtection }, async (request, reply) => {
      const user = request.user;
      if (!user) return reply.redirect(`${prefix}/login`, 303);
      if (user.emailVerifiedAt) return reply.redirect(`${prefix}/`, 303);
      try {
        await resendVerificationMail(request.em, mailer, config.consoleUrl, user, now());
      } catch (error) {
        if (!isAppError(error) || error.code !== 'rate_limited') throw error;
        reply.header('retry-after', String(error.retryAfter));
        return sendPage(
          reply,
          429,
          errorPage(chrome(request, reply), 'Too many emails', error.message, error.code),
        );
      }
      return reply.redirect(`${prefix}/?notice=verification_sent`, 303);
    });

    app.get('/forgot', (request, reply) =>
      sendPage(reply, 200, forgotPage(chrome(request, reply), { csrf: reply.generateCsrf() })),
    );
    // The answer is the same whether or not the account exists, and is sent before the look-up
    // and the mail happen, so neither its words nor its timing tell.
    app.post('/forgot', { preHandler: app.csrfProtection }, async (request, reply) => {
      const email = (formFields(request.body).email ?? '').slice(0, 320);
      const em = request.em.fork();
      const address = request.ip;
      afterAnswer.run(
        () => requestPasswordReset(em, mailer, config.consoleUrl, { email, address }, now()),
        (error) => request.log.error({ err: error }, 'password reset request failed'),
      );
      return sendPage(
        reply,
        200,
        forgotPage(chrome(request, reply), { csrf: reply.generateCsrf(), email, sent: true }),
      );
    });

    // Showing the form does not use the link up (mail scanners open links); setting does.
    app.get('/reset', async (request, reply) => {
      const token = formFields(request.query).token ?? '';
      if (!(await isLiveEmailToken(request.em, token, 'reset_password', now()))) {
        const refused = invalidLink();
        return sendPage(
          reply,
          refused.status,
          errorPage(chrome(request, reply), 'Link not valid', refused.message, refused.code),
        );
      }
      return sendPage(
        reply,
        200,
        resetPage(chrome(request, reply), { csrf: reply.generateCsrf(), token }),
      );
    });

    app.post('/reset', { preHandler: app.csrfProtection }, async (request, reply) => {
      const fields = formFields(request.body);
      const token = fields.token ?? '';
      const current = cookieToken(request);
      let user: Awaited<ReturnType<typeof resetPassword>>;
      try {
        user = await resetPassword(
          request.em,
          {
            token,
            password: fields.password ?? '',
            // The browser resetting stays signed in when it is the same person's.
            keepSessionHash: current && request.user ? sessionHash(current) : undefined,
          },
          now(),
        );
      } catch (error) {
        if (isAppError(error) && error.code === 'invalid_request') {
          return sendPage(
            reply,
            400,
            resetPage(chrome(request, reply), {
              csrf: reply.generateCsrf(),
              token,
              error: error.message,
            }),
          );
        }
        throw error;
      }
      request.log.info({ userId: user.id }, 'password reset; other console sessions ended');
      if (request.user?.id !== user.id) {
        if (current) await closeConsoleSession(request.em, current);
        await startSession(config, request, reply, user);
      }
      return reply.redirect(`${prefix}/?notice=password_changed`, 303);
    });
  };
}
