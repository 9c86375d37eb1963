/**
 * Headless Chromium from Debian (never a downloaded browser build), driven by playwright-core.
 * The flags keep it off the network this machine does not have.
 */
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(executablePath)) {
    throw new Error(
      `Chromium not found at ${executablePath}: install the Debian package 'chromium' (.ci/run does)`,
    );
  }
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}
