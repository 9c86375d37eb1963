/**
 * Issue 13: the TypeScript SDK as a customer gets it. `npm pack ./sdks/typescript` (its prepack
 * builds dist/ with tsc) gives a tarball that installs into an empty folder; the README's quick
 * start type-checks against the installed types with `tsc` and runs on the machine's Node 20
 * against the live service. Also: the committed wire types equal a fresh generation from the
 * OpenAPI document.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { generateSdkTypes, sdkTypesPath } from '../../scripts/generate-sdk-types.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { apiKey, newAccount } from '../helpers/principals.ts';

const exec = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
// The machine's own Node 20 stands for a customer's older Node; the project's runs elsewhere.
const customerNode = existsSync('/usr/bin/node') ? '/usr/bin/node' : process.execPath;

let t: TestApp;
let folder: string;
beforeAll(async () => {
  t = await startTestApp();
  folder = await mkdtemp(path.join(tmpdir(), 'latchkey-sdk-customer-'));
});
afterAll(async () => {
  await t?.stop();
  if (folder) await rm(folder, { recursive: true, force: true });
});

test('the committed wire types are what openapi-typescript generates from the OpenAPI document', async () => {
  expect(await readFile(sdkTypesPath, 'utf8')).toBe(await generateSdkTypes());
});

test('the README quick start is the example file, verbatim', async () => {
  const example = await readFile(path.join(root, 'sdks/typescript/example/quick-start.ts'), 'utf8');
  const readme = await readFile(path.join(root, 'sdks/typescript/README.md'), 'utf8');
  expect(readme).toContain(`\`\`\`ts\n${example}\`\`\``);
});

test('npm pack gives a tarball that installs in an empty folder, type-checks the quick start and runs it on Node 20', async () => {
  const env = { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false' };
  const packed = await exec('npm', ['pack', './sdks/typescript', '--pack-destination', folder], {
    cwd: root,
    env,
  });
  const tarball = (await readdir(folder)).find((f) => f.endsWith('.tgz'));
  expect(tarball, packed.stdout + packed.stderr).toBe('latchkey-sdk-0.1.0.tgz');

  const customer = path.join(folder, 'customer');
  await exec('mkdir', ['-p', customer]);
  await writeFile(
    path.join(customer, 'package.json'),
    JSON.stringify({ name: 'customer', private: true, type: 'module' }),
  );
  await exec('npm', ['install', '--offline', '--no-audit', path.join(folder, tarball!)], {
    cwd: customer,
    env,
  });
  const installed = JSON.parse(
    await readFile(path.join(customer, 'node_modules/@latchkey/sdk/package.json'), 'utf8'),
  );
  expect(installed.dependencies ?? {}).toEqual({});

  await copyFile(
    path.join(root, 'sdks/typescript/example/quick-start.ts'),
    path.join(customer, 'quick-start.ts'),
  );
  await writeFile(
    path.join(customer, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'es2022',
        module: 'nodenext',
        moduleResolution: 'nodenext',
        strict: true,
        typeRoots: [path.join(root, 'node_modules/@types')],
        types: ['node'],
        skipLibCheck: false,
      },
      files: ['quick-start.ts'],
    }),
  );
  // tsc checks the example against the installed declarations and emits quick-start.js.
  await exec(path.join(root, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], { cwd: customer });

  const key = await apiKey(t, await newAccount(t));
  const ran = await exec(customerNode, ['quick-start.js'], {
    cwd: customer,
    env: { PATH: process.env.PATH, SERVICE_API_KEY: key, LATCHKEY_BASE_URL: t.baseUrl },
  });
  expect(ran.stdout).toContain('code: 246810');
}, 180_000);
