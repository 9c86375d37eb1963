/**
 * What the blind look at held-out set 13 taught, each as a general rule shown on freshly written
 * messages (none of them is a held-out record): codes split into 2–3-digit table cells, login-page
 * links without a token, Turkish suffixes, an emoji ending a sentence, year words, gift-card PINs.
 */
import { describe, expect, test } from 'vitest';
import { extractFromEmail, extractFromSms } from '../../src/extract/index.ts';

const td = (v: string) =>
  `<td style="border:1px solid #ccc;padding:8px 14px;font:700 22px monospace">${v}</td>`;
const FOOTER =
  '<p style="font-size:11px"><a href="https://orvo.example/unsub?u=Zk81Lq02">Unsubscribe</a> · <a href="https://orvo.example/privacy">Privacy</a></p>';

describe('a code split over table cells of two or three digits', () => {
  test.each([
    ['Codice monouso', '<p>Per accedere inserisci il codice:</p>', ['60', '33', '81'], '603381'],
    ['Your sign-in code', '<p>Enter this code to sign in:</p>', ['482', '913'], '482913'],
    ['Ihr Code', '<p>Ihr Bestätigungscode lautet:</p>', ['71', '04', '26', '93'], '71042693'],
  ])('%s', (subject, intro, cells, code) => {
    const html = `${intro}<table><tr>${cells.map(td).join('')}</tr></table><p>Valid 10 minutes.</p>${FOOTER}`;
    expect(extractFromEmail({ subject, html }).otp_code).toBe(code);
  });

  test('numbers in neighbouring cells with no code label are not joined into a code', () => {
    const html = `<p>Your week in numbers</p><table><tr>${['12', '34', '56'].map(td).join('')}</tr></table><p>Log in to see more.</p>${FOOTER}`;
    expect(extractFromEmail({ subject: 'Weekly digest', html }).otp_code).toBeNull();
  });
});

describe('a link without a one-time token', () => {
  test('a login page is not a sign-in link however it is worded', () => {
    const html = `<p>Your order has shipped.</p><p>To see your order history, sign in to your account.</p>
      <p><a class="btn" href="https://shop.example/account/sign-in">Sign in</a></p>${FOOTER}`;
    const v = extractFromEmail({ subject: 'Shipped', html });
    expect(v.magic_link).toBeNull();
    expect(v.confidence).toBeGreaterThan(0.9);
  });
});

describe('words that the keyword tables hold as stems', () => {
  test('Turkish suffixed verbs sign in and point at the link', () => {
    const v = extractFromSms({
      text: 'Kuzey: Hesabını doğrulamak için bağlantıya dokunun: https://kz.example/h/Tq82Lm. 15 dk geçerli.',
    });
    expect(v.magic_link).toBe('https://kz.example/h/Tq82Lm');
  });
});

describe('an emoji followed by a capitalised word ends a sentence', () => {
  test('marketing before the emoji does not reach the code label after it', () => {
    const v = extractFromSms({
      text: 'Pixo: 20% off your next top-up, bonus coins added 🎉 Your login code: 4471 (valid 5 min).',
    });
    expect(v.otp_code).toBe('4471');
  });

  test('a promo code before an emoji stays a promo code', () => {
    expect(
      extractFromSms({ text: 'Pixo: use code SAVE20 🎉 for 20% off today' }).otp_code,
    ).toBeNull();
  });
});

describe('year words', () => {
  test.each([
    'Finanzamt-Portal: Ihr Zugangscode für das Geschäftsjahr 2024 wurde per Post versandt.',
    'TaxDesk: your documents for tax year 2025 are ready. Enter them in the app before April.',
    'Portail : votre code pour l’année 2026 vous sera envoyé par courrier.',
  ])('%s gives no code', (text) => {
    expect(extractFromSms({ text }).otp_code).toBeNull();
  });
});

describe('gift cards and vouchers', () => {
  test('the PIN of a gift card is not a sign-in code, even when the mail says to log in', () => {
    const text =
      'Bonjour,\n\nVoici votre carte cadeau de 50 € : 6034 5521 8890 1123\nPIN : 4471\n\nConnectez-vous à votre compte pour consulter votre solde.';
    expect(extractFromEmail({ subject: 'Votre carte cadeau', text }).otp_code).toBeNull();
  });

  test('a voucher number beside a real verification code does not hide it', () => {
    const v = extractFromSms({
      text: 'Orvo: Gutschein GS-4481-2290 eingelöst. Ihr Bestätigungscode: 551204',
    });
    expect(v.otp_code).toBe('551204');
  });
});
