/**
 * A real OpenID Connect provider for social sign-in tests: oidc-provider itself plays the
 * upstream identity provider, with its development login and consent pages. Whatever login is
 * typed becomes the subject; the email claim is that login, verified unless it starts with
 * `unverified`.
 */
import http from 'node:http';
import Provider from 'oidc-provider';
import { freePort } from './app.ts';

export interface UpstreamIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  stop(): Promise<void>;
}

export async function startUpstreamIdp(redirectUris: string[]): Promise<UpstreamIdp> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = 'latchkey-console';
  const clientSecret = 'upstream-client-secret-used-only-in-tests';
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        response_types: ['code'],
        grant_types: ['authorization_code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    findAccount: async (_ctx, sub) => ({
      accountId: sub,
      claims: async () => ({ sub, email: sub, email_verified: !sub.startsWith('unverified') }),
    }),
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ['upstream-cookie-key-for-tests'] },
  });
  provider.on('server_error', (_ctx, error) => console.error('upstream idp error', error));
  const server = http.createServer(provider.callback());
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    issuer,
    clientId,
    clientSecret,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
