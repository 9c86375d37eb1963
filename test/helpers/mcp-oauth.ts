/**
 * What an MCP host brings to the MCP authorization flow, for tests: an `OAuthClientProvider`
 * (the MCP SDK's interface) that keeps its state in memory, and a real loopback HTTP server as its
 * redirect URI (RFC 8252 §7.3), which records the code or error the browser brings back.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';

export interface Callback {
  code: string | null;
  error: string | null;
  state: string | null;
}

export interface LoopbackRedirect {
  url: string;
  /** The next request the browser makes to the redirect URI. */
  next(): Promise<Callback>;
  close(): Promise<void>;
}

export async function startLoopbackRedirect(): Promise<LoopbackRedirect> {
  const arrived: Callback[] = [];
  const waiting: ((callback: Callback) => void)[] = [];
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const callback = {
      code: url.searchParams.get('code'),
      error: url.searchParams.get('error'),
      state: url.searchParams.get('state'),
    };
    response.writeHead(200, { 'content-type': 'text/plain' }).end('You can close this window.');
    const resolve = waiting.shift();
    if (resolve) resolve(callback);
    else arrived.push(callback);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/callback`,
    next: () => {
      const ready = arrived.shift();
      return ready ? Promise.resolve(ready) : new Promise((resolve) => waiting.push(resolve));
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An MCP host's OAuth state, in memory; `authorizationUrl` is where it would open a browser. */
export class MemoryOAuthClient implements OAuthClientProvider {
  readonly #redirectUrl: string;
  readonly #name: string;
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;

  constructor(redirectUrl: string, name = 'Test MCP Host') {
    this.#redirectUrl = redirectUrl;
    this.#name = name;
  }

  get redirectUrl() {
    return this.#redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.#name,
      redirect_uris: [this.#redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  clientInformation() {
    return this.client;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.client = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}
