/**
 * Issue 11: crafted input the extractor must read in bounded work, with the same answers as before
 * for everything real. (The time these cost is shown end to end in test/ingest/email/hostile-mail
 * and bench/suites/mail.ts; here, what is read and what is not.)
 */
import { describe, expect, test } from 'vitest';
import { readHtml } from '../../src/extract/html.ts';
import { extractFromEmail } from '../../src/extract/index.ts';
import { findTextUrls } from '../../src/extract/text-links.ts';

const urls = (text: string) => findTextUrls(text, text.toLowerCase()).map((u) => u.url);

describe('links in text followed by brackets', () => {
  test('a URL followed by thousands of unmatched closing brackets ends before them', () => {
    const text = `Sign in: https://acme.example/login?t=Ab12${')'.repeat(5000)} thanks`;
    expect(urls(text)).toEqual(['https://acme.example/login?t=Ab12']);
  });

  test('brackets the URL opened itself are kept, the unmatched ones after them dropped', () => {
    const text = `(see https://en.example/wiki/Foo_(bar)) and https://acme.example/x[1]]]] ok`;
    expect(urls(text)).toEqual(['https://en.example/wiki/Foo_(bar)', 'https://acme.example/x[1]']);
  });

  test('fifty URLs each followed by 4,000 closing brackets are all found, each cut before them', () => {
    const text = Array.from(
      { length: 50 },
      (_, i) => `https://acme.example/l/${i}${')'.repeat(4000)}`,
    ).join(' ');
    const found = urls(text);
    expect(found).toHaveLength(50);
    expect(found[49]).toBe('https://acme.example/l/49');
  });
});

describe('deeply nested HTML', () => {
  test('reading stops at an element nested deeper than 10,000: the text before it counts, the rest is not read', () => {
    const html = `<p>Your code is 482913</p>${'<div>'.repeat(200_000)}<p>Other code 771100</p>`;
    const view = readHtml(html);
    expect(view.text).toContain('482913');
    expect(view.text).not.toContain('771100');
    expect(extractFromEmail({ html }).otp_code).toBe('482913');
  });

  test('a link before a 200,000-deep nesting is still chosen', () => {
    const html = `<p>Click to sign in: <a class="btn" href="https://acme.example/login/Zq81Lx02Mp77">Sign in</a></p>${'<span>'.repeat(200_000)}`;
    expect(extractFromEmail({ subject: 'Sign in to Acme', html }).magic_link).toBe(
      'https://acme.example/login/Zq81Lx02Mp77',
    );
  });

  test('HTML past 512 KiB is not read', () => {
    // Mostly markup, little visible text: the HTML cap, not the visible-text cap, is what stops it.
    const filler = `<div class="${'x'.repeat(200)}">.</div>`;
    const html = `${filler.repeat(Math.ceil((512 * 1024) / filler.length))}<p>Your code is 551177</p>`;
    expect(readHtml(html).text).not.toContain('551177');
    expect(readHtml(`<p>Your code is 551177</p>${html}`).text).toContain('551177');
  });
});

describe('table headers (the header text repeated before each data cell)', () => {
  test('long headers over many data cells stay within the text cap, each header cut to 80 characters', () => {
    const header = `<tr>${`<th>${'H'.repeat(500)}</th>`.repeat(40)}</tr>`;
    const rows = `<tr>${'<td>7</td>'.repeat(40)}</tr>`.repeat(2_000);
    const view = readHtml(`<table>${header}${rows}</table>`);
    expect(view.text.length).toBeLessThanOrEqual(200_000);
    expect(view.text).toContain(`${'H'.repeat(80)}: 7`);
    expect(view.text).not.toContain(`${'H'.repeat(81)}: 7`);
  });

  test('only the first 16 columns get their header', () => {
    const header = `<tr>${Array.from({ length: 20 }, (_, i) => `<th>c${i}</th>`).join('')}</tr>`;
    const row = `<tr>${Array.from({ length: 20 }, (_, i) => `<td>v${i}</td>`).join('')}</tr>`;
    const text = readHtml(`<table>${header}${row}</table>`).text;
    expect(text).toContain('c15: v15');
    expect(text).not.toContain('c16: v16');
  });
});
