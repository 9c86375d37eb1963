/**
 * The console's account routes (sign-up, sign-in, social sign-in, sign-out, dashboard) as one
 * Fastify plugin under the console path, with the claim, API-key and mailed-link routes
 * (mail-link-routes.ts: verify, forgot, reset) registered inside it. Every form is CSRF-protected;
 * a refused form is shown again with its message and the email kept, so nothing the person typed
 * is lost but the password. A sign-up is mailed its verification link (outgoing mail: src/mail/).
 */
import { readFileSync } from 'node:fs';
import fastifyCsrf from '@fastify/csrf-protection';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { signIn, signUp } from '../domain/accounts/accounts.ts';
import { sendVerificationMail } from '../domain/accounts/verification.ts';
import { Background } from '../domain/context.ts';
import { AppError, isAppError } from '../errors/index.ts';
import { toAppError } from '../http/problem.ts';
import { Mailer } from '../mail/outgoing.ts';
import { agentConsoleRoutes } from './agents-routes.ts';
import { apiKeyConsoleRoutes } from './api-keys-routes.ts';
import { authenticatorConsoleRoutes } from './authenticators-routes.ts';
import { authorizeRoutes } from './authorize-routes.ts';
import { claimRoutes } from './claim-routes.ts';
import { dashboardRoutes } from './dashboard-routes.ts';
import { formFields } from './forms.ts';
import { sendPage } from './html.ts';
import { chromeFor } from './layout.ts';
import { mailLinkRoutes } from './mail-link-routes.ts';
import { errorPage, loginPage, signupPage } from './pages.ts';
import { safeReturnTo } from './return-to.ts';
import { endSession, loadUser, startSession } from './session.ts';
import { SocialSignIn } from './social.ts';
import { usageConsoleRoutes } from './usage-routes.ts';
import { webhookConsoleRoutes } from './webhooks-routes.ts';

const assets = {
  'console.css': {
    type: 'text/css; charset=utf-8',
    body: readFileSync(new URL('./assets/console.css', import.meta.url), 'utf8'),
  },
  'live.js': {
    type: 'text/javascript; charset=utf-8',
    body: readFileSync(new URL('./assets/live.js', import.meta.url), 'utf8'),
  },
};

