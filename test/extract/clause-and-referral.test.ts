/**
 * Issue 18, fourth held-out round: the rules its blind misses taught, each on freshly written
 * messages (never the held-out records themselves).
 * - Referral and invite codes are marketing: no code, in any language.
 * - A copula touching the number binds it to the code label heading its clause, over the amounts,
 *   IBANs and account numbers that describe the subject in between.
 * - A reference word inside that clause ("the code to confirm your order is …") names the code's
 *   purpose; a reference word that touches its own number still labels that number.
 * - A URL glued to CJK text ends at the full-width punctuation that followed it.
 * - "No link" is not said confidently while a link vouched for by a sign-in word was turned down.
 */
import { describe, expect, test } from 'vitest';
import { extractFromEmail, extractFromSms } from '../../src/extract/index.ts';

describe('referral and invite codes are marketing', () => {
  test.each([
    [
      'en',
      'Loomly: Share the love! Your invite code LM82QX gets friends 20% off their first month.',
    ],
    [
      'de',
      'Radhaus: Freunde werben lohnt sich. Dein Empfehlungscode: RH7Q2K – 10 € für euch beide.',
    ],
    ['it', 'Invita un amico su Pedala e ricevete 5€ a testa. Codice invito: PD8K2Q'],
    ['ko', '[마켓오] 친구 초대하고 적립금 받으세요! 추천인 코드: MK7Q2P'],
    ['ru', 'Пригласите друга в Самокат+ и получите 300 ₽. Ваш реферальный код: SK8P2Q'],
    ['ar', 'ادع أصدقاءك إلى تطبيق ريح واحصل على 20 ريال. رمز الدعوة: RH82QK'],
  ])('%s: the referral code is not a sign-in code', (_lang, text) => {
    const v = extractFromSms({ text });
    expect(v.otp_code).toBeNull();
    expect(v.alternatives.find((a) => a.kind === 'otp_code')?.chosen ?? false).toBe(false);
  });

  test('a referral program mail that also asks to verify the address still gives the verify code', () => {
    const v = extractFromEmail({
      subject: 'Verify your email',
      text: 'Enter 590218 to verify your email address.\n\nLater, invite friends with your referral code QX7P2M.',
    });
    expect(v.otp_code).toBe('590218');
  });
});

describe('a copula binds the number to the label heading its clause', () => {
  test.each([
    [
      'de',
      'Die smsTAN für die Lastschrift über 1.120,00 EUR an DE91 5555 0300 1122 3344 55 lautet 604171.',
      '604171',
    ],
    [
      'en',
      'The security code for your payment of $845.10 to card ending 4471 is 915302.',
      '915302',
    ],
    [
      'es',
      'La clave para la transferencia de 2.300,00 € a la cuenta ES12 5555 0101 es 730418.',
      '730418',
    ],
    ['pt', 'O código para o Pix de R$ 1.250,00 para a conta 5555-01 é 448812.', '448812'],
  ])('%s: the value after the copula is the code', (_lang, text, code) => {
    const v = extractFromSms({ text });
    expect(v.otp_code).toBe(code);
    expect(v.alternatives[0]!.reasons.join(' ')).toMatch(/bound to it by/);
  });

  test('without a code label heading the clause, a copula binds nothing', () => {
    expect(
      extractFromSms({ text: 'Your order number is 55120934. It ships on Monday.' }).otp_code,
    ).toBeNull();
    expect(extractFromSms({ text: 'Ihre Kundennummer lautet 40017722.' }).otp_code).toBeNull();
  });
});

describe('a reference word inside the code clause names its purpose', () => {
  test.each([
    ['en', 'The code to approve your booking is 660193.', '660193'],
    ['fr', 'Le code pour valider votre commande est 218840.', '218840'],
    ['it', 'Il codice per confermare il tuo ordine è 507731.', '507731'],
  ])('%s: the code is given', (_lang, text, code) => {
    expect(extractFromSms({ text }).otp_code).toBe(code);
  });

  test('a reference word touching its own number still labels that number', () => {
    const v = extractFromSms({ text: 'Your verification code for order 77120045 is 193306.' });
    expect(v.otp_code).toBe('193306');
    const order = v.alternatives.find((a) => a.value === '77120045');
    expect(order?.chosen).toBe(false);
    expect(order?.reasons.join(' ')).toMatch(/reference/);
  });
});

describe('URLs glued to CJK text', () => {
  test.each([
    [
      '【青柠】点击链接登录：https://qn.example/l/Hp72Xq，15分钟内有效。',
      'https://qn.example/l/Hp72Xq',
    ],
    ['【青柠】验证邮箱：https://qn.example/v/Tz81Kp；30分钟后失效', 'https://qn.example/v/Tz81Kp'],
  ])('%s', (text, link) => {
    expect(extractFromSms({ text }).magic_link).toBe(link);
  });

  test('a comma inside a URL that ends at a space is kept', () => {
    const v = extractFromSms({
      text: 'Sign in: https://acme.example/magic?ids=7Hq2Lx9P,9Pz4Kw2T then continue.',
    });
    const links = v.alternatives.filter((a) => a.kind === 'magic_link').map((a) => a.value);
    expect(links).toEqual(['https://acme.example/magic?ids=7Hq2Lx9P,9Pz4Kw2T']);
  });
});

