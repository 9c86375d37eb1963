/**
 * What the blind look at held-out set 14 taught, each as a general rule shown on freshly written
 * messages (none of them is a held-out record): codes shown in person, dotted and hyphenated
 * splits, "confirmation #", a phone word inside the code's own clause, Spanish and Hindi sign-in
 * words.
 */
import { describe, expect, test } from 'vitest';
import { extractFromEmail, extractFromSms } from '../../src/extract/index.ts';

const sms = (text: string) => extractFromSms({ from: 'BRAND', text });

describe('a code shown in person is not a sign-in code', () => {
  test.each([
    'Tacoland: 2 tacos for $5 this weekend 🌮 Show code TACO2X5 at the counter.',
    'Librería Sol: tu pedido está listo. Presenta el código 4471 en el mostrador.',
    'Apotheke am Markt: Ihre Bestellung liegt bereit. Bitte Code 5521 bei Abholung vorzeigen.',
    'Cinéma Lumière : présentez le code 88213 au comptoir pour retirer vos places.',
  ])('%s', (text) => {
    expect(sms(text).otp_code).toBeNull();
  });

  test('a payment code to type at checkout is still a code', () => {
    expect(sms('Enter code 551902 at checkout to confirm your payment of $42.10.').otp_code).toBe(
      '551902',
    );
  });
});

describe('codes split by a dot or by hyphens into a date-like shape', () => {
  test('a dotted five-digit code named by its label is the code', () => {
    expect(sms('Portal Único: para entrar no app, use o código 71.204.').otp_code).toBe('71204');
  });

  test('a dotted number with no label is a number, not a code', () => {
    expect(sms('Seu saldo é de 71.204 pontos.').otp_code).toBeNull();
  });

  test('a hyphen-split code right after its label is the code', () => {
    const text =
      'Hi Sam,\n\nYou asked to change your email.\n\nCode: 21-08-37\n\nIt expires in 10 minutes.';
    expect(extractFromEmail({ subject: 'Confirm your new email', text }).otp_code).toBe('210837');
  });

  test('a date-like number without a label gives no code', () => {
    expect(sms('Your appointment is on 21-08-27 at 10:30. Reply C to cancel.').otp_code).toBeNull();
  });
});

describe('labels of other numbers', () => {
  test('"confirmation #" labels a booking, and the login code next to it wins', () => {
    const v = sms(
      'Jetway: Use code 660127 to log in. Your confirmation # for Jan 4 is Q8ZK2M. Code valid 5 min.',
    );
    expect(v.otp_code).toBe('660127');
  });

  test("a phone word inside the code's own clause does not label the code", () => {
    const v = sms('رمز التحقق لتسجيل رقم الهاتف هو: 551 204. لا تشاركه مع أحد.');
    expect(v.otp_code).toBe('551204');
  });
});

describe('sign-in words', () => {
  test('Spanish imperative "valida" points the link at verifying', () => {
    expect(sms('Tiendix: Valida tu correo aquí: https://tx.example/v/Pq72Zk.').magic_link).toBe(
      'https://tx.example/v/Pq72Zk',
    );
  });

  test('Hindi "साइन इन" signs in', () => {
    expect(sms('यात्रा ऐप: साइन इन करें — https://ya.example/s/Wq82Lm').magic_link).toBe(
      'https://ya.example/s/Wq82Lm',
    );
  });
});
