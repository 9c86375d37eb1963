/**
 * Magic links: HTML read with a real parser, entity decoding, the text-part forms, tracking
 * redirects, and every kind of link that must never be chosen. All messages are hand-written
 * layouts that are not in the corpus.
 */
import { describe, expect, test } from 'vitest';
import { extractFromEmail, extractFromSms } from '../../src/extract/index.ts';

const FOOTER = `
<p style="font-size:12px;color:#999">
  <a href="https://acme.example/unsubscribe?u=Zk81Lq02Mx77">Unsubscribe</a> ·
  <a href="https://acme.example/privacy">Privacy</a> ·
  <a href="https://acme.example/help">Help center</a> ·
  <a href="https://www.facebook.com/acme"><img src="https://acme.example/fb.png" alt=""></a>
  <a href="https://apps.apple.com/app/acme/id1234567890"><img src="https://acme.example/as.png" alt="Download on the App Store"></a>
  <a href="https://play.google.com/store/apps/details?id=com.acme"><img src="https://acme.example/gp.png" alt="Get it on Google Play"></a>
</p>
<img src="https://t.acme.example/open.gif?m=Ab12Cd34Ef56" width="1" height="1" alt="">`;

const HEADER = `<p><a href="https://acme.example/view/Ab12Cd34Ef56">View in browser</a></p>
<a href="https://acme.example/"><img src="https://acme.example/logo.png" alt="Acme"></a>`;

describe('links in HTML', () => {
  test('the sign-in button is chosen and its &amp; entities are decoded', () => {
    const html = `${HEADER}<p>Use the button below to sign in. It works once.</p>
      <a class="btn" href="https://app.acme.example/auth/verify?token=Qw8Lm2Zx91Pt&amp;next=%2Fhome">Sign in to Acme</a>${FOOTER}`;
    const v = extractFromEmail({ subject: 'Your sign-in link', html });
    expect(v.magic_link).toBe(
      'https://app.acme.example/auth/verify?token=Qw8Lm2Zx91Pt&next=%2Fhome',
    );
    expect(v.otp_code).toBeNull();
  });

  test('a button whose text differs from its URL is found by the text around it (fr)', () => {
    const html = `<p>Bonjour,</p><p>Cliquez sur le bouton ci-dessous pour vous connecter à Acme.</p>
      <table><tr><td style="background:#2563eb;border-radius:6px;padding:12px 24px">
      <a href="https://acme.example/c/Xp93Kd02Lm71Qa" style="color:#ffffff;text-decoration:none">Continuer</a>
      </td></tr></table>${FOOTER}`;
    expect(extractFromEmail({ subject: 'Connexion à Acme', html }).magic_link).toBe(
      'https://acme.example/c/Xp93Kd02Lm71Qa',
    );
  });

  test.each([
    ['de', 'Jetzt anmelden', 'https://acme.example/anmelden?token=Zq81Lx02Mp77Ab'],
    ['ru', 'Войти', 'https://acme.example/vhod?token=Zq81Lx02Mp77Ab'],
    ['ja', 'ログインする', 'https://acme.example/login/Zq81Lx02Mp77Ab'],
    ['ar', 'تسجيل الدخول', 'https://acme.example/l/Zq81Lx02Mp77Ab'],
    ['ko', '로그인', 'https://acme.example/l/Zq81Lx02Mp77Ab'],
    ['pl', 'Zaloguj się', 'https://acme.example/l/Zq81Lx02Mp77Ab'],
    ['nl', 'E-mailadres bevestigen', 'https://acme.example/bevestig/Zq81Lx02Mp77Ab'],
  ])('a sign-in button labelled in %s is chosen over footer links', (_lang, label, href) => {
    const html = `${HEADER}<p>&nbsp;</p><a class="button" href="${href}">${label}</a>${FOOTER}`;
    expect(extractFromEmail({ subject: 'Acme', html }).magic_link).toBe(href);
  });

  test('no link is chosen from an email made only of footer, logo, social, app-store and view-in-browser links', () => {
    const html = `${HEADER}<p>Thanks for being an Acme customer!</p>${FOOTER}`;
    expect(extractFromEmail({ subject: 'Newsletter', html }).magic_link).toBeNull();
  });

  test('an order-tracking button is never a sign-in link', () => {
    const html = `<p>Your order 55120 has shipped.</p><a class="btn" href="https://acme.example/orders/55120/track?k=Zq81Lx02Mp">Track package</a>${FOOTER}`;
    const v = extractFromEmail({ subject: 'Shipped!', html });
    expect(v.magic_link).toBeNull();
    expect(v.otp_code).toBeNull();
  });

  test('a "review activity" button in a sign-in alert is never chosen', () => {
    const html = `<p>New sign-in to your Acme account from Chrome on Windows.</p>
      <a class="btn" href="https://acme.example/security/activity?s=Zq81Lx02Mp77">Review activity</a>${FOOTER}`;
    expect(extractFromEmail({ subject: 'New sign-in', html }).magic_link).toBeNull();
  });

  test('a password-reset button is not a sign-in link', () => {
    const html = `<p>Someone asked to reset your password.</p><a class="btn" href="https://acme.example/password/reset?token=Zq81Lx02Mp77">Reset password</a>`;
    expect(extractFromEmail({ subject: 'Reset your password', html }).magic_link).toBeNull();
  });

  test('a log-in button without any one-time token is not a magic link', () => {
    const html = `<p>Your statement is ready.</p><a class="btn" href="https://acme.example/login">Log in to view it</a>`;
    expect(extractFromEmail({ subject: 'Statement', html }).magic_link).toBeNull();
  });

  test('a plainly written real link beats a click-tracking redirect on the button', () => {
    const real = 'https://acme.example/auth/magic?t=Zq81Lx02Mp77Ab90';
    const html = `<p>Sign in with the button below.</p>
      <a class="btn" href="https://links.acme.example/track/click?u=aHR0cHM6Ly9hY21lLmV4YW1wbGU&amp;r=2">Sign in</a>${FOOTER}`;
    const text = `Sign in to Acme by opening this link:\n${real}\n\nManage notifications: https://acme.example/settings/notifications`;
    expect(extractFromEmail({ subject: 'Sign in', text, html }).magic_link).toBe(real);
  });

  test('a click-tracking button is still chosen when no real link is given', () => {
    const tracked = 'https://click.acme.example/ls/click?upn=Zq81Lx02Mp77Ab90-3D';
    const html = `<p>Tap below to verify your email address.</p><a class="btn" href="${tracked}">Verify email</a>${FOOTER}`;
    expect(extractFromEmail({ subject: 'Verify', html }).magic_link).toBe(tracked);
  });

  test('malformed HTML with unclosed tags still yields its sign-in link', () => {
    const html =
      '<div><p>Click to log in<table><tr><td><a href="https://acme.example/login/Zq81Lx02Mp77">Log in<div></table><p>Bye';
    expect(extractFromEmail({ html }).magic_link).toBe('https://acme.example/login/Zq81Lx02Mp77');
  });

  test('a code and a link in the same email are both returned', () => {
    const html = `<p>Your sign-in code:</p><p style="font-size:28px">k7P2-qX9m</p><p>Your code: <b>552 019</b></p>
      <p>Or sign in directly:</p><a class="btn" href="https://acme.example/session/new?token=Zq81Lx02Mp77">Sign in</a>`;
    const v = extractFromEmail({ subject: 'Sign in to Acme', html });
    expect(v.otp_code).toBe('552019');
    expect(v.magic_link).toBe('https://acme.example/session/new?token=Zq81Lx02Mp77');
  });
});

