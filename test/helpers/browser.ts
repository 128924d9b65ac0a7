// The headless Chromium the e2e tests drive (Debian's, through playwright-core), and where their
// screenshots go.
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
export const ARTIFACTS = join(ROOT, 'test-artifacts');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// CI installs Chromium (.ci/run), so there a missing browser fails the run; elsewhere it skips.
export const runBrowser = existsSync(CHROMIUM) || process.env.CI === 'true';

/** Makes the screenshot folder and starts Chromium headless; extraArgs add to the usual flags. */
export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      ...extraArgs,
    ],
  });
}
