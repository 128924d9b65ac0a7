// The headless Chromium the e2e tests drive (Debian's, through playwright-core), and where their
// screenshots go.
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
export const ARTIFACTS = join(ROOT, 'test-artifacts');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// CI installs Chromium (.ci/run), so there a missing browser fails the run; elsewhere it skips.
export const runBrowser = existsSync(CHROMIUM) || process.env.CI === 'true';

/** A screenshot of the page as it stands, into ARTIFACTS under `name`. */
export const shot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, name) });

/** Chromium's flags for every test: headless, quiet, nothing fetched or updated in the background. */
const USUAL_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
];

/** Makes the screenshot folder and starts Chromium headless; extraArgs add to the usual flags. */
export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const args = [...USUAL_FLAGS, ...extraArgs.filter((a) => !USUAL_FLAGS.includes(a))];
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args });
}

// Launching Chromium costs about a second of CPU, and so does closing it. The files of the
// `runtime` vitest project keep this module from file to file (isolate: false), so those that
// need only the usual flags share one Chromium per worker; playwright ends it when the worker exits.
let workerBrowser: Promise<Browser> | undefined;

/**
 * A Chromium for a test file: the worker's shared one when `extraArgs` add nothing to the usual
 * flags, else one of the file's own. Give it back with releaseBrowser() once the file is done.
 */
export function fileBrowser(extraArgs: string[] = []): Promise<Browser> {
  if (extraArgs.some((a) => !USUAL_FLAGS.includes(a))) return launchBrowser(extraArgs);
  workerBrowser ??= launchBrowser().catch((err) => {
    workerBrowser = undefined;
    throw err;
  });
  return workerBrowser;
}

/**
 * Ends a file's use of a browser from fileBrowser(): the worker's shared one loses the file's
 * contexts (its pages, cookies and storage), so the next file starts from nothing; one of the
 * file's own is closed.
 */
export async function releaseBrowser(browser: Browser | undefined): Promise<void> {
  if (!browser) return;
  if (workerBrowser && browser === (await workerBrowser.catch(() => undefined))) {
    await Promise.all(browser.contexts().map((c) => c.close()));
  } else {
    await browser.close();
  }
}

/**
 * What went wrong on a page, as it happens: console errors (CSP violations included), uncaught
 * errors and, with `responses`, answers of 400 and above. A clean run leaves the list empty. The
 * browser's own guess at /favicon.ico is not the page's and is left out.
 */
export function watchProblems(page: Page, opts: { responses?: boolean } = {}): string[] {
  const problems: string[] = [];
  const favicon = (url: string) => url.endsWith('/favicon.ico');
  page.on('console', (m) => {
    const at = m.location().url;
    if (m.type() === 'error' && !favicon(at)) problems.push(`${m.text()} ${at}`);
  });
  page.on('pageerror', (e) => problems.push(e.message));
  if (opts.responses)
    page.on('response', (r) => {
      if (r.status() >= 400 && !favicon(r.url())) problems.push(`${r.status()} ${r.url()}`);
    });
  return problems;
}
