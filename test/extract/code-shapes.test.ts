/**
 * Code shapes the rules did not propose until training sets 24–27 showed them (issue 18), each on
 * freshly written messages (none is a corpus record): digits shown one by one with a spaced dash
 * between the halves, a letters-and-digits code split by hyphens whose last group is one
 * character, and one split by a space into two groups. And what those shapes must not take:
 * postcodes, plates, IBAN groups, a score.
 */
import { describe, expect, test } from 'vitest';
import { extractFromEmail, extractFromSms } from '../../src/extract/index.ts';

const sms = (text: string) => extractFromSms({ from: 'BRAND', text });

describe('codes the rules now propose', () => {
  test.each([
    ['Kestrel Bank: your sign-in code is 5 1 8 - 2 0 7. Never share it.', '518207'],
    ['Código de verificación: 3 3 0 – 9 1 4 (válido 5 min).', '330914'],
    ['Your Lumen login code: Q7R-4TZ-9. It expires in 15 minutes.', 'Q7R4TZ9'],
    ['Dein Anmeldecode für Wolke: 8MK 2TQ', '8MK2TQ'],
    ['Tollway: enter Q4T8 Z2K9 to verify your phone number.', 'Q4T8Z2K9'],
  ])('%s', (text, code) => {
    expect(sms(text).otp_code).toBe(code);
  });

  test('in an email, on a line of its own under the request', () => {
    const v = extractFromEmail({
      from: 'Stadtwerke Beispiel <portal@stadtwerke.example>',
      subject: 'Ihre neue E-Mail-Adresse',
      text: 'Guten Tag,\n\nbitte geben Sie zur Bestätigung diesen Code ein:\n\nR2D-8KQ-4\n\nEr gilt 30 Minuten.',
    });
    expect(v.otp_code).toBe('R2D8KQ4');
  });
});

describe('what those shapes must not take', () => {
  test.each([
    'Your parcel goes to SW1A 1AA on Friday. Track it in the app.',
    'Canada Post: deliver to K1A 0B1, Ottawa. Signature required.',
    'Transfer received from DE89 3704 0044 0532 0130 00. Balance updated.',
    'Parking paid for AB12 CDE until 18:00.',
    'Final score 3 - 2. Next match Saturday 4 pm.',
  ])('%s', (text) => {
    expect(sms(text).otp_code).toBeNull();
  });
});
