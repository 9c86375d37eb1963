/**
 * What the blind look at held-out set 15 taught, each as a general rule shown on freshly written
 * messages (none of them is a held-out record): codes handed to a person or opening a locker,
 * number-transfer PINs, delivery-confirmation and pickup codes, and a zone number beside the code.
 */
import { describe, expect, test } from 'vitest';
import { extractFromSms } from '../../src/extract/index.ts';

const sms = (text: string) => extractFromSms({ from: 'BRAND', text });

describe('codes handed to a person or opening a locker are not sign-in codes', () => {
  test.each([
    'Zoomy: your trip PIN is 3390. Tell it to the driver before you get in.',
    'Colipost : votre colis arrive aujourd’hui. Donnez le code 7712 au livreur.',
    'Reparto Ya: entrega hoy 12-14 h. Dale el código 5530 al repartidor.',
    'BoxPoint: your parcel is in locker 14. Open with PIN 220931 before Friday.',
    'Kurýr Expres: Kód pro vyzvednutí zásilky: 8841. Platnost 3 dny.',
    'HızlıKargo: Teslimat kodu 6630, kuryeye söyleyiniz.',
  ])('%s', (text) => {
    expect(sms(text).otp_code).toBeNull();
  });

  test('a sign-in code in a ride app is still a code', () => {
    expect(sms('Zoomy: 4471 is your login code. Do not share it.').otp_code).toBe('4471');
  });
});

describe('number-transfer PINs', () => {
  test('a carrier transfer PIN is not a sign-in code', () => {
    expect(
      sms('Bluewave Mobile: your number transfer PIN is 8812 4409, valid 5 days.').otp_code,
    ).toBeNull();
  });
});

describe('a zone number beside the code', () => {
  test('the number the message asks to enter wins over a zone number said twice', () => {
    const v = sms(
      'CityPark: to verify your phone for zone 3310 alerts, enter 7725 in the app. Zone 3310 closes at 8 PM.',
    );
    expect(v.otp_code).toBe('7725');
  });
});