describe('links in plain text', () => {
  const url = 'https://acme.example/verify-email?token=Zq81Lx02Mp77Ab90&lang=en';
  test.each([
    ['bare', `Verify your email address:\n${url}\n`],
    ['in angle brackets', `Verify your email address: <${url}>`],
    ['in parentheses with spaces', `Verify your email address ( ${url} ).`],
    ['in square brackets', `Verify your email address:\n[${url}]`],
    [
      'wrapped over several lines inside angle brackets',
      `Verify your email address:\n<https://acme.example/verify-email?\n token=Zq81Lx02Mp77Ab90\n&lang=en>`,
    ],
    ['followed by sentence punctuation', `Verify your email address at ${url}.`],
  ])('a link written %s is read whole, whitespace removed', (_form, text) => {
    expect(extractFromEmail({ subject: 'Verify your email', text }).magic_link).toBe(url);
  });

  test('the text part is used when there is no HTML part', () => {
    const text =
      'Hola:\n\nPara iniciar sesión abre este enlace:\nhttps://acme.example/acceso?token=Zq81Lx02Mp77\n\nAyuda: https://acme.example/ayuda';
    expect(extractFromEmail({ subject: 'Tu enlace', text }).magic_link).toBe(
      'https://acme.example/acceso?token=Zq81Lx02Mp77',
    );
  });

  test('a sign-in link in an SMS is chosen', () => {
    expect(
      extractFromSms({ text: 'Acme: tap to log in https://acme.co/m/Zq81Lx02 (valid 10 min)' })
        .magic_link,
    ).toBe('https://acme.co/m/Zq81Lx02');
  });

  test('a marketing link in an SMS is not a sign-in link', () => {
    expect(
      extractFromSms({ text: 'Acme: 30% off today only! Shop https://acme.co/sale/Zq81Lx02' })
        .magic_link,
    ).toBeNull();
  });

  test('a delivery-tracking link in an SMS is not a sign-in link', () => {
    expect(
      extractFromSms({
        text: 'Acme: your parcel arrives today. Track: https://acme.co/t/Zq81Lx02Mp',
      }).magic_link,
    ).toBeNull();
  });
});

