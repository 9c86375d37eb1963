/**
 * Agent authentication, composed onto the Fastify host: the authorization server (oidc-provider,
 * mounted for an allowlist of routes), registration, security-event intake, discovery and the
 * resource-side credentials every face uses (`server.credentials`).
 *
 * Call before the console and the resource faces are registered: they use the decorations
 * (`server.credentials`, `server.agentAuth`) set here on the root instance.
 */
import type { MikroORM } from '@mikro-orm/postgresql';
import type { FastifyInstance } from 'fastify';
import type Provider from 'oidc-provider';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Database } from '../db/orm.ts';
import { serverSecret } from '../db/server-secrets.ts';
import type { RegistrationPolicy } from '../domain/agents/registrations.ts';
import type { EventBus } from '../events/bus.ts';
import { Credentials } from './credentials.ts';
import { discoveryRoutes } from './discovery-routes.ts';
import { IdentityAssertions } from './identity-assertion.ts';
import { type BenchClient, createProvider } from './provider.ts';
import { mountProvider } from './provider-mount.ts';
import { registrationRoutes } from './registration-routes.ts';
import { announceRevocation, RevocationWatch, tokenHandle } from './revocation.ts';
import { securityEventRoutes } from './security-events.ts';
import { type KeyRing, loadKeyRing, refreshKeyRing } from './signing-keys.ts';
import { startSweeper } from './sweeper.ts';

export interface AgentAuth {
  provider: Provider;
  keys: KeyRing;
  assertions: IdentityAssertions;
  orm: MikroORM;
  /** Settings of the claim ceremony (code lifetime, poll interval, code digest key). */
  policy: RegistrationPolicy;
  /** The runtime's clock (the domain's): the claim ceremony, API keys and assertions read it. */
  clock: () => Date;
}

declare module 'fastify' {
  interface FastifyInstance {
    agentAuth: AgentAuth;
    /** Ends open connections, streams and waits whose credential is revoked (revocation.ts). */
    revocations: RevocationWatch;
  }
}

export interface AuthOptions {
  /** Bench only: enable oidc-provider's client_credentials grant for this client. */
  benchClient?: BenchClient;
}

export async function registerAuth(
  server: FastifyInstance,
  deps: { config: Config; db: Database; logger: Logger; events: EventBus; clock: () => Date },
  options: AuthOptions = {},
): Promise<AgentAuth> {
  const { config, db, logger, events, clock } = deps;
  const em = db.orm.em.fork();
  const keys = await loadKeyRing(em, config.identitySigningKeys, db.sealer);
  const assertions = new IdentityAssertions(keys, config.publicBaseUrl, config.assertionTtl, clock);
  const policy: RegistrationPolicy = {
    userCodeTtl: config.userCodeTtl,
    pollInterval: config.claimPollInterval,
    userCodePepper: await serverSecret(em, db.sealer, 'user-code-pepper'),
  };
  const provider = await createProvider({
    config,
    orm: db.orm,
    keys,
    assertions,
    logger,
    benchClient: options.benchClient,
    cookieKeys: [await serverSecret(em, db.sealer, 'oidc-cookie-signing')],
    clock,
  });
  const agentAuth: AgentAuth = { provider, keys, assertions, orm: db.orm, policy, clock };

  const credentials = new Credentials(provider, db.orm, config, clock);
  const revocations = new RevocationWatch(events, {
    isLive: (principal) => credentials.isLive(principal),
    recheckInterval: config.credentialRecheckInterval * 1000,
    log: logger,
  });
  // RFC 7009: the provider destroys the revoked token (committed when this fires); end what runs
  // under it everywhere. Tokens destroyed otherwise (a lost claim race) were never handed out.
  provider.on('access_token.destroyed', (token: { jti: string }) => {
    void announceRevocation(events, [tokenHandle(token.jti)], logger);
  });

  server.decorate('agentAuth', agentAuth);
  server.decorate('credentials', credentials);
  server.decorate('revocations', revocations);
  server.decorateRequest('principal', null);

  await server.register(
    mountProvider(provider, () => keys.publicJwks(), {
      orm: db.orm,
      registrationLimit: {
        max: config.mcpRegistrationMaxPerAddress,
        windowSeconds: config.mcpRegistrationWindow,
      },
    }),
  );
  await server.register(registrationRoutes(config, () => policy, clock));
  await server.register(securityEventRoutes({ config, orm: db.orm, events, clock }));
  await server.register(discoveryRoutes(config));

  const stopSweeper = startSweeper(db.orm, config.authSweepInterval, logger);
  // Keys kept in the database are re-read, so rotation and retirement need no restart.
  const refresh = config.identitySigningKeys
    ? undefined
    : setInterval(() => {
        refreshKeyRing(db.orm.em.fork(), db.sealer, keys)
          .then((found) => {
            if (!found)
              logger.warn({ component: 'signing-keys' }, 'no live signing key in the table');
          })
          .catch((error) =>
            logger.warn({ err: error, component: 'signing-keys' }, 'signing keys not re-read'),
          );
      }, config.signingKeysRefreshInterval * 1000);
  refresh?.unref();
  server.addHook('onClose', async () => {
    clearInterval(refresh);
    revocations.close();
    await stopSweeper();
  });
  return agentAuth;
}
