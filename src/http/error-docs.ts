/**
 * `GET /docs/errors`: the error-code reference, served by the service itself, so the `type` URI
 * of every problem+json answer (`{base_url}/docs/errors#<code>`, RFC 9457 §3.1.1) resolves to a
 * page that exists and that we own, whatever domain the service runs on.
 *
 * The page is built once at start from docs/errors.md, the same file a test checks against the
 * code registry: each table row becomes a section whose id is its code (the URI's fragment).
 * Only the table is turned into HTML, so no Markdown renderer is needed; every cell is escaped.
 */
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';

const toHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`).replace(/`([^`]+)`/g, '<code>$1</code>');

export interface ErrorDoc {
  code: string;
  status: string;
  meaning: string;
  action: string;
}

/** The rows of docs/errors.md's code table. */
export function readErrorDocs(
  markdown = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8'),
): ErrorDoc[] {
  const rows: ErrorDoc[] = [];
  for (const line of markdown.split('\n')) {
    const match = /^\| `([a-z_]+)` \| (\d{3}) \| (.*) \| (.*) \|$/.exec(line);
    if (match)
      rows.push({ code: match[1]!, status: match[2]!, meaning: match[3]!, action: match[4]! });
  }
  return rows;
}

export function registerErrorDocs(server: FastifyInstance) {
  const sections = readErrorDocs()
    .map(
      (row) => `<section id="${row.code}">
  <h2><code>${row.code}</code> <small>HTTP ${row.status}</small></h2>
  <p>${toHtml(row.meaning)}</p>
  <p><strong>What to do:</strong> ${toHtml(row.action)}</p>
</section>`,
    )
    .join('\n');
  const page = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Latchkey error codes</title></head>
<body>
<h1>Latchkey error codes</h1>
<p>Every error carries a stable machine <code>code</code>; in problem+json answers its
<code>type</code> links to the section below.</p>
${sections}
</body>
</html>
`;
  server.get('/docs/errors', async (_request, reply) =>
    reply
      .header('cache-control', 'public, max-age=3600')
      .type('text/html; charset=utf-8')
      .send(page),
  );
}
