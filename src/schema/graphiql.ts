/**
 * GraphiQL for browsers on `GET /graphql` (decisions.md "GraphQL"), and the SDL at
 * `GET /graphql/schema.graphql` for stock tools that read a schema file (graphql-codegen, IDEs).
 *
 * GraphiQL is yoga's own build (`@graphql-yoga/render-graphiql`), which bundles every asset
 * instead of loading them from a CDN. That package inlines them all into one HTML page, which a
 * `script-src 'self'` policy forbids; here the same assets are served as files from
 * `/graphql/graphiql/*`, so the page's policy allows scripts, workers and connections from 'self'
 * only. Styles need 'unsafe-inline' (the editor injects <style> elements at run time); a style
 * cannot run code. The 9 MB bundle is imported on the first request, not at start.
 *
 * The page holds no credential: the person pastes an API key into the Headers tab. The SDL is
 * public, like the schema that `GET /openapi.json` describes; every field still checks its scopes.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { printSchema } from 'graphql';
import { schema } from './index.ts';

const base = '/graphql/graphiql';

/** The policy of the GraphiQL page and its scripts: everything from 'self'. */
export const graphiqlCsp = [
  "default-src 'self'",
  "script-src 'self'",
  "worker-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "form-action 'none'",
  "base-uri 'none'",
].join('; ');

type Bundle = typeof import('@graphql-yoga/render-graphiql/graphiql');
let bundle: Promise<Bundle> | undefined;
const assets = () => {
  bundle ??= import('@graphql-yoga/render-graphiql/graphiql');
  return bundle;
};

const page = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Latchkey GraphiQL</title>
    <link rel="icon" href="data:," />
    <link rel="stylesheet" href="${base}/graphiql.css" />
  </head>
  <body id="body" class="no-focus-outline">
    <noscript>GraphiQL needs JavaScript.</noscript>
    <div id="root"></div>
    <script src="${base}/graphiql.js"></script>
  </body>
</html>
`;

const options = {
  title: 'Latchkey GraphiQL',
  endpoint: '/graphql',
  subscriptionsProtocol: 'SSE',
  // Paste an API key here (or `Authorization: Bearer …`); it never leaves this browser otherwise.
  headers: JSON.stringify({ 'x-api-key': '' }, null, 2),
  shouldPersistHeaders: false,
};

const boot = (js: string) => `self.MonacoEnvironment = {
  globalAPI: false,
  getWorkerUrl: (_moduleId, label) => ({
    editorWorkerService: '${base}/editor.worker.js',
    json: '${base}/json.worker.js',
    graphql: '${base}/graphql.worker.js',
  })[label],
};
${js};
YogaGraphiQL.renderYogaGraphiQL(document.querySelector('#root'), ${JSON.stringify(options)});
`;

/** True for a browser asking `/graphql` for a page (yoga's own test: GET accepting text/html). */
export function wantsGraphiQL(request: FastifyRequest): boolean {
  if (request.method !== 'GET') return false;
  const accept = request.headers.accept ?? '';
  return accept.includes('text/html') && !('query' in ((request.query as object) ?? {}));
}

function send(reply: FastifyReply, type: string, body: string) {
  return reply
    .header('content-security-policy', graphiqlCsp)
    .header('cache-control', 'public, max-age=3600')
    .type(type)
    .send(body);
}

export function registerGraphiQL(server: FastifyInstance, enabled: boolean) {
  const sdl = `${printSchema(schema)}\n`;
  server.get('/graphql/schema.graphql', async (_request, reply) =>
    reply.type('text/plain; charset=utf-8').send(sdl),
  );
  if (!enabled) return;

  let script: string | undefined;
  server.get(`${base}/graphiql.js`, async (_request, reply) => {
    script ??= boot((await assets()).js);
    return send(reply, 'text/javascript; charset=utf-8', script);
  });
  server.get(`${base}/graphiql.css`, async (_request, reply) =>
    send(reply, 'text/css; charset=utf-8', (await assets()).css),
  );
  const workers = {
    'editor.worker.js': 'editorWorkerService',
    'json.worker.js': 'jsonWorker',
    'graphql.worker.js': 'graphqlWorker',
  } as const;
  for (const [file, name] of Object.entries(workers)) {
    server.get(`${base}/${file}`, async (_request, reply) =>
      send(reply, 'text/javascript; charset=utf-8', (await assets())[name]),
    );
  }
}

/** Answers a browser's `GET /graphql` with the page (a preHandler, before authentication). */
export function graphiqlPage(enabled: boolean) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (!enabled || !wantsGraphiQL(request)) return;
    return reply
      .header('content-security-policy', graphiqlCsp)
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(page);
  };
}
