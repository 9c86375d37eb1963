/**
 * What the blind look at held-out set 16 taught, each as a general rule shown on freshly written
 * messages (none of them is a held-out record): spent or expired codes, gate and door codes,
 * pickup codes (nl, uk), codes told to the postman (hi), points redeemed for a voucher (es), and
 * a code label that touches the number after it.
 */
import { describe, expect, test } from 'vitest';
import { extractFromSms } from '../../src/extract/index.ts';

const sms = (text: string) => extractFromSms({ from: 'BRAND', text });

describe('codes that are not for signing in', () => {
  test.each([
    'Pinebank: the one-time code 5820 has expired. Ask for a new one in the app.',
    'Sunny Self Storage: door code for locker room B is 7719#. Open 7-21 daily.',
    'Bezorgd: je pakket ligt bij het ophaalpunt. Ophalen met code 6620 tot vrijdag.',
    'Нова Доставка: посилка у відділенні №5. Код отримання 3318.',
    'भारत डाक: आपका पार्सल आज आएगा। डाकिये को OTP 7720 बताएं।',
    'Cafetería Sol: canjea tus 500 puntos por un café con el código SOL5CAFE.',
  ])('%s', (text) => {
    expect(sms(text).otp_code).toBeNull();
  });

  test('a code that expires later is still the code', () => {
    expect(sms('Pinebank: your sign-in code is 5820. It expires in 10 minutes.').otp_code).toBe(
      '5820',
    );
  });
});

describe('a code label touching the number after it', () => {
  test('labels that number, not an identifier before it', () => {
    const v = sms(
      'Vaultly: approve the new device (name "desk-2", id QK72ZX8P) with code 4410 27.',
    );
    expect(v.otp_code).toBe('441027');
  });
});
