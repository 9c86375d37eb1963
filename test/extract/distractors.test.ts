/**
 * Hand-written messages that are NOT in the corpus: every distractor class, in several languages,
 * with a code (the distractor must lose) and without one (nothing may be invented).
 */
import { describe, expect, test } from 'vitest';
import { extractFromSms } from '../../src/extract/index.ts';

type Case = readonly [description: string, text: string, code: string | null];

function check([, text, code]: Case): void {
  const verdict = extractFromSms({ from: 'ACME', text });
  expect(verdict.otp_code).toBe(code);
}

const groups: Record<string, readonly Case[]> = {
  'amounts and currencies': [
    [
      'a dollar amount before the code loses (en)',
      'Acme Pay: approve the $1,249.00 transfer with code 551902.',
      '551902',
    ],
    [
      'a euro amount written with a decimal comma loses (de)',
      'Acme Bank: Freigabe der Überweisung über 1.249,00 EUR mit TAN 804213.',
      '804213',
    ],
    ['a rupee amount loses (hi)', 'एक्मे बैंक: ₹4,599 के भुगतान के लिए आपका ओटीपी 339201 है।', '339201'],
    [
      'a yen amount after the code loses (ja)',
      'アクメ: 認証コード 772614（ご利用金額 12,800円）',
      '772614',
    ],
    ['a won amount loses (ko)', '[에이크미] 결제금액 59,000원 인증번호 [318274]', '318274'],
    [
      'a lira amount loses (tr)',
      'Acme: 1.250,00 TL tutarındaki işleminiz için doğrulama kodu: 662901',
      '662901',
    ],
    [
      'an amount alone is not a code (en)',
      'Acme Bank: You sent $2,500.00 to J. Smith. Available balance $10,244.18.',
      null,
    ],
    [
      'an amount in roubles alone is not a code (ru)',
      'Acme: списание 12 500 руб. по карте *4410. Баланс: 88 120 руб.',
      null,
    ],
    [
      'an amount with a currency code after it is not a code (pt)',
      'Acme: pagamento de 7500 BRL aprovado.',
      null,
    ],
  ],
  'dates and times': [
    [
      'a date and a time around the code lose (en)',
      'Acme: On 04/22/2025 at 10:41 you asked to sign in. Your code: 093381',
      '093381',
    ],
    ['a dotted date loses (de)', 'Acme: Ihr Anmeldecode vom 12.05.2025 lautet 4412 77.', '441277'],
    ['a date in words loses (fr)', 'Acme : le 15 mars, votre code de connexion est 7719.', '7719'],
    [
      'a dotted date alone is not a code (pl)',
      'Acme: Twoja wizyta 14.06.2025 o godz. 10:30 została potwierdzona.',
      null,
    ],
    ['an ISO date alone is not a code (sv)', 'Acme: din bokning 2025-06-14 är bekräftad.', null],
    [
      'a month name next to a number is not a code (es)',
      'Acme: tu cita es el 2025 de mayo 14, 16:00 h.',
      null,
    ],
  ],
  durations: [
    [
      'a validity in minutes after the code loses (en)',
      'Acme: 448120 is your code. Valid for 1440 minutes.',
      '448120',
    ],
    ['a validity in seconds loses (tr)', 'Acme giriş kodunuz 8831. 180 saniye geçerlidir.', '8831'],
    [
      'a validity in minutes written before the code loses (zh)',
      '【爱克美】5分钟内有效，您的验证码是 730129。',
      '730129',
    ],
    ['a duration alone is not a code (nl)', 'Acme: je parkeersessie loopt nog 1200 minuten.', null],
  ],
  'phone numbers': [
    [
      'a toll-free number after the code loses (en)',
      'Acme: 662810 is your code. Questions? Call 1-888-555-0199.',
      '662810',
    ],
    [
      'a phone number with area code before the code loses (en)',
      'Acme: we will text (415) 555-0134. Enter 7301 to confirm.',
      '7301',
    ],
    [
      'an international number loses (it)',
      'Acme: il codice è 550921. Assistenza: +39 02 1234 5678',
      '550921',
    ],
    [
      'a phone number alone is not a code (es)',
      'Acme: llámanos al 800 555 0123 para reprogramar tu cita.',
      null,
    ],
    [
      'a local phone number alone is not a code (en)',
      'Acme Dental: please call 555-0188 to reschedule.',
      null,
    ],
  ],
  'card and account endings': [
    [
      'a card ending before the code loses (en)',
      'Acme: purchase on card ending 4821 - verification code 119027.',
      '119027',
    ],
    [
      'a masked account loses (de)',
      'Acme Bank: Konto ****5521, Ihr Freigabecode: 7730 12',
      '773012',
    ],
    ['an x-masked card loses (hi)', 'एक्मे: कार्ड XX8842 से लेनदेन के लिए ओटीपी 441920', '441920'],
    [
      'a card ending alone is not a code (fr)',
      'Acme : paiement de 45,90 EUR par carte se terminant par 8812 accepté.',
      null,
    ],
    [
      'an account ending alone is not a code (ar)',
      'أكمي: تم خصم 200 درهم من حسابك المنتهي بـ 7731.',
      null,
    ],
  ],
  'order, tracking and reference numbers': [
    [
      'an order number loses to the code (en)',
      'Acme: to change order 5521990, enter code 4402.',
      '4402',
    ],
    [
      'a booking reference loses to the code (es)',
      'Acme: reserva 882131 - tu código de acceso es 5093.',
      '5093',
    ],
    ['a numbered order sign loses (ru)', 'Acme: заказ №77120. Код для входа: 2291', '2291'],
    [
      'an order number alone is not a code (en)',
      'Acme: your order #5521990 has shipped and arrives Tuesday.',
      null,
    ],
    [
      'a tracking number alone is not a code (fr)',
      'Acme : votre colis 8R01234567890 sera livré demain.',
      null,
    ],
    ['a reference alone is not a code (id)', 'Acme: pembayaran berhasil. No. ref 77812201.', null],
    [
      'a booking number alone is not a code (pt)',
      'Acme: sua reserva 558812 está confirmada para 12/06.',
      null,
    ],
    [
      'a pickup number alone is not a code (zh)',
      '【爱克美】您的快递已到驿站，取件码 6-2-1108，请尽快领取。',
      null,
    ],
  ],
  'ZIP codes': [
    [
      'a US ZIP code loses to the code (en)',
      'Acme: code 661209. Ship to 12 Oak St, Austin, TX 78701.',
      '661209',
    ],
    ['a ZIP label alone is not a code (en)', 'Acme: We updated your ZIP code to 94107.', null],
    [
      'a German postcode alone is not a code (de)',
      'Acme: Ihre neue Adresse: Hauptstraße 5, PLZ 80331 München.',
      null,
    ],
  ],
  years: [
    ['a year loses to the code (en)', 'Acme: your 2025 tax center login code is 5531.', '5531'],
    [
      'a year alone is not a code (en)',
      'Acme: Happy 2026! Thanks for being with us since 2019.',
      null,
    ],
  ],
  percentages: [
    ['a percentage loses to the code (en)', 'Acme: 100% secure. Your code is 7740.', '7740'],
    [
      'a percentage alone is not a code (es)',
      'Acme: ¡hasta 5000% más de puntos este fin de semana!',
      null,
    ],
  ],
};

