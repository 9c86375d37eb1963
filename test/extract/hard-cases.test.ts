/**
 * The hard cases of issue 18, one behaviour per test: promo codes in marketing, codes beside
 * amounts and labels that are not theirs, SMS sign-in links written as short links, and codes
 * that live in HTML tables, image alt text or pre-headers. Messages here are written for these
 * tests (none is copied from a corpus), so they check the rule, not a memorised record.
 */
import { describe, expect, test } from 'vitest';
import { extractFromEmail, extractFromSms } from '../../src/extract/index.ts';

const sms = (text: string) => extractFromSms({ from: 'TEST', text });

describe('marketing messages', () => {
  test('a sale SMS that says "use code" gives no code when it never speaks of signing in', () => {
    const v = sms(
      'Larkspur Home: Our biggest sale of the year starts now! Use code HOME30 at checkout. Reply STOP to opt out.',
    );
    expect(v.otp_code).toBeNull();
    expect(v.alternatives.find((a) => a.value === 'HOME30')?.reasons.join('\n')).toContain(
      'marketing message with no sign-in or verify word',
    );
  });

  test('a digits-only promo code in a marketing SMS is not a sign-in code', () => {
    expect(
      sms('Noodle Bar: Get $4 off any bowl this week. Use code 6612 when you order online.')
        .otp_code,
    ).toBeNull();
  });

  test('the strongest promo wording ("Use code X online") still gives no code in marketing', () => {
    expect(
      sms('SubShack: Grab 2 footlongs for $13.99. Use code 2SUB1399 online. Offer ends Monday.')
        .otp_code,
    ).toBeNull();
  });

  test('a two-for-one offer ("2x1") marks a Spanish message as marketing', () => {
    expect(
      sms('Cines Luna: ¡Miércoles de cine! 2x1 con el código CINE7Q2. Solo en taquilla.').otp_code,
    ).toBeNull();
  });

  test('a reward code is not a sign-in code', () => {
    expect(
      sms(
        'Bakehouse: Your reward code 551902 is good for one pastry until Jan 5. Show it in store.',
      ).otp_code,
    ).toBeNull();
  });

  test('a verification code stays the code in a message that also talks about rewards', () => {
    expect(
      sms('Fernway Rewards: Welcome! Your verification code is 44120. You have 100 bonus points.')
        .otp_code,
    ).toBe('44120');
  });
});

describe('codes beside numbers that are not codes', () => {
  test('a money word in the next sentence does not make the code an amount', () => {
    expect(sms('Tollgate Mobile: to switch plans enter PIN 3391. Balance: $12.80.').otp_code).toBe(
      '3391',
    );
  });

  test('a currency word followed by a connecting word does not make the code an amount', () => {
    expect(sms('Ricarica Facile: il codice per la ricarica di 20,00 euro è 552019.').otp_code).toBe(
      '552019',
    );
  });

  test('a money word after a connecting word does not make the code an amount', () => {
    expect(sms('Banca Lago: codice OTP 551029 per pagamento di 49,00 EUR.').otp_code).toBe(
      '551029',
    );
  });

  test('the English word "the" before a labelled code is not a reference label', () => {
    expect(sms('Tollgate Mobile: to change your plan, enter the PIN 8824.').otp_code).toBe('8824');
  });

  test('a compound German TAN label (pushTAN) names the code across an IBAN ending', () => {
    expect(
      sms('Volksbank Nord: Ihre pushTAN für die Überweisung an IBAN DE44...9921 lautet 771 204.')
        .otp_code,
    ).toBe('771204');
  });
});

describe('confidence of the doubtful', () => {
  // "No code" is exactly as sure as the best turned-down candidate is unlikely: the confidence of
  // the decision is one minus that candidate's probability, which the alternatives show.
  test('"no code" is as doubtful as the labelled candidate turned down by context is likely', () => {
    const v = sms('Acme Pay: your security code 7712 dollars was credited.');
    expect(v.otp_code).toBeNull();
    const rejected = v.alternatives.find((a) => a.value === '7712')!;
    expect(rejected.chosen).toBe(false);
    expect(v.confidence).toBeCloseTo(1 - rejected.score, 2);
  });
});

