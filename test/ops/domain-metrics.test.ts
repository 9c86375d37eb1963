/**
 * Operators' view (decisions.md "Operations"): /metrics carries the domain metrics in Prometheus
 * text a stock parser reads, and each session state change and verdict writes one structured log
 * line that never contains the code.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { rest, sendSms } from '../helpers/faces.ts';
import { apiKey, newAccount } from '../helpers/principals.ts';

let t: TestApp;
let key: string;
const logLines: string[] = [];

beforeAll(async () => {
  t = await startTestApp({ logLines });
  key = await apiKey(t, await newAccount(t));
});
afterAll(() => t?.stop());

async function families() {
  const response = await fetch(`${t.baseUrl}/metrics`);
  expect(response.status).toBe(200);
  return new Map(parsePrometheusTextFormat(await response.text()).map((f) => [f.name, f]));
}

test('a session opened, its code delivered and the session closed show in /metrics and in one log line each, without the code', async () => {
  const opened = await rest(t, 'POST', '/v1/sessions', key, { channel: 'sms_otp' });
  expect(opened.status).toBe(201);
  const { session_id: sessionId, number } = opened.body;
  const sent = await sendSms(t, key, {
    to: number,
    from: '+14155550123',
    body: 'Your code is 739215',
  });
  expect(sent.status).toBeLessThan(300);
  const verdict = await rest(t, 'POST', `/v1/sessions/${sessionId}/wait`, key, { timeout: 20 });
  expect(verdict.body).toMatchObject({ verdict: 'otp_code', otp_code: '739215' });

  const metrics = await families();
  const opens = metrics.get('latchkey_sessions_opened_total');
  expect(opens?.type).toBe('COUNTER');
  expect(opens?.metrics).toContainEqual({ labels: { channel: 'sms_otp' }, value: '1' });
  const verdicts = metrics.get('latchkey_verdicts_total');
  expect(verdicts?.metrics).toContainEqual({ labels: { verdict: 'otp_code' }, value: '1' });
  const latency = metrics.get('latchkey_verdict_latency_seconds');
  expect(latency?.type).toBe('HISTOGRAM');
  expect(latency?.metrics[0]?.count).toBe('1');
  for (const name of ['latchkey_extraction_seconds', 'latchkey_webhook_deliveries_total'])
    expect(metrics.has(name), name).toBe(true);

  const lines = logLines.map((line) => JSON.parse(line));
  const openedLine = lines.filter((l) => l.msg === 'session opened' && l.sessionId === sessionId);
  expect(openedLine).toHaveLength(1);
  expect(openedLine[0]).toMatchObject({ channel: 'sms_otp', state: 'active' });
  const verdictLine = lines.filter(
    (l) => l.msg === 'verdict delivered' && l.sessionId === sessionId,
  );
  expect(verdictLine).toHaveLength(1);
  expect(verdictLine[0]).toMatchObject({ verdict: 'otp_code' });
  expect(logLines.join('\n')).not.toContain('739215');

  const closed = await rest(t, 'DELETE', `/v1/sessions/${sessionId}`, key);
  expect(closed.status).toBe(200);
  const closedLines = logLines
    .map((line) => JSON.parse(line))
    .filter((l) => l.msg === 'session closed' && l.sessionId === sessionId);
  expect(closedLines).toHaveLength(1);
  expect(closedLines[0]).toMatchObject({ state: 'completed' });
});

test('/metrics counts every garbage collection, however many the process reports at once', async () => {
  // Read from the text itself: the stock parser drops a histogram's labels besides `le`.
  const collections = async () => {
    const text = await (await fetch(`${t.baseUrl}/metrics`)).text();
    const count = /^nodejs_gc_duration_seconds_count\{kind="major"\} (\d+)$/m.exec(text);
    expect(text).toContain('# TYPE nodejs_gc_duration_seconds histogram');
    return Number(count?.[1] ?? 0);
  };
  const before = await collections();
  // Three full collections in one turn of the event loop reach the observer as one batch, where
  // prom-client's own collector counted only the first.
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  gc();
  gc();
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect((await collections()) - before).toBeGreaterThanOrEqual(3);
});
