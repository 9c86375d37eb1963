/**
 * The public contract: verdict shape, ranked alternatives with reasons, confidence, and the rule
 * that the module never logs (no message body, code or link may leave it except in the result).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { extractFromEmail, extractFromSms } from '../../src/extract/index.ts';

const SRC = join(import.meta.dirname, '../../src/extract');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('verdict shape', () => {
  test('a code message yields the code, no link, and the code ranked first among alternatives', () => {
    const v = extractFromSms({
      from: '12345',
      text: 'Acme: 551902 is your verification code. Order 88120.',
    });
    expect(v.otp_code).toBe('551902');
    expect(v.magic_link).toBeNull();
    expect(v.webauthn_required).toBe(false);
    const codes = v.alternatives.filter((a) => a.kind === 'otp_code');
    expect(codes[0]).toMatchObject({ value: '551902', chosen: true });
    expect(codes.filter((a) => a.chosen)).toHaveLength(1);
    expect(codes.some((a) => a.value === '88120' && !a.chosen)).toBe(true);
    for (const a of v.alternatives) {
      expect(a.reasons.length).toBeGreaterThan(0);
      for (const r of a.reasons) expect(r).toMatch(/^[+-]\d+\.\d\d /);
    }
  });

  test('alternatives list codes first, then links, each best first', () => {
    const v = extractFromEmail({
      subject: 'Sign in',
      text: 'Your code is 4412 (order 77120).\nOr sign in here: https://acme.example/login?token=Zq81Lx02Mp77\nHelp: https://acme.example/help',
    });
    const kinds = v.alternatives.map((a) => a.kind);
    expect(kinds).toEqual([...kinds].sort((a, b) => (a === b ? 0 : a === 'otp_code' ? -1 : 1)));
    for (const kind of ['otp_code', 'magic_link'] as const) {
      const scores = v.alternatives.filter((a) => a.kind === kind).map((a) => a.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
    }
    expect(v.otp_code).toBe('4412');
    expect(v.magic_link).toBe('https://acme.example/login?token=Zq81Lx02Mp77');
  });

  test('the reasons explain why a distractor lost', () => {
    const v = extractFromSms({ text: 'Acme: card ending 4821 - your code is 119027' });
    const loser = v.alternatives.find((a) => a.value === '4821');
    expect(loser?.chosen).toBe(false);
    expect(loser?.reasons.join(' ')).toMatch(/reference|account/);
  });

  test('a clear message is more confident than an ambiguous one', () => {
    const clear = extractFromSms({ text: 'Acme: your verification code is 551902.' });
    const ambiguous = extractFromSms({ text: 'Acme: 551902 or 660213' });
    expect(clear.confidence).toBeGreaterThan(0.8);
    expect(ambiguous.confidence).toBeLessThan(clear.confidence);
  });

  test('missing or non-string fields give an empty verdict instead of an error', () => {
    for (const v of [
      extractFromEmail({}),
      extractFromEmail(null as never),
      extractFromSms(undefined as never),
      extractFromSms({ text: 42 as never }),
    ]) {
      expect(v).toMatchObject({ otp_code: null, magic_link: null, webauthn_required: false });
    }
  });
});

describe('no logging', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  test('extraction writes nothing to the console, stdout or stderr', () => {
    const spies = [
      ...(['log', 'info', 'warn', 'error', 'debug', 'trace'] as const).map((m) =>
        vi.spyOn(console, m),
      ),
      vi.spyOn(process.stdout, 'write'),
      vi.spyOn(process.stderr, 'write'),
    ];
    extractFromSms({ text: 'Acme: your code is 551902 https://acme.example/l/Zq81Lx02' });
    extractFromEmail({
      subject: 'x',
      text: 'code 1234',
      html: '<a href="https://acme.example/login?token=Zq81Lx02">Sign in</a><div',
    });
    extractFromEmail({ html: '<'.repeat(1000) });
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
  });

  test('the module source has no logging calls or logger imports', () => {
    for (const file of sourceFiles(SRC)) {
      const source = readFileSync(file, 'utf8');
      expect(source, file).not.toMatch(
        /\bconsole\.|process\.(stdout|stderr)|from ['"](pino|debug|winston)['"]/,
      );
    }
  });
});
