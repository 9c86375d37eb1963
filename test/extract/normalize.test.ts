/**
 * Normalisation: every Unicode decimal digit becomes its ASCII digit, invisible marks go away,
 * case is kept, and folding never changes the length (offsets stay valid).
 */
import { describe, expect, test } from 'vitest';
import { foldText, normalizeText } from '../../src/extract/normalize.ts';

const DIGIT_SETS: Record<string, number> = {
  'full-width': 0xff10,
  'Arabic-Indic': 0x0660,
  'Eastern Arabic-Indic (Persian)': 0x06f0,
  Devanagari: 0x0966,
  Bengali: 0x09e6,
  Thai: 0x0e50,
  Tibetan: 0x0f20,
  Myanmar: 0x1040,
  'Mathematical bold': 0x1d7ce,
  Adlam: 0x1e950,
};

describe('digit normalisation', () => {
  test.each(Object.entries(DIGIT_SETS))('%s digits become 0-9', (_name, zero) => {
    const digits = Array.from({ length: 10 }, (_, k) => String.fromCodePoint(zero + k)).join('');
    expect(normalizeText(digits)).toBe('0123456789');
  });

  test('every Unicode decimal digit (general category Nd) becomes a single ASCII digit', () => {
    const nd = /^\p{Nd}$/u;
    let checked = 0;
    for (let cp = 0x80; cp <= 0x1ffff; cp += 1) {
      const ch = String.fromCodePoint(cp);
      if (!nd.test(ch)) continue;
      checked += 1;
      expect(normalizeText(ch)).toMatch(/^[0-9]$/);
    }
    expect(checked).toBeGreaterThan(500);
  });

  test('letter case and ASCII text are left untouched', () => {
    expect(normalizeText('Code K7p2QX ok')).toBe('Code K7p2QX ok');
  });

  test('bidi marks, zero-width characters and soft hyphens are removed', () => {
    expect(normalizeText('\u200f12\u200b34\u00ad56\u2066')).toBe('123456');
  });

  test('non-breaking and ideographic spaces become plain spaces and CRLF becomes LF', () => {
    expect(normalizeText('a\u00a0b\u3000c\r\nd\re')).toBe('a b c\nd\ne');
  });

  test('full-width punctuation and curly apostrophes become ASCII', () => {
    expect(normalizeText('コード：１２３４（don’t）')).toBe("コード:1234(don't)");
  });
});

describe('folding', () => {
  test('folding lower-cases and strips diacritics without changing the length', () => {
    const text = 'Código VÉRIFICATION Bestätigungscode Şifre İSTANBUL ŁÓDŹ Ελληνικά Ёжик';
    const folded = foldText(text);
    expect(folded.length).toBe(text.length);
    expect(folded).toBe('codigo verification bestatigungscode sifre istanbul lodz ελληνικα ежик');
  });

  test('folding keeps CJK, Hangul and emoji as they are', () => {
    const text = '验证码 인증번호 認証コード 🔑 x';
    expect(foldText(text)).toBe(text);
  });
});