describe('confidence of "no link"', () => {
  // A link without a token opens a page; no expected link of any corpus lacks one, so a sign-in
  // word before it leaves no doubt to report (changed after held-out set 13, where a login-page
  // link was taken for the sign-in link).
  test('a login page a sign-in word vouches for is turned down, and surely', () => {
    const v = extractFromSms({ text: 'Tap to sign in to Orbit: https://orbit.example/home' });
    expect(v.magic_link).toBeNull();
    expect(v.confidence).toBeGreaterThan(0.9);
  });

  test('a tracking link with nothing vouching for it keeps "no link" confident', () => {
    const v = extractFromSms({
      text: 'Your parcel is on its way. Track it: https://parcel.example/t/8812',
    });
    expect(v.magic_link).toBeNull();
    expect(v.confidence).toBeGreaterThan(0.9);
  });
});

describe('confidence of a code whose purpose is never stated', () => {
  // The rules capped such a code at 0.85 (their blind calibration); the learned scorer's score is
  // its own probability, whose calibration is measured on sets it never saw
  // (bench/results/extract-calibration.md). What holds either way: the bare label is a code, and
  // naming its purpose makes the scorer no less sure of it.
  test('a bare "code" with no sign-in or verify word is given; naming its purpose scores it no lower', () => {
    const bare = extractFromSms({ text: 'Lumo code: 551902' });
    const named = extractFromSms({ text: 'Lumo verification code: 551902' });
    expect(bare.otp_code).toBe('551902');
    expect(named.otp_code).toBe('551902');
    expect(named.alternatives[0]!.score).toBeGreaterThanOrEqual(bare.alternatives[0]!.score);
    expect(named.confidence).toBeGreaterThan(0.85);
  });

  test('an SMS Retriever hash states the purpose', () => {
    const v = extractFromSms({ text: '<#> Lumo code: 551902\nFA+9qCX9VSu' });
    expect(v.otp_code).toBe('551902');
    expect(v.confidence).toBeGreaterThan(0.85);
  });
});

describe('labels that name their own value (taught after heldout10)', () => {
  test.each([
    [
      'en',
      'Your login code: 604 913\nInvite code QZ81KD4 has been added to your profile.',
      '604913',
    ],
    ['zh', '您的验证码：604 913\n邀请码 QZ81KD4 已绑定。', '604913'],
  ])(
    'a referral label after the code names the token after it, not the code (%s)',
    (_l, text, code) => {
      expect(extractFromEmail({ subject: 'Code', text }).otp_code).toBe(code);
    },
  );

  test.each([
    ['ko', '[캠핑장] 예약코드 R2K8PX / 인증번호 6619', '6619'],
    ['ja', '【宿】予約コード PX73QK の確認コードは 4410 です。', '4410'],
  ])(
    'a booking code is a reference, so the verification number is the code (%s)',
    (_l, text, code) => {
      expect(extractFromSms({ text }).otp_code).toBe(code);
    },
  );

  test('a booking code alone is no one-time code', () => {
    expect(extractFromSms({ text: '[캠핑장] 예약 완료. 예약코드 R2K8PX' }).otp_code).toBeNull();
  });

  test('a sign-up ("cadastro") code in a message that also offers a discount is still the code', () => {
    const text = 'Studio Yoga: código do seu cadastro: 771 240. Primeira aula com 20% de desconto.';
    expect(extractFromSms({ text }).otp_code).toBe('771240');
  });

  test('a sign-up offer with a coupon gives no code', () => {
    const text = 'Studio Yoga: faça seu cadastro e ganhe 20% de desconto com o cupom YOGA20!';
    expect(extractFromSms({ text }).otp_code).toBeNull();
  });
});

describe('a code line ends its statement (taught after heldout10)', () => {
  test.each([
    ['en', 'Your login code: 418 562\nInvite friends and earn 500 points!', '418562'],
    ['zh', '登录验证码：418 562\n邀请好友可得积分。', '418562'],
    [
      'de',
      'Ihr Anmeldecode: 772 019\nJetzt 10 % Rabatt auf Ihre nächste Bestellung sichern!',
      '772019',
    ],
    ['es', 'Código de acceso: 5521 90\n¡Invita a tus amigos y gana 5 €!', '552190'],
  ])('marketing on the next line does not reach back over "label: code" (%s)', (_l, text, code) => {
    expect(extractFromEmail({ subject: 'Hello', text }).otp_code).toBe(code);
  });

  test.each([
    ['a sentence wrapped over two lines', 'Use code 551204\nfor 20% off your next order'],
    ['a bare "your code" line', 'Your code: 48213\nShow it at checkout for a free drink.'],
    ['a promo label on the code line', 'Promo code: 551204\nValid for 20% off until Sunday.'],
  ])('%s stays marketing', (_name, text) => {
    expect(extractFromEmail({ subject: 'Hello', text }).otp_code).toBeNull();
    expect(extractFromSms({ text }).otp_code).toBeNull();
  });
});
