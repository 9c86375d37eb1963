/**
 * Email layouts that are not in the corpus: codes in big styled boxes, one digit per table cell,
 * hyphenated letter codes, receipts with a code, footers full of numbers.
 */
import { describe, expect, test } from 'vitest';
import { extractFromEmail } from '../../src/extract/index.ts';

const FOOTER = `<p style="font-size:11px;color:#888">Acme Inc. · 1600 Harbor Blvd, Suite 300, Oakland, CA 94607 ·
  © 2025 Acme · Questions? Call 1-800-555-0142 ·
  <a href="https://acme.example/privacy">Privacy</a> · <a href="https://acme.example/unsubscribe?u=Zq81Lx02">Unsubscribe</a></p>`;

describe('email layouts', () => {
  test('a hyphenated letters-and-digits code in a styled box is joined', () => {
    const html = `<h1>Confirm your email address</h1>
      <p>Your confirmation code is below — enter it in your open browser window and we'll help you get signed in.</p>
      <div style="font-size:30px;background:#f5f4f5;padding:24px">KXB-92R</div>${FOOTER}`;
    expect(extractFromEmail({ subject: 'Confirmation code: KXB-92R', html }).otp_code).toBe(
      'KXB92R',
    );
  });

  test('a code shown one digit per table cell is read whole', () => {
    const html = `<table><tr><td>Enter this verification code:</td></tr>
      <tr><td><table><tr><td>4</td><td>8</td><td>2</td><td>9</td><td>1</td><td>3</td></tr></table></td></tr></table>${FOOTER}`;
    expect(extractFromEmail({ subject: 'Your verification code', html }).otp_code).toBe('482913');
  });

  test('a code inside a sentence in bold is found and footer numbers are ignored', () => {
    const html = `<p>Hi Sam,</p><p>Your Acme verification code is <strong>330 921</strong>. It expires in 10 minutes.</p>${FOOTER}`;
    const v = extractFromEmail({ subject: 'Acme verification', html });
    expect(v.otp_code).toBe('330921');
    expect(v.magic_link).toBeNull();
  });

  test('a footer full of numbers alone yields no code', () => {
    const html = `<p>Thanks for shopping with Acme. Your receipt is attached.</p>${FOOTER}`;
    expect(extractFromEmail({ subject: 'Your receipt', html }).otp_code).toBeNull();
  });

  test('a purchase-approval email with an order number, total and phone yields only the code', () => {
    const text =
      'Order #88123401\nTotal: €54.90\n\nTo confirm this purchase, enter the code 7310 44 on the checkout page.\n\nQuestions? +49 30 1234567';
    expect(extractFromEmail({ subject: 'Confirm your purchase', text }).otp_code).toBe('731044');
  });

  test('the code in the subject agrees with the body and wins over a reference number', () => {
    const v = extractFromEmail({
      subject: '551209 is your Acme code',
      text: 'Case 66120: we received your request.\n\nUse the code in the subject line to continue.',
    });
    expect(v.otp_code).toBe('551209');
  });

  test('a verify-email button whose URL carries a numeric code parameter is the magic link', () => {
    const html = `<p>Thanks for joining Acme! Please verify your email address.</p>
      <a style="background-color:#0a66c2;padding:12px 20px;color:#fff" href="https://acme.example/verify?email=jo%40example.com&amp;code=884213">Verify email</a>`;
    const v = extractFromEmail({ subject: 'Verify your email', html });
    expect(v.magic_link).toBe('https://acme.example/verify?email=jo%40example.com&code=884213');
    expect(v.otp_code).toBeNull();
  });

  test('an HTML-only statement email with a log-in button yields neither code nor link', () => {
    const html = `<p>Your statement for account ending 5523 is ready. Closing balance $3,118.40 on 04/30/2025.</p>
      <a class="btn" href="https://acme.example/statements">View statement</a>${FOOTER}`;
    const v = extractFromEmail({ subject: 'Your statement', html });
    expect(v).toMatchObject({ otp_code: null, magic_link: null });
  });

  test('a Japanese email with a full-width code and a Korean email with a bracketed code are read', () => {
    expect(
      extractFromEmail({
        subject: '【アクメ】認証コード',
        text: 'ログイン認証コード：\n\n　９８７　６５４\n\n有効期限：１０分',
      }).otp_code,
    ).toBe('987654');
    expect(
      extractFromEmail({
        subject: '[에이크미] 인증',
        html: '<p>인증번호 [<b>551209</b>]를 입력해 주세요. 유효시간 3분</p>',
      }).otp_code,
    ).toBe('551209');
  });

  test('a code set apart under a long paragraph that announces it is found', () => {
    const text =
      'Here is your verification code. Please enter it in the app within 10 minutes, and do not share it with anyone, including Acme staff, who will never ask for it:\n\n552019\n\nThanks,\nThe Acme team';
    expect(extractFromEmail({ subject: 'Your Acme verification code', text }).otp_code).toBe(
      '552019',
    );
    const html = `<h2>Verify your sign-in</h2><p>We noticed a sign-in attempt from a new browser. To keep your account secure, we need to make sure it is really you. If you recognise this activity, enter the following code on the sign-in page. If you did not try to sign in, change your password right away.</p>
      <table><tr><td style="font-size:32px;letter-spacing:8px">881 204</td></tr></table><p>Acme, 77 Pine St, Seattle, WA 98101</p>`;
    expect(extractFromEmail({ subject: 'Acme sign-in', html }).otp_code).toBe('881204');
  });

  test('a receipt with a receipt number, amount, date and card ending yields nothing', () => {
    const text =
      'Receipt #2291-0034\nAmount paid $15.00\nDate paid May 2, 2025\nPayment method Visa - 4242\n\nQuestions? Visit https://acme.example/help.';
    expect(extractFromEmail({ subject: 'Your receipt from Acme #2291-0034', text })).toMatchObject({
      otp_code: null,
      magic_link: null,
    });
  });

  test('an account ID next to a verify-email button is not a code', () => {
    const html = `<p>Welcome aboard! Your account ID is 55120934.</p><p>Verify your email to get started:</p>
      <a class="btn" href="https://acme.example/v/Zq81Lx02Mp77">Verify email</a>`;
    expect(extractFromEmail({ subject: 'Welcome to Acme', html })).toMatchObject({
      otp_code: null,
      magic_link: 'https://acme.example/v/Zq81Lx02Mp77',
    });
  });
});

