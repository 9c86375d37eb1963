/** The accounts' configuration: outgoing mail and sign-up throttling (decisions.md defaults). */
import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';

describe('accounts configuration', () => {
  test('defaults: no SMTP server (mail is logged), a sender at the inbound domain, 10 sign-ups an hour', () => {
    expect(loadConfig({})).toMatchObject({
      mailSmtpUrl: undefined,
      mailFrom: 'Latchkey <no-reply@inbox.localhost>',
      signupMaxPerAddress: 10,
      signupWindow: 3600,
    });
    expect(loadConfig({ INBOUND_EMAIL_DOMAIN: 'Mail.Example.test' }).mailFrom).toBe(
      'Latchkey <no-reply@mail.example.test>',
    );
  });

  test('MAIL_SMTP_URL takes smtp:// and smtps:// URLs', () => {
    expect(loadConfig({ MAIL_SMTP_URL: 'smtps://u:p@mail.example.test:465' }).mailSmtpUrl).toBe(
      'smtps://u:p@mail.example.test:465',
    );
  });

  test.each([
    ['MAIL_SMTP_URL', 'http://mail.example.test', /^MAIL_SMTP_URL: must be an smtp/],
    ['MAIL_SMTP_URL', 'not a url', /^MAIL_SMTP_URL: /],
    ['MAIL_FROM', 'x', /^MAIL_FROM: /],
    ['SIGNUP_MAX_PER_ADDRESS', '0', /^SIGNUP_MAX_PER_ADDRESS: /],
    ['SIGNUP_WINDOW', 'an hour', /^SIGNUP_WINDOW: /],
  ])('a bad %s value (%s) stops the start with a message naming it', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });
});
