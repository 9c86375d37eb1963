/**
 * Property tests (fast-check): no code is invented from text without a code-like token, the
 * extractor never throws whatever it is fed, the work it does is bounded by what it reads (input
 * past the caps is never looked at; at most eight alternatives of each kind come back), and
 * whatever it returns has the documented shape. Time is not asserted here (a loaded machine makes
 * any bound flaky): bench/suites/extract.ts reports the slowest crafted message beside the rates.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  type EmailMessage,
  type Extraction,
  extractFromEmail,
  extractFromSms,
  type SmsMessage,
} from '../../src/extract/index.ts';

/** The SMS cap (src/extract/index.ts): real SMS top out near 1,600 characters. */
const MAX_SMS = 10_000;
/** Alternatives of each kind a verdict carries at most (src/extract/verdict.ts). */
const MAX_ALTERNATIVES = 8;

function wellFormed(v: Extraction): void {
  if (v.otp_code !== null) {
    expect(v.otp_code).toMatch(/^(\d{4,8}|(?=.*\d)(?=.*[A-Za-z])[A-Za-z0-9]{6,8})$/);
  }
  if (v.magic_link !== null) {
    const url = new URL(v.magic_link);
    expect(['http:', 'https:']).toContain(url.protocol);
  }
  expect(v.confidence).toBeGreaterThanOrEqual(0);
  expect(v.confidence).toBeLessThanOrEqual(1);
  for (const a of v.alternatives) {
    expect(a.score).toBeGreaterThanOrEqual(0);
    expect(a.score).toBeLessThanOrEqual(1);
  }
}

const sms = (text: unknown) => extractFromSms({ from: 'ACME', text } as SmsMessage);
const email = (m: Record<string, unknown>) => extractFromEmail(m as EmailMessage);

/** Words that make a message look like a code message, in several scripts. */
const LURES = [
  'code',
  'OTP',
  'passcode',
  'verification code',
  'enter',
  'sign in',
  'código',
  'Bestätigungscode',
  '验证码',
  '認証コード',
  '인증번호',
  'رمز التحقق',
  'कोड',
  'код',
  'kod',
  'mã OTP',
  'is',
  ':',
  '-',
  '.',
  '\n',
  '<#>',
  '@acme.example #',
  'G-',
  'PIN',
  '$',
  '%',
  'minutes',
  'XX',
  '****',
];
const NO_DIGIT_CHARS = [
  ...'abcdefghijKLMNOPQRSTuvwxyzÀéñßçŁøαβγδжзийкл汉字验证码認証コード인증번호رمزकोडกขค .,:;-#@()[]<>/\\\'"!?\n\t',
];

const noDigitText = fc
  .array(
    fc.oneof(
      fc.constantFrom(...LURES),
      fc.string({ unit: fc.constantFrom(...NO_DIGIT_CHARS), maxLength: 12 }),
    ),
    {
      maxLength: 60,
    },
  )
  .map((parts) => parts.join(' '));

/** Numbers of at most 3 digits, always separated by a letter: never a code. */
const shortNumbersText = fc
  .array(
    fc.tuple(
      fc.constantFrom(...LURES),
      fc.integer({ min: 0, max: 999 }),
      fc.constantFrom('a', 'x', 'é', 'ж'),
    ),
    {
      maxLength: 30,
    },
  )
  .map((parts) => parts.map(([w, n, l]) => `${w} ${l}${n}${l}`).join(' '));

describe('no code is invented', () => {
  test('text written without any digit never yields a code (SMS)', () => {
    fc.assert(
      fc.property(noDigitText, (text) => {
        expect(sms(text).otp_code).toBeNull();
      }),
      { numRuns: 400 },
    );
  });

  test('text and HTML without any digit never yield a code (email)', () => {
    fc.assert(
      fc.property(noDigitText, noDigitText, noDigitText, (subject, text, body) => {
        const v = email({
          subject,
          text,
          html: `<p>${body}</p><a href="https://acme.example/x">${subject}</a>`,
        });
        expect(v.otp_code).toBeNull();
      }),
      { numRuns: 200 },
    );
  });

  test('any Unicode text with every numeric character removed never yields a code', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 400 }), (raw) => {
        const text = raw.replace(/\p{N}/gu, '');
        expect(sms(text).otp_code).toBeNull();
        expect(email({ text, html: text }).otp_code).toBeNull();
      }),
      { numRuns: 300 },
    );
  });

  test('numbers of at most three digits, kept apart by letters, never yield a code', () => {
    fc.assert(
      fc.property(shortNumbersText, (text) => {
        expect(sms(text).otp_code).toBeNull();
      }),
      { numRuns: 300 },
    );
  });
});

