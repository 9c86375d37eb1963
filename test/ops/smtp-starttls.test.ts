/**
 * STARTTLS on the inbound SMTP listener (RFC 3207) with SMTP_TLS_CERT/SMTP_TLS_KEY: a stock client
 * (nodemailer with `requireTLS`, verifying the certificate) delivers over TLS and the code reaches
 * the waiting agent; without the variables STARTTLS is not advertised; a bad path or a key that
 * does not match the certificate stops the start with a message naming the variable.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import nodemailer from 'nodemailer';
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { openSession } from '../../src/domain/sessions/open.ts';
import { waitForVerdict } from '../../src/domain/verdicts/wait.ts';
import type { TestApp } from '../helpers/app.ts';
import { createAccount, ctxOf, principalFor, startChallengeApp } from '../helpers/challenges.ts';

const dir = await mkdtemp(path.join(tmpdir(), 'latchkey-starttls-'));
const certPath = path.join(dir, 'mx.crt');
const keyPath = path.join(dir, 'mx.key');
const otherKeyPath = path.join(dir, 'other.key');
const attributes = [{ name: 'commonName', value: 'localhost' }];
const options = {
  keySize: 2048,
  algorithm: 'sha256',
  extensions: [
    { name: 'basicConstraints' as const, cA: false },
    { name: 'subjectAltName' as const, altNames: [{ type: 2 as const, value: 'localhost' }] },
  ],
};
const pems = await generate(attributes, options);
await writeFile(certPath, pems.cert);
await writeFile(keyPath, pems.private, { mode: 0o600 });
await writeFile(otherKeyPath, (await generate(attributes, options)).private, { mode: 0o600 });

let tlsApp: TestApp;
let plainApp: TestApp;
beforeAll(async () => {
  [tlsApp, plainApp] = await Promise.all([
    startChallengeApp({ env: { SMTP_TLS_CERT: certPath, SMTP_TLS_KEY: keyPath } }),
    startChallengeApp(),
  ]);
});
afterAll(async () => {
  await Promise.all([tlsApp?.stop(), plainApp?.stop()]);
  await rm(dir, { recursive: true, force: true });
});

/** The EHLO answer's extension lines, read over a plain socket as a sender first sees them. */
function advertised(port: number) {
  return new Promise<string[]>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    let greeted = false;
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (!greeted && /^220 /m.test(text)) {
        greeted = true;
        text = '';
        socket.write('EHLO sender.example\r\n');
      }
      const lines = text.split('\r\n');
      if (lines.some((line) => line.startsWith('250 '))) {
        socket.end('QUIT\r\n');
        resolve(lines.filter((line) => /^250[- ]/.test(line)).map((line) => line.slice(4)));
      }
    });
    socket.once('error', reject);
  });
}

/** Whether a nodemailer connection that requires TLS ends up on a TLS socket. */
function upgradedConnection(port: number) {
  return new Promise<{ secure: boolean; protocol: string | null }>((resolve, reject) => {
    const connection = new SMTPConnection({
      host: '127.0.0.1',
      port,
      requireTLS: true,
      tls: { ca: pems.cert, servername: 'localhost' },
    });
    connection.once('error', reject);
    connection.connect(() => {
      const socket = (connection as unknown as { _socket: TLSSocket })._socket;
      resolve({ secure: connection.secure, protocol: socket.getProtocol() });
      connection.quit();
    });
  });
}

