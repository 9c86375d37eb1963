/**
 * Problem `type` URIs resolve to a page the service serves itself: `/docs/errors` has a section
 * for every code in the registry, and a real 401's `type` points into it.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { errorCodes } from '../../src/errors/index.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let page: string;

beforeAll(async () => {
  t = await startTestApp();
  const response = await fetch(`${t.baseUrl}/docs/errors`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/html/);
  page = await response.text();
});
afterAll(() => t?.stop());

test('GET /docs/errors has an anchor for every registered error code', () => {
  const anchors = new Set([...page.matchAll(/<section id="([a-z_]+)">/g)].map((m) => m[1]));
  const missing = Object.keys(errorCodes).filter((code) => !anchors.has(code));
  expect(missing).toEqual([]);
});

test("a problem's type is this service's /docs/errors#code, and the page holds that anchor", async () => {
  const response = await fetch(`${t.baseUrl}/v1/sessions`);
  const problem = await response.json();
  expect(problem.type).toBe(`${t.baseUrl}/docs/errors#unauthenticated`);
  const target = new URL(problem.type);
  const resolved = await fetch(target);
  expect(resolved.status).toBe(200);
  expect(await resolved.text()).toContain(`id="${target.hash.slice(1)}"`);
});