describe('robustness', () => {
  test('arbitrary values in every field never make extraction throw', () => {
    fc.assert(
      fc.property(
        fc.anything(),
        fc.anything(),
        fc.anything(),
        fc.anything(),
        (from, subject, text, html) => {
          wellFormed(sms(text));
          wellFormed(email({ from, subject, text, html }));
          wellFormed(extractFromSms(from as SmsMessage));
          wellFormed(extractFromEmail(subject as EmailMessage));
        },
      ),
      { numRuns: 200 },
    );
  });

  test('binary-looking strings never make extraction throw', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 4000 }), (s) => {
        wellFormed(sms(s));
        wellFormed(email({ subject: s.slice(0, 100), text: s, html: s }));
      }),
      { numRuns: 200 },
    );
  });

  const tagSoup = fc
    .array(
      fc.oneof(
        fc.constantFrom(
          '<div',
          '<a href="',
          'https://acme.example/login?token=Ab12Cd34Ef',
          '">',
          '>',
          '</a>',
          '<table>',
          '<td',
          'style="background:#000;padding:9px"',
          '&amp;',
          '&#x',
          '&#',
          ';',
          '<!--',
          '-->',
          '<script>',
          '</script>',
          '<style>',
          '<img src=x>',
          '</div>',
          '<br/>',
          '<p>',
          'code',
          '123456',
          ' ',
          '"',
          "'",
          '<',
          '=',
          '<![CDATA[',
        ),
        fc.string({ maxLength: 8 }),
      ),
      { maxLength: 300 },
    )
    .map((parts) => parts.join(''));

  test('malformed HTML never makes extraction throw', () => {
    fc.assert(
      fc.property(tagSoup, (html) => {
        wellFormed(email({ html }));
      }),
      { numRuns: 300 },
    );
  });

  test('10,000 nested elements are read without throwing and within the bound', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('div', 'span', 'table', 'a href="https://a.example/l/Ab12Cd34"', 'td'),
        fc.string({ maxLength: 40 }),
        (tag, inner) => {
          const name = tag.split(' ')[0]!;
          const html =
            `<${tag}>`.repeat(10_000) +
            `Your code is 482913 ${inner}` +
            `</${name}>`.repeat(10_000);
          const v = email({ html });
          wellFormed(v);
        },
      ),
      { numRuns: 5 },
    );
    expect(email({ html: `${'<div>'.repeat(10_000)}Your code is 482913` }).otp_code).toBe('482913');
  });

  test('huge inputs are handled within the bound', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          noDigitText,
          shortNumbersText,
          fc.string({ unit: 'binary', maxLength: 50 }),
          fc.constantFrom(
            'code 123456 ',
            '1 ',
            '1234 ',
            '<http://a.b/',
            'a@',
            '验证码１２３４５６，',
          ),
        ),
        (seed) => {
          const chunk = seed === '' ? 'x' : seed;
          const huge = chunk.repeat(Math.ceil(60_000 / chunk.length)).slice(0, 60_000);
          wellFormed(sms(huge));
          wellFormed(email({ subject: huge, text: huge, html: `<p>${huge}</p>` }));
        },
      ),
      { numRuns: 25 },
    );
  });

  test('the same input always gives the same verdict', () => {
    fc.assert(
      fc.property(
        fc.oneof(noDigitText, shortNumbersText, fc.string()),
        fc.integer({ min: 0, max: 99_999_999 }),
        (text, n) => {
          const message = `${text} ${String(n).padStart(6, '0')}`;
          expect(extractFromSms({ text: message })).toEqual(extractFromSms({ text: message }));
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('bounded work', () => {
  /** Text that looks like a sign-in message, so the cap has something to cut. */
  const codeish = fc
    .array(fc.oneof(fc.constantFrom(...LURES, ' ', '\n', ': '), fc.stringMatching(/^\d{4,8}$/)), {
      minLength: 1,
      maxLength: 40,
    })
    .map((parts) => parts.join(' '));

  test('nothing past the SMS cap is read: what follows 10,000 characters never changes the verdict', () => {
    fc.assert(
      fc.property(codeish, codeish, (head, tail) => {
        const prefix = head.repeat(Math.ceil(MAX_SMS / head.length)).slice(0, MAX_SMS);
        expect(sms(prefix + tail)).toEqual(sms(prefix));
      }),
      { numRuns: 40 },
    );
  });

  test('a message full of code-shaped numbers and links yields at most eight alternatives of each kind', () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^\d{4,8}$/), { minLength: 20, maxLength: 300 }),
        (numbers) => {
          const text = numbers
            .map((n, i) => `code ${n} https://acme.example/login?token=T${i}x${n}`)
            .join(' ');
          for (const v of [
            sms(text),
            email({ subject: 'Sign in', text, html: `<p>${text}</p>` }),
          ]) {
            wellFormed(v);
            for (const kind of ['otp_code', 'magic_link'] as const) {
              expect(v.alternatives.filter((a) => a.kind === kind).length).toBeLessThanOrEqual(
                MAX_ALTERNATIVES,
              );
            }
          }
        },
      ),
      { numRuns: 30 },
    );
  });
});
