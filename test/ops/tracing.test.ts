/**
 * OpenTelemetry traces from the real process (`node src/main.ts`), exported over OTLP/HTTP to a
 * receiver of the test's own that decodes what the SDK sends (OTEL_EXPORTER_OTLP_PROTOCOL
 * http/json: the SDK's JSON encoding of the OTLP ExportTraceServiceRequest).
 *
 * Opening a session yields one trace in which the HTTP server span is the ancestor of the domain
 * span `latchkey.session.open`, itself the parent of PostgreSQL query spans; an SMS from the
 * carrier yields one in which `latchkey.message.receive` holds the verdict's
 * `latchkey.verdict.publish`. With the endpoint
 * unset, nothing of the SDK, its exporters or its instrumentations is even loaded.
 * Runs on the embedded database (PGlite behind its socket) or on a real PostgreSQL.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { freePort, startTestApp } from '../helpers/app.ts';
import { postTwilio, TWILIO_TOKEN } from '../helpers/challenges.ts';
import { createTestDatabase } from '../helpers/database.ts';
import { apiKey, newAccount } from '../helpers/principals.ts';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: { key: string; value: { stringValue?: string; intValue?: string } }[];
}
interface OtlpRequest {
  resourceSpans: {
    resource?: { attributes?: OtlpSpan['attributes'] };
    scopeSpans: { scope?: { name: string }; spans: OtlpSpan[] }[];
  }[];
}

const SPAN_KIND_SERVER = 2;
const SPAN_KIND_CLIENT = 3;
const CALLER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';

const dataDir = await mkdtemp(path.join(tmpdir(), 'latchkey-tracing-'));
const database = await createTestDatabase();
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await database.drop();
  await rm(dataDir, { recursive: true, force: true });
});

/**
 * An OTLP/HTTP traces receiver: keeps every export request's body, and decodes the JSON ones.
 */