const noCode: readonly Case[] = [
  // Pickup, parcel-locker and points-exchange codes are not sign-in codes (corpus/README.md).
  [
    'a parcel-locker pickup code gives no code (pl)',
    'Kod odbioru paczki: 551204. Paczkomat WAW22A.',
    null,
  ],
  [
    'a pickup code gives no code (nl)',
    'Je pakket ligt klaar. Ophaalcode 551204, geldig 7 dagen.',
    null,
  ],
  ['a pickup code gives no code (ko)', '[빠른택배] 무인함 수령코드 551204 (3일 보관)', null],
  [
    'a points-exchange code gives no code (ja)',
    '【ルミナ】ポイント交換コード 5521-0098 をアプリで入力してください',
    null,
  ],
  [
    'a coupon code to type in the app gives no code (ko)',
    '[모아마트] 쿠폰 번호 551204 를 앱에 입력하세요',
    null,
  ],

  [
    'a promo code is not a one-time code (en)',
    'Acme: Get 25% off with code FALL2025 at checkout!',
    null,
  ],
  [
    'a promo code with a word and a number is not a one-time code (fr)',
    'Acme : -30% avec le code promo ETE30 jusqu’à dimanche.',
    null,
  ],
  [
    'a discount code is not a one-time code (de)',
    'Acme: Dein Gutscheincode SOMMER25 gilt bis Sonntag.',
    null,
  ],
  [
    'a "someone signed in" warning carries no code (en)',
    'Acme: Someone signed in to your account from Firefox on 05/02 at 22:10. Not you? Reset your password.',
    null,
  ],
  [
    'a "never share your code" notice carries no code (es)',
    'Acme: nunca te pediremos tu código por teléfono. Si alguien lo hace, llámanos.',
    null,
  ],
  [
    'a new-login notice carries no code (pt)',
    'Acme: novo acesso à sua conta em 02/05 às 10:12.',
    null,
  ],
  [
    'a receipt carries no code (it)',
    'Acme: ricevuta n. 4412 del 03/05, importo 19,90 EUR. Grazie!',
    null,
  ],
  [
    'a shipping update carries no code (ja)',
    '【アクメ】ご注文の商品を発送しました。お問い合わせ番号：1234-5678-9012',
    null,
  ],
  ['a balance alert carries no code (ko)', '[에이크미] 잔액 1,204,000원 입금 500,000원', null],
  [
    'a 2-step notice carries no code (en)',
    'Acme: 2-step verification was turned on for your account on 05/02.',
    null,
  ],
];

