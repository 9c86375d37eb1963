/**
 * The README's walkthrough ("From `npm start` to the first code") is run as written: its
 * `<!-- walkthrough -->` blocks go, in order, into one bash shell (as into a person's terminal)
 * against the real process (`node src/main.ts`, what `npm start` runs) on the embedded database.
 * The step a person does in the browser (sign up, follow the verification link the service
 * logs, type the code on the claim page) is done here over HTTP, following the README's words:
 * the link is taken from the log line the README names.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { freePort } from './helpers/app.ts';
import { FormClient } from './helpers/form.ts';

const README_URL = 'http://localhost:8080';
const MAIL_LOG_LINE = 'outgoing mail (not sent: MAIL_SMTP_URL is unset)';

const dataDir = await mkdtemp(path.join(tmpdir(), 'latchkey-readme-'));
const processes: ChildProcess[] = [];
afterAll(async () => {
  for (const child of processes) child.kill('SIGKILL');
  await rm(dataDir, { recursive: true, force: true });
});

/** The fenced blocks that follow a `<!-- walkthrough… -->` marker, by marker. */
async function walkthroughBlocks() {
  const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
  const blocks = [...readme.matchAll(/<!-- (walkthrough(?:: \w+)?) -->\n```sh\n([\s\S]*?)```/g)];
  return {
    readme,
    service: blocks.filter((b) => b[1] === 'walkthrough: service').map((b) => b[2]!),
    commands: blocks.filter((b) => b[1] === 'walkthrough').map((b) => b[2]!),
  };
}

/** One long-lived bash, fed block after block; each run resolves with that block's output. */
class Shell {
  readonly #child = spawn('bash', ['--noprofile', '--norc'], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, LANG: 'C.UTF-8' },
  });
  #out = '';
  #err = '';
  #waiting: (() => void) | null = null;

  constructor() {
    processes.push(this.#child);
    this.#child.stdout.on('data', (chunk: Buffer) => {
      this.#out += chunk.toString();
      this.#waiting?.();
    });
    this.#child.stderr.on('data', (chunk: Buffer) => (this.#err += chunk.toString()));
  }

  run(block: string): Promise<{ stdout: string; stderr: string; status: number }> {
    const marker = `__block_${randomUUID()}__`;
    this.#out = '';
    this.#err = '';
    return new Promise((resolve, reject) => {
      this.#child.once('exit', (code) => reject(new Error(`the shell exited (${code})`)));
      this.#waiting = () => {
        const at = this.#out.indexOf(marker);
        if (at === -1) return;
        const status = Number(/^(\d+)/.exec(this.#out.slice(at + marker.length))?.[1]);
        if (Number.isNaN(status)) return;
        this.#waiting = null;
        resolve({ stdout: this.#out.slice(0, at), stderr: this.#err, status });
      };
      this.#child.stdin.write(`${block}\necho "${marker}$?"\n`);
    });
  }
}

function startService(port: number) {
  const lines: string[] = [];
  const child = spawn(process.execPath, ['src/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      MAIL_SMTP_URL: '',
      SMTP_PORT: '0',
      LOG_LEVEL: 'info',
      OTEL_EXPORTER_OTLP_ENDPOINT: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  processes.push(child);
  let buffer = '';
  const started = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const complete = buffer.split('\n');
      buffer = complete.pop()!;
      lines.push(...complete);
      if (complete.some((line) => line.includes('latchkey started'))) resolve();
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${lines.join('\n')}`)));
  });
  return { started, lines };
}

test('the README walkthrough, run as written, ends with the SMS code in the agent’s hands', async () => {
  const { readme, service, commands } = await walkthroughBlocks();
  expect(service).toEqual(['npm install && npm start\n']);
  expect(commands).toHaveLength(5);
  const [register, collect, open, send, wait] = commands as [string, ...string[]];
  // The blocks speak to the default address; this run's service has a port of its own.
  expect(register).toContain(`LATCHKEY=${README_URL}`);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const here = (block: string) => block.replaceAll(README_URL, baseUrl);

  const { started, lines } = startService(port);
  await started;
  const shell = new Shell();

  // 2. Register.
  const registered = await shell.run(here(register));
  expect(registered).toMatchObject({ status: 0, stderr: '' });
  const claim = JSON.parse(registered.stdout) as { open: string; type: string };
  expect(claim.open.startsWith(`${baseUrl}/console/claim?claim_attempt_token=cla_`)).toBe(true);
  expect(claim.type).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
  const email = (await shell.run('printf %s "$EMAIL"')).stdout;
  expect(email).toBe('you@example.com');

  // 3. The person, as the README tells them: sign up, the verification link from the log, claim.
  expect(readme).toContain(MAIL_LOG_LINE);
  const person = new FormClient(baseUrl);
  const signup = await person.submit('/console/signup', '/console/signup', {
    email,
    password: 'walkthrough password',
  });
  expect(signup.response.status).toBe(303);
  const mailLine = lines
    .map((line) => JSON.parse(line) as { msg: string; mail?: { to: string; link: string } })
    .find((line) => line.msg === MAIL_LOG_LINE && line.mail?.to === email);
  const verify = new URL(mailLine!.mail!.link);
  expect(verify.pathname).toBe('/console/verify');
  expect((await person.get(verify.pathname + verify.search)).response.status).toBe(200);
  const claimUrl = new URL(claim.open);
  const claimPage = await person.get(claimUrl.pathname + claimUrl.search);
  expect(claimPage.text).toMatch(/<button type="submit">Claim<\/button>/);
  const claimed = await person.post(
    '/console/claim',
    new URLSearchParams({
      _csrf: FormClient.csrf(claimPage.text),
      claim_attempt_token: claimUrl.searchParams.get('claim_attempt_token')!,
      code: claim.type,
    }).toString(),
  );
  expect(claimed.text).toContain('Agent connected');

  // 4–7. Token, session, SMS, wait.
  const tokens = await shell.run(here(collect!));
  expect(tokens.status).toBe(0);
  expect(JSON.parse(tokens.stdout)).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });

  const session = await shell.run(here(open!));
  expect(session.status).toBe(0);
  expect(JSON.parse(session.stdout)).toMatchObject({
    session_id: expect.stringMatching(/^ses_/),
    number: expect.stringMatching(/^\+\d+$/),
    state: 'active',
  });

  const sent = await shell.run(here(send!));
  expect(sent.status).toBe(0);
  expect(sent.stdout).not.toContain('"code"');

  const verdict = await shell.run(here(wait!));
  expect(verdict.status).toBe(0);
  expect(JSON.parse(verdict.stdout)).toEqual({ verdict: 'otp_code', otp_code: '428193' });
  expect(readme).toContain('The answer is `{"verdict": "otp_code", "otp_code": "428193"}`');

  // The agent's guide the walkthrough ends on goes on past registration to sessions and tools.
  const guide = await (await fetch(`${baseUrl}/agent/skill.md`)).text();
  for (const step of ['POST {base_url}/v1/sessions'.replace('{base_url}', baseUrl), '/wait']) {
    expect(guide).toContain(step);
  }
  expect(guide).toContain('open_challenge');
}, 120_000);