async function startReceiver() {
  const requests: OtlpRequest[] = [];
  const bodies: Buffer[] = [];
  const contentTypes: string[] = [];
  let notify = () => {};
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method === 'POST' && request.url === '/v1/traces') {
        const contentType = request.headers['content-type'] ?? '';
        const body = Buffer.concat(chunks);
        contentTypes.push(contentType);
        bodies.push(body);
        if (contentType === 'application/json') {
          requests.push(JSON.parse(body.toString()) as OtlpRequest);
        }
        notify();
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const spans = () =>
    requests.flatMap((r) => r.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((s) => s.spans)));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    bodies,
    contentTypes,
    spans,
    /** Resolves once `found` holds for the spans (and raw bodies) received so far. */
    until(found: (spans: OtlpSpan[], bodies: Buffer[]) => boolean): Promise<void> {
      return new Promise((resolve) => {
        notify = () => {
          if (found(spans(), bodies)) resolve();
        };
        notify();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function startService(env: Record<string, string>) {
  return new Promise<{ child: ChildProcess; baseUrl: string }>((resolve, reject) => {
    void freePort().then((port) => {
      const baseUrl = `http://127.0.0.1:${port}`;
      const child = spawn(
        process.execPath,
        ['--import', './test/ops/fixtures/record-loads.ts', 'src/main.ts'],
        {
          env: {
            ...process.env,
            PORT: String(port),
            PUBLIC_BASE_URL: baseUrl,
            DATA_DIR: dataDir,
            DATABASE_URL: database.url ?? '',
            REDIS_URL: '',
            SMTP_PORT: '0',
            LOG_LEVEL: 'info',
            OTEL_EXPORTER_OTLP_ENDPOINT: '',
            OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '',
            ...env,
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      children.push(child);
      let seen = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        if (seen.includes('latchkey started')) resolve({ child, baseUrl });
      });
      child.stderr?.on('data', (chunk: Buffer) => (seen += chunk.toString()));
      child.once('exit', (code) => reject(new Error(`exited with ${code}: ${seen}`)));
    }, reject);
  });
}

async function stopService(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  return exited;
}

// An account and a key on the database the process will use, made by an in-process instance.
const setup = await startTestApp(
  database.url ? { dataDir, env: { DATABASE_URL: database.url } } : { dataDir },
);
const key = await apiKey(setup, await newAccount(setup));
await setup.stop();

test('each request exports one trace: HTTP span → domain span → pg queries and the verdict publish', async () => {
  const receiver = await startReceiver();
  const loads = path.join(dataDir, 'loads-on.log');
  let service: ChildProcess | undefined;
  try {
    const { child, baseUrl } = await startService({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '100',
      OTEL_SERVICE_NAME: 'latchkey-tracing-test',
      LATCHKEY_TEST_LOAD_LOG: loads,
      TWILIO_AUTH_TOKEN: TWILIO_TOKEN,
    });
    service = child;
    const opened = await fetch(`${baseUrl}/v1/sessions`, {
      method: 'POST',
      headers: {
        'x-api-key': key,
        'content-type': 'application/json',
        // The caller's own trace (W3C Trace Context) continues into the service.
        traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01`,
      },
      body: JSON.stringify({ channel: 'email_otp' }),
    });
    expect(opened.status).toBe(201);
    const requestId = opened.headers.get('x-request-id');
    const inbox = ((await opened.json()) as { inbox_address: string }).inbox_address;
    expect(inbox).toContain('@');

    const isOpen = (s: OtlpSpan) => s.name === 'latchkey.session.open';
    await receiver.until((spans) => {
      const open = spans.find(isOpen);
      return Boolean(
        open &&
          spans.some((s) => s.parentSpanId === open.spanId) &&
          spans.some((s) => s.traceId === open.traceId && s.kind === SPAN_KIND_SERVER),
      );
    });

    // An SMS for a session: the carrier's request → latchkey.message.receive → the verdict's
    // publish, in one trace.
    const sms = await fetch(`${baseUrl}/v1/sessions`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ channel: 'sms_otp' }),
    });
    const { number } = (await sms.json()) as { number: string };
    const delivered = await postTwilio(baseUrl, { to: number, body: 'Your code is 602214' });
    expect(delivered.status).toBe(200);
    // A query string's values (one-time tokens live there) stay out of the spans.
    const listed = await fetch(`${baseUrl}/v1/sessions?first=1&marker=QueryMarker7731`, {
      headers: { 'x-api-key': key },
    });
    expect(listed.status).toBeLessThan(500);
    const isPublish = (s: OtlpSpan) => s.name === 'latchkey.verdict.publish';
    const isQuery = (s: OtlpSpan) => s.attributes?.some((a) => a.key === 'url.query') ?? false;
    await receiver.until((spans) => spans.some(isPublish) && spans.some(isQuery));
    await stopService(child);

    const spans = receiver.spans();
    const open = spans.find(isOpen)!;
    const trace = spans.filter((s) => s.traceId === open.traceId);
    const byId = new Map(trace.map((s) => [s.spanId, s]));
    const ancestors = (span: OtlpSpan): OtlpSpan[] => {
      const parent = span.parentSpanId ? byId.get(span.parentSpanId) : undefined;
      return parent ? [parent, ...ancestors(parent)] : [];
    };

    // The HTTP request span continues the caller's trace and is the domain span's ancestor.
    expect(open.traceId).toBe(CALLER_TRACE);
    const server = trace.find((s) => s.kind === SPAN_KIND_SERVER)!;
    expect(server.parentSpanId).toBe(CALLER_SPAN);
    expect(ancestors(open)).toContain(server);
    const attribute = (span: OtlpSpan, key: string) =>
      span.attributes?.find((a) => a.key === key)?.value;
    // Named after the route, and tagged with the request id the response (and the logs) carry.
    expect(server.name).toBe('POST /v1/sessions');
    expect(attribute(server, 'http.route')).toEqual({ stringValue: '/v1/sessions' });
    expect(attribute(server, 'latchkey.request_id')).toEqual({ stringValue: requestId });

    // PostgreSQL queries are children of the domain span, and say nothing of the values.
    const queries = trace.filter(
      (s) =>
        s.parentSpanId === open.spanId &&
        s.kind === SPAN_KIND_CLIENT &&
        (attribute(s, 'db.system')?.stringValue === 'postgresql' ||
          attribute(s, 'db.system.name')?.stringValue === 'postgresql'),
    );
    expect(queries.length).toBeGreaterThan(0);
    // Statements are reported by their shape: the inbox address was a value of this insert, sent
    // as a parameter of the prepared open statement (src/db/prepared.ts), never in its text.
    const texts = queries.map((s) => attribute(s, 'db.query.text')?.stringValue ?? '');
    const insert = texts.find((text) => text.includes('insert into challenge_session'));
    expect(insert).toMatch(/select \$\d+, \$\d+, \$\d+/);
    expect(JSON.stringify(trace)).not.toContain(inbox);
    expect(JSON.stringify(trace)).not.toContain(key);

    const publish = spans.find(isPublish)!;
    const ingestTrace = new Map(
      spans.filter((s) => s.traceId === publish.traceId).map((s) => [s.spanId, s]),
    );
    const receive = ingestTrace.get(publish.parentSpanId!)!;
    expect(receive.name).toBe('latchkey.message.receive');
    const carrierRequest = ingestTrace.get(receive.parentSpanId!)!;
    expect(carrierRequest.kind).toBe(SPAN_KIND_SERVER);
    expect(attribute(carrierRequest, 'url.path')).toEqual({ stringValue: '/ingest/sms/twilio' });
    expect(JSON.stringify([...ingestTrace.values()])).not.toContain('602214');
    expect(attribute(spans.find(isQuery)!, 'url.query')).toEqual({
      stringValue: 'first=REDACTED&marker=REDACTED',
    });
    expect(JSON.stringify(spans)).not.toContain('QueryMarker7731');

    // Exported as the standard OTLP/HTTP JSON request, under the configured service name.
    expect(receiver.contentTypes[0]).toBe('application/json');
    const resource = receiver.requests[0]!.resourceSpans[0]!.resource?.attributes ?? [];
    expect(resource).toContainEqual({
      key: 'service.name',
      value: { stringValue: 'latchkey-tracing-test' },
    });
    // The positive control for the test below: the SDK was loaded here.
    expect(await readFile(loads, 'utf8')).toMatch(/@opentelemetry\/sdk-node/);
  } finally {
    if (service) await stopService(service);
    await receiver.close();
  }
}, 120_000);

test('by default the SDK exports OTLP/HTTP protobuf, what collectors expect on port 4318', async () => {
  const receiver = await startReceiver();
  let service: ChildProcess | undefined;
  try {
    const { child, baseUrl } = await startService({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
    service = child;
    const opened = await fetch(`${baseUrl}/v1/sessions`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ channel: 'email_otp' }),
    });
    expect(opened.status).toBe(201);
    // Protobuf keeps strings as they are: the span and service names are in the body.
    const carries = (body: Buffer, text: string) => body.includes(Buffer.from(text));
    await receiver.until((_spans, bodies) =>
      bodies.some((body) => carries(body, 'latchkey.session.open')),
    );
    const body = receiver.bodies.find((b) => carries(b, 'latchkey.session.open'))!;
    expect(receiver.contentTypes).toContain('application/x-protobuf');
    expect(carries(body, 'POST /v1/sessions')).toBe(true);
    expect(carries(body, 'latchkey')).toBe(true);
    expect(carries(body, '"resourceSpans"')).toBe(false);
  } finally {
    if (service) await stopService(service);
    await receiver.close();
  }
}, 120_000);

test('without OTEL_EXPORTER_OTLP_ENDPOINT no part of OpenTelemetry is loaded', async () => {
  const loads = path.join(dataDir, 'loads-off.log');
  await writeFile(loads, '');
  const { child, baseUrl } = await startService({ LATCHKEY_TEST_LOAD_LOG: loads });
  const opened = await fetch(`${baseUrl}/v1/sessions`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ channel: 'email_otp' }),
  });
  expect(opened.status).toBe(201);
  await stopService(child);
  const loaded = (await readFile(loads, 'utf8')).split('\n').filter(Boolean);
  expect(loaded.filter((url) => /sdk|exporter|instrumentation|in-the-middle/.test(url))).toEqual(
    [],
  );
}, 120_000);