describe('passkeys and security keys', () => {
  test.each([
    ['en', 'Use your passkey to finish signing in to Acme. No code is needed.'],
    ['en', 'Insert your security key and touch it to continue signing in.'],
    ['fr', "Utilisez votre clé d'accès pour vous connecter à Acme."],
    ['de', 'Verwende deinen Sicherheitsschlüssel, um die Anmeldung zu bestätigen.'],
    ['es', 'Usa tu llave de acceso para iniciar sesión.'],
    ['ja', 'パスキーでログインしてください。'],
  ])(
    'a message asking for a passkey or security key sets webauthn_required (%s)',
    (_lang, text) => {
      const v = extractFromEmail({ subject: 'Sign in', text });
      expect(v.webauthn_required).toBe(true);
      expect(v.otp_code).toBeNull();
    },
  );

  test('a notice that a passkey was added does not ask for one', () => {
    expect(
      extractFromSms({ text: 'Acme: A new passkey was added to your account on 05/02.' })
        .webauthn_required,
    ).toBe(false);
  });

  test('a plain code message does not ask for a passkey', () => {
    expect(extractFromSms({ text: 'Acme: your code is 551902' }).webauthn_required).toBe(false);
  });
});

describe('short one-time tokens (taught after heldout10)', () => {
  test.each([
    ['a short mixed-case value under a token key', 'https://acme.example/welcome?t=Gh52Rk'],
    ['a short mixed-case value under a one-letter key', 'https://acme.example/welcome?c=Gh52Rk'],
    ['a four-character mixed-case short link', 'https://acme.example/Gh5r'],
  ])('%s counts as a one-time token', (_name, url) => {
    const v = extractFromSms({ text: `Acme: tap ${url} to sign in. Valid 10 min.` });
    expect(v.magic_link).toBe(url);
  });

  test.each([
    [
      'a campaign value in lower case under a one-letter key',
      'https://acme.example/welcome?c=nov26',
    ],
    ['a four-letter word as the path', 'https://acme.example/Home'],
    ['four lower-case characters as the path', 'https://acme.example/ab12'],
  ])('%s is no token, so the link signs nobody in', (_name, url) => {
    const v = extractFromSms({ text: `Acme: tap ${url} to sign in. Valid 10 min.` });
    expect(v.magic_link).toBeNull();
  });

  test('a marketing link with a mixed-case campaign value is still not a sign-in link', () => {
    const v = extractFromSms({
      text: 'Acme: Winter sale, 30% off everything! Shop now https://acme.example/sale?c=Wn26Xq',
    });
    expect(v.magic_link).toBeNull();
    expect(v.otp_code).toBeNull();
  });

  test.each([
    ['it', 'Acme: per entrare usa il link magico: https://acme.example/m/Rq72Lt.'],
    ['fr', 'Acme : voici votre lien magique https://acme.example/m/Rq72Lt.'],
    ['pt', 'Acme: seu link mágico chegou https://acme.example/m/Rq72Lt.'],
  ])('a "magic link" is a sign-in link by name (%s)', (_lang, text) => {
    expect(extractFromSms({ text }).magic_link).toBe('https://acme.example/m/Rq72Lt');
  });
});

describe('a lone one-time-looking link with nothing said against it (structural priors)', () => {
  // The sign-in word stands where the context rules do not look (across a question or a
  // sentence end): the link is still what the SMS is for.
  test.each([
    [
      'Lumo: E-Mail-Adresse bestätigen? Bitte hier weiter: https://lu.example/k/Pz41Qm.',
      'https://lu.example/k/Pz41Qm',
    ],
    [
      '【ミドリ】ログインのご案内です。有効期限は10分です。続きはこちら https://md.example/x/Rt58Wn',
      'https://md.example/x/Rt58Wn',
    ],
    [
      'Orvo sign-in. This link expires in 10 minutes and works once. Open https://orvo.example/m/Vb26Tz',
      'https://orvo.example/m/Vb26Tz',
    ],
  ])('SMS %s gives its link', (text, link) => {
    const v = extractFromSms({ from: 'BRAND', text });
    expect(v.magic_link).toBe(link);
    expect(v.otp_code).toBeNull();
  });

  // The same shape, but the message says what the link is for, and it is not signing in.
  test.each([
    'Kiwa: your receipt for 12,40 € https://kw.example/r/Hx72Lp',
    'Lumo: enjoying the app? Rate us ⭐ https://lu.example/review?c=Pz41Qm',
    'Orvo: weekend sale, 20% off everything https://orvo.example/s/Vb26Tz',
    'Pakko: your parcel 4410 is out today, track it https://pk.example/p/Qz83Lm',
    'Orvo: new sign-in from Chrome on Windows. https://orvo.example/a/Vb26Tz',
    // No sign-in word at all: a token link alone says nothing of its purpose.
    'Orvo: https://orvo.example/m/Vb26Tz',
    'Vos photos sont prêtes 📸 https://ph.example/a/Hq72Lp',
    'Emma shared a file with you: https://drive.example/s/Hq72Lp',
    '您的快递已到驿站 https://kd.example/q/Hq72Lp',
  ])('SMS %s gives no link', (text) => {
    const v = extractFromSms({ from: 'BRAND', text });
    expect(v.magic_link).toBeNull();
    expect(v.otp_code).toBeNull();
  });
});
