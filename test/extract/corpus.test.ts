/**
 * The shared development corpus, one test per record: otp_code and magic_link must equal the
 * record's expectation exactly. No record or brand is special-cased anywhere in the extractor.
 */

import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { extractFromEmail, extractFromSms } from '../../src/extract/index.ts';

interface CorpusRecord {
  id: string;
  channel: 'sms' | 'email';
  from: string;
  subject?: string;
  text?: string;
  html?: string;
  lang: string;
  expect: { otp_code: string | null; magic_link: string | null };
  tags: string[];
}

// The corpus lives in shared/, beside the checkout (as on every developer's machine and in CI).
const CORPUS =
  process.env.LATCHKEY_CORPUS ??
  fileURLToPath(new URL('../../../shared/corpus/otp-dev.jsonl', import.meta.url));
const records: CorpusRecord[] = existsSync(CORPUS)
  ? readFileSync(CORPUS, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as CorpusRecord)
  : [];

describe('development corpus', () => {
  test('the corpus file is present and holds records', () => {
    expect(records.length).toBeGreaterThan(0);
  });

  test.each(records.map((r) => [`${r.id} (${r.lang}; ${r.tags.join(', ')})`, r] as const))(
    '%s yields exactly the expected code and link',
    (_name, record) => {
      const verdict =
        record.channel === 'sms'
          ? extractFromSms({ from: record.from, text: record.text ?? '' })
          : extractFromEmail({
              from: record.from,
              subject: record.subject,
              text: record.text,
              html: record.html,
            });
      expect({ otp_code: verdict.otp_code, magic_link: verdict.magic_link }).toEqual(record.expect);
      expect(verdict.confidence).toBeGreaterThanOrEqual(0);
      expect(verdict.confidence).toBeLessThanOrEqual(1);
    },
  );
});