describe('sign-in links in SMS', () => {
  test('a short link after a sign-in word is the magic link, without the closing parenthesis', () => {
    const v = sms('Harbor: log in here https://hbr.example/q/Rk3x9 (expires in 10 min)');
    expect(v.magic_link).toBe('https://hbr.example/q/Rk3x9');
    expect(v.otp_code).toBeNull();
  });

  test('a short link with trailing punctuation is the magic link without it', () => {
    expect(sms('Verify your number at https://vfy.example/n/Ab3dE9!').magic_link).toBe(
      'https://vfy.example/n/Ab3dE9',
    );
  });

  test('a link labelled "details" behind "sign in" is an open question, and the verdict says so', () => {
    // "Sign in to see the details: <link>" reads as a login page as well as a link that signs in;
    // the corpus brief (rule 6) leaves out what a careful reader could argue, and the training
    // data holds both answers: set 23's author labelled order and status links of this kind "no
    // link", another author labelled "Your order … is ready! Sign in to see pickup details:
    // <short link>" a sign-in link. Whichever way the scorer leans, the link is ranked with its
    // sign-in reason and the confidence stays short of sure (0.36 with sets 1-23, 0.77 since
    // sets 24-31 and the sign-in concept words).
    const v = sms(
      'Brickyard: order #4410 shipped. Sign in to see the details: https://bky.example/s/T7q2Lm',
    );
    const link = v.alternatives.find((a) => a.kind === 'magic_link');
    expect(link?.value).toBe('https://bky.example/s/T7q2Lm');
    expect(link?.reasons.some((r) => r.includes('sign-in or verify word "sign in"'))).toBe(true);
    expect(v.confidence).toBeLessThan(0.9);
  });

  test('a German compound sign-in word (Anmeldelink) vouches for the link after it', () => {
    expect(
      sms('Postwerk: Ihr Anmeldelink (15 Min. gültig): https://pw.example/a/Lq82Zx').magic_link,
    ).toBe('https://pw.example/a/Lq82Zx');
  });

  test('a Swahili "your sign-in link" gives the link', () => {
    // "Kiungo chako cha kuingia": no keyword table covers Swahili, so the rules turned this link
    // down (unsure, at 0.7); the learned scorer has read Swahili sign-in messages in its training
    // sets and takes it.
    const v = sms('Kiungo chako cha kuingia: https://kw.example/i/Tq72Xz');
    expect(v.magic_link).toBe('https://kw.example/i/Tq72Xz');
  });

  test('a short link in a marketing SMS with no sign-in word is not a magic link', () => {
    expect(
      sms('Larkspur Home: 30% off today only! Shop https://lsh.example/d/Xy72Qa').magic_link,
    ).toBe(null);
  });
});

describe('codes in HTML layouts', () => {
  test('a code shown only as an image is read from its alt text', () => {
    const html =
      '<p>Use the code shown below to finish signing in.</p><p><img src="https://cdn.example/otp.png" alt="Code 663018"></p>';
    expect(extractFromEmail({ subject: 'Finish signing in', html }).otp_code).toBe('663018');
  });

  test('an image inside a link does not lend its alt text to the link', () => {
    const html =
      '<p>Your sign-in code is 204118.</p><a href="https://acme.example/"><img src="https://acme.example/logo.png" alt="Sign in to Acme 2025"></a>';
    const v = extractFromEmail({ subject: 'Your code', html });
    expect(v.otp_code).toBe('204118');
    expect(v.magic_link).toBeNull();
  });

  test('a code written one digit per table cell reads as the code', () => {
    const cells = [...'739104'].map((d) => `<td style="border:1px solid #ccc">${d}</td>`).join('');
    const html = `<p>Your verification code:</p><table><tr>${cells}</tr></table><p>It expires in 10 minutes.</p>`;
    expect(extractFromEmail({ subject: 'Verify', html }).otp_code).toBe('739104');
  });

  test('a label cell and a code cell of one table row read as one line', () => {
    const html =
      '<table><tr><td>Order</td><td>55120934</td></tr><tr><td>Sign-in code</td><td>480215</td></tr></table>';
    expect(extractFromEmail({ subject: 'Your order', html }).otp_code).toBe('480215');
  });

  test('a code given only in the hidden pre-header and an image without alt is found', () => {
    const html =
      '<div style="display:none;max-height:0">Your sign-in code is 552091.</div><h1>Here is your code</h1><img src="https://q.example/c.png" alt="">';
    expect(extractFromEmail({ subject: 'Sign in', html }).otp_code).toBe('552091');
  });
});