describe('table headers name the column below them (taught after heldout11)', () => {
  test('a code under a "code" header, beside an expiry column, is the code', () => {
    const html =
      '<table><tr><th>Código de verificação</th><th>Expira em</th></tr>' +
      '<tr><td><b>330 718</b></td><td>10 minutos</td></tr></table><p>Agência 2210 · Conta 4410-7</p>';
    expect(extractFromEmail({ subject: 'Código', html }).otp_code).toBe('330718');
  });

  test('a number under an "order" header is no code', () => {
    const html =
      '<table><tr><th>Order</th><th>Total</th></tr><tr><td>660214</td><td>$18.00</td></tr></table>';
    expect(extractFromEmail({ subject: 'Your receipt', html }).otp_code).toBeNull();
  });

  test('tables nested past the tracked depth still read their text', () => {
    const html = `${'<table><tr><td>'.repeat(80)}Your verification code: 418 220${'</td></tr></table>'.repeat(80)}`;
    expect(extractFromEmail({ subject: 'Code', html }).otp_code).toBe('418220');
  });
});

describe('URLs glued to CJK text (taught after heldout11)', () => {
  test('a full-width parenthesis after the URL starts the next clause', () => {
    const v = extractFromEmail({
      subject: 'ログイン',
      text: 'ログインはこちら https://acme.example/l/Tz58Qw（15分間有効）',
    });
    expect(v.magic_link).toBe('https://acme.example/l/Tz58Qw');
  });
});
