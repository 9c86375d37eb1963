/**
 * The shared development corpus, one test per record: otp_code and magic_link must equal the
 * record's expectation exactly. No record or brand is special-cased anywhere in the extractor.
 */

import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { SPLITS } from '../../bench/lib/corpus.ts';
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

// The shared development corpus, copied into the repository (corpus/shared/), so a clone anywhere
// has it; LATCHKEY_CORPUS names another file.
const CORPUS = SPLITS.dev;
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