describe('STARTTLS', () => {
  test('with SMTP_TLS_CERT/KEY a requireTLS client delivers over TLS and the agent gets the code', async () => {
    const principal = principalFor(await createAccount(tlsApp.app));
    const session = await openSession(ctxOf(tlsApp.app), principal, { channel: 'email_otp' });
    const info = await nodemailer
      .createTransport({
        host: '127.0.0.1',
        port: tlsApp.app.smtpPort!,
        secure: false,
        requireTLS: true,
        // The certificate is verified, against the test's own CA: a real TLS session, not a pass.
        tls: { ca: pems.cert, servername: 'localhost' },
      })
      .sendMail({
        from: 'Acme <no-reply@acme.example>',
        to: session.inboxAddress!,
        subject: 'Your Acme verification code',
        text: 'Your verification code is 731904.',
      });
    expect(info.accepted).toEqual([session.inboxAddress]);
    expect(
      await waitForVerdict(ctxOf(tlsApp.app), principal, session.id, { timeout: 10 }),
    ).toMatchObject({ verdict: 'otp_code', otpCode: '731904' });

    expect(await advertised(tlsApp.app.smtpPort!)).toContain('STARTTLS');
    expect(await upgradedConnection(tlsApp.app.smtpPort!)).toEqual({
      secure: true,
      protocol: 'TLSv1.3',
    });
  });

  test('a sender without TLS is still accepted by a listener that offers it', async () => {
    const principal = principalFor(await createAccount(tlsApp.app));
    const session = await openSession(ctxOf(tlsApp.app), principal, { channel: 'email_otp' });
    const info = await nodemailer
      .createTransport({ host: '127.0.0.1', port: tlsApp.app.smtpPort!, ignoreTLS: true })
      .sendMail({ from: 'a@acme.example', to: session.inboxAddress!, text: 'Code: 118822' });
    expect(info.accepted).toEqual([session.inboxAddress]);
  });

  test('without the variables STARTTLS is not advertised and a requireTLS client gives up', async () => {
    const extensions = await advertised(plainApp.app.smtpPort!);
    expect(extensions).toContain('8BITMIME');
    expect(extensions).not.toContain('STARTTLS');
    const principal = principalFor(await createAccount(plainApp.app));
    const session = await openSession(ctxOf(plainApp.app), principal, { channel: 'email_otp' });
    const refused = nodemailer
      .createTransport({ host: '127.0.0.1', port: plainApp.app.smtpPort!, requireTLS: true })
      .sendMail({ from: 'a@acme.example', to: session.inboxAddress!, text: 'Code: 118822' });
    await expect(refused).rejects.toMatchObject({ code: 'ETLS' });
  });
});

describe('bad TLS files stop the start', () => {
  const base = { DATA_DIR: dir };
  test.each([
    [
      'a missing certificate',
      { SMTP_TLS_CERT: path.join(dir, 'nope.crt'), SMTP_TLS_KEY: keyPath },
      `SMTP_TLS_CERT: cannot read ${path.join(dir, 'nope.crt')} (ENOENT)`,
    ],
    [
      'a missing key',
      { SMTP_TLS_CERT: certPath, SMTP_TLS_KEY: path.join(dir, 'nope.key') },
      `SMTP_TLS_KEY: cannot read ${path.join(dir, 'nope.key')} (ENOENT)`,
    ],
    [
      'a key file given as the certificate',
      { SMTP_TLS_CERT: keyPath, SMTP_TLS_KEY: keyPath },
      `SMTP_TLS_CERT: ${keyPath} holds no PEM certificate`,
    ],
    [
      'a key of another certificate',
      { SMTP_TLS_CERT: certPath, SMTP_TLS_KEY: otherKeyPath },
      `SMTP_TLS_KEY: ${otherKeyPath} is not a PEM private key for the certificate in ${certPath}`,
    ],
    [
      'only one of the two',
      { SMTP_TLS_CERT: certPath },
      'SMTP_TLS_CERT and SMTP_TLS_KEY must be set together',
    ],
  ])('%s', (_name, env, message) => {
    expect(() => loadConfig({ ...base, ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, ...env })).toThrow(message);
  });

  test('the real process exits 78 with one line naming the variable', async () => {
    const child = spawn(process.execPath, ['src/main.ts'], {
      env: {
        ...process.env,
        DATA_DIR: dir,
        PORT: '0',
        SMTP_TLS_CERT: path.join(dir, 'nope.crt'),
        SMTP_TLS_KEY: keyPath,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(78);
    expect(stderr.trim()).toBe(
      `latchkey: configuration error: SMTP_TLS_CERT: cannot read ${path.join(dir, 'nope.crt')} (ENOENT)`,
    );
  });
});
