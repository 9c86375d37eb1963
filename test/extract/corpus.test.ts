/**
 * The shared development corpus, one test per record: otp_code and magic_link must equal the
 * record's expectation exactly. No record or brand is special-cased anywhere in the extractor.
 */

import { describe, expect, test } from 'vitest';
import { extractRecord, loadSplit } from '../../bench/lib/corpus.ts';

// The shared development corpus, copied into the repository (corpus/shared/), so a clone anywhere
// has it; LATCHKEY_CORPUS names another file.
const records = loadSplit('dev');

describe('development corpus', () => {
  test('the corpus file is present and holds records', () => {
    expect(records.length).toBeGreaterThan(0);
  });

  test.each(records.map((r) => [`${r.id} (${r.lang}; ${r.tags.join(', ')})`, r] as const))(
    '%s yields exactly the expected code and link',
    (_name, record) => {
      const verdict = extractRecord(record);
      expect({ otp_code: verdict.otp_code, magic_link: verdict.magic_link }).toEqual(record.expect);
      expect(verdict.confidence).toBeGreaterThanOrEqual(0);
      expect(verdict.confidence).toBeLessThanOrEqual(1);
    },
  );
});