export function registerConsole(config: Config) {
  const prefix = config.consolePath;
  const social = new SocialSignIn(config, prefix);

  return async function consolePlugin(app: FastifyInstance) {
    await app.register(fastifyCsrf, {
      sessionPlugin: '@fastify/cookie',
      cookieKey: 'lk_csrf',
      cookieOpts: {
        path: prefix,
        httpOnly: true,
        sameSite: 'lax',
        signed: true,
        secure: config.consoleUrl.startsWith('https:'),
      },
    });
    const mailer = new Mailer(config, app.log);
    // Work started after an answer (a reset request); drained before the mailer closes.
    const afterAnswer = new Background();
    app.addHook('onClose', async () => {
      await afterAnswer.drain();
      await mailer.close();
    });
    const now = () => app.challenges.clock();

    app.decorateRequest('user', null);
    app.addHook('preHandler', loadUser);
    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    const chrome = (request: FastifyRequest, reply: FastifyReply) =>
      chromeFor(prefix, request, reply);

    app.setErrorHandler((error, request, reply) => {
      const { error: appError, unexpected } = toAppError(error);
      if (unexpected) request.log.error({ err: error }, 'unexpected console error');
      if (appError.retryAfter !== undefined)
        reply.header('retry-after', String(appError.retryAfter));
      const titles: Record<string, string> = {
        csrf_invalid: 'Form expired',
        link_invalid: 'Link not valid',
        email_unverified: 'Email not verified',
      };
      const title = titles[appError.code] ?? 'Something went wrong';
      return sendPage(
        reply,
        appError.status,
        errorPage({ prefix }, title, appError.message, appError.code),
      );
    });
    app.setNotFoundHandler((_request, reply) =>
      sendPage(
        reply,
        404,
        errorPage({ prefix }, 'Not found', 'There is no such page.', 'not_found'),
      ),
    );

    app.get<{ Params: { name: string } }>('/assets/:name', async (request, reply) => {
      const name = request.params.name;
      const asset = Object.hasOwn(assets, name) ? assets[name as keyof typeof assets] : undefined;
      if (!asset) throw new AppError('not_found', 'There is no such file.');
      return reply
        .type(asset.type)
        .header('cache-control', 'public, max-age=3600')
        .send(asset.body);
    });

    const formPage =
      (kind: 'signup' | 'login') =>
      async (request: FastifyRequest, reply: FastifyReply, status = 200, error?: AppError) => {
        const fields = formFields(request.method === 'GET' ? request.query : request.body);
        const returnTo = safeReturnTo(prefix, fields.return_to);
        if (error?.retryAfter !== undefined) reply.header('retry-after', String(error.retryAfter));
        const common = {
          chrome: chrome(request, reply),
          csrf: reply.generateCsrf(),
          returnTo,
          email: fields.email,
          error: error?.message,
        };
        return sendPage(
          reply,
          status,
          kind === 'signup'
            ? signupPage(common)
            : loginPage({ ...common, providers: social.providers }),
        );
      };
    const showSignup = formPage('signup');
    const showLogin = formPage('login');

    /** Runs a form action; a refusal re-renders the form, anything else goes to the error handler. */
    const formAction =
      (
        show: ReturnType<typeof formPage>,
        action: (
          request: FastifyRequest,
          fields: Record<string, string | undefined>,
        ) => Promise<Parameters<typeof startSession>[3]>,
      ) =>
      async (request: FastifyRequest, reply: FastifyReply) => {
        const fields = formFields(request.body);
        try {
          const user = await action(request, fields);
          await startSession(config, request, reply, user);
          return reply.redirect(safeReturnTo(prefix, fields.return_to), 303);
        } catch (error) {
          if (isAppError(error) && error.code !== 'csrf_invalid')
            return show(request, reply, error.status, error);
          throw error;
        }
      };

    await app.register(claimRoutes(prefix));
    await app.register(mailLinkRoutes({ config, mailer, afterAnswer, now }));
    await app.register(apiKeyConsoleRoutes(prefix));
    await app.register(agentConsoleRoutes(prefix, config.publicBaseUrl));
    await app.register(dashboardRoutes(config));
    await app.register(usageConsoleRoutes(config));
    await app.register(webhookConsoleRoutes(prefix));
    await app.register(authorizeRoutes(config));
    await app.register(authenticatorConsoleRoutes(prefix));

    app.get('/signup', (request, reply) => showSignup(request, reply));
    app.post(
      '/signup',
      { preHandler: app.csrfProtection },
      formAction(showSignup, async (request, fields) => {
        const user = await signUp(
          request.em,
          { email: fields.email ?? '', password: fields.password ?? '', address: request.ip },
          { maxPerAddress: config.signupMaxPerAddress, windowSeconds: config.signupWindow },
          now(),
        );
        await sendVerificationMail(request.em, mailer, config.consoleUrl, user, now());
        return user;
      }),
    );

    app.get('/login', (request, reply) => showLogin(request, reply));
    app.post(
      '/login',
      { preHandler: app.csrfProtection },
      formAction(showLogin, (request, fields) =>
        signIn(
          request.em,
          { email: fields.email ?? '', password: fields.password ?? '', address: request.ip },
          { maxFailures: config.signinMaxFailures, windowSeconds: config.signinWindow },
          request.log,
          now(),
        ),
      ),
    );

    app.post('/logout', { preHandler: app.csrfProtection }, async (request, reply) => {
      await endSession(config, request, reply);
      return reply.redirect(`${prefix}/login`, 303);
    });

    app.post<{ Params: { slot: string } }>(
      '/oidc/:slot/start',
      { preHandler: app.csrfProtection },
      (request, reply) =>
        social.start(reply, request.params.slot, formFields(request.body).return_to),
    );
    app.get<{ Params: { slot: string } }>('/oidc/:slot/callback', async (request, reply) => {
      const { user, returnTo } = await social.callback(request, reply, request.params.slot, now());
      await startSession(config, request, reply, user);
      return reply.redirect(returnTo, 303);
    });
  };
}