const positives: readonly Case[] = [
  ['a code split by a space is joined (sv)', 'Acme: Din engångskod är 551 209', '551209'],
  ['a code split by hyphens is joined (pl)', 'Acme: kod logowania 55-12-09', '551209'],
  ['a code split by dots is joined (it)', 'Acme: codice di accesso 55.12.09', '551209'],
  ['leading zeros are kept (en)', 'Acme: your login code is 000731', '000731'],
  [
    'letter case of an alphanumeric code is kept (en)',
    'Acme: your code is b7K2mQ9x (case-sensitive)',
    'b7K2mQ9x',
  ],
  [
    'a brand prefix nobody types is dropped (en)',
    'Use A-552019 to verify your Acme account.',
    '552019',
  ],
  ['full-width digits are read as ASCII (ja)', 'アクメ：確認コードは１２３４５６です', '123456'],
  ['Arabic-Indic digits are read as ASCII (ar)', 'أكمي: رمز الدخول ٥٥٢٠٩١', '552091'],
  ['Persian digits are read as ASCII (fa)', 'اکمی: کد ورود شما ۷۷۱۲۰۴', '771204'],
  ['Devanagari digits are read as ASCII (hi)', 'एक्मे: आपका सत्यापन कोड ७७१२०४ है', '771204'],
  ['Bengali digits are read as ASCII (bn script)', 'Acme OTP: ৭৭১২০৪', '771204'],
  ['Thai digits are read as ASCII (th)', 'Acme: รหัส OTP ของคุณคือ ๗๗๑๒๐๔', '771204'],
  ['a WebOTP line states the code (en)', 'Your Acme code is 7712.\n\n@acme.example #7712', '7712'],
  ['a WebOTP line alone is enough (en)', 'Acme sign-in\n\n@login.acme.example #550213', '550213'],
  [
    'an Android retriever hash is never read as a code (en)',
    '<#> Acme: your code is 8812\nAb3+Kq9/Z1x',
    '8812',
  ],
  [
    'a code last in a long message is found (de)',
    'Hallo! Vielen Dank, dass du Acme nutzt. Wir haben eine Anmeldung von einem neuen Gerät bemerkt. Bestätige sie mit diesem Code: 66 12 09',
    '661209',
  ],
  [
    'a code in brackets is found (ko)',
    '[에이크미] 본인확인 인증번호 [ 582019 ]를 입력해주세요',
    '582019',
  ],
  [
    'a code labelled in Ukrainian is found (uk)',
    'Acme: ваш код підтвердження 441920. Нікому його не повідомляйте.',
    '441920',
  ],
  ['a code labelled in Danish is found (da)', 'Acme: Din bekræftelseskode er 771203.', '771203'],
  ['a code labelled in Norwegian is found (no)', 'Acme: Engangskoden din er 771203.', '771203'],
  [
    'a code labelled in Finnish is found (fi)',
    'Acme: Kertakäyttöinen koodisi on 771203.',
    '771203',
  ],
  ['a code labelled in Czech is found (cs)', 'Acme: Váš přihlašovací kód: 771203', '771203'],
  ['a code labelled in Greek is found (el)', 'Acme: Ο κωδικός επαλήθευσης είναι 771203', '771203'],
  [
    'a code labelled in Romanian is found (ro)',
    'Acme: Codul tău de autentificare este 771203.',
    '771203',
  ],
  ['a code labelled in Hungarian is found (hu)', 'Acme: Az ellenőrző kódod: 771203', '771203'],
  ['a code labelled in Thai is found (th)', 'Acme: รหัสยืนยันของคุณคือ 771203', '771203'],
  ['a code labelled in Vietnamese is found (vi)', 'Acme: Mã OTP của bạn là 771203', '771203'],
  ['a code labelled in Hebrew is found (he)', 'Acme: קוד הכניסה שלך: 771203', '771203'],
];

for (const [group, cases] of Object.entries(groups)) {
  describe(`distractor class: ${group}`, () => {
    test.each(cases)('%s', (...c) => check(c));
  });
}

describe('messages without a code', () => {
  test.each(noCode)('%s', (...c) => check(c));
});

describe('code formats and languages', () => {
  test.each(positives)('%s', (...c) => check(c));
});

describe('Android SMS Retriever variants', () => {
  test('an app hash on the same line as the code is never read as a code', () => {
    expect(
      extractFromSms({ text: '<#> Your ExampleApp code is: 123ABC78 FA+9qCX9VSu' }).otp_code,
    ).toBe('123ABC78');
  });

  test('an app hash containing a slash on its own last line is ignored', () => {
    expect(extractFromSms({ text: '<#> Acme: 4410 is your code\nQp7/Lm3aK0z' }).otp_code).toBe(
      '4410',
    );
  });
});
