// Signing: the two figures the signing work is judged by.
//
// - complete: the signer API's `POST /sign/api/complete` for a document with 40 fields, all the
//   one embedded signer's and all required. Per bundle: created over the API, an embedded URL,
//   a session, the 40 values in one `PUT /sign/api/values` (timed too, as context), then the
//   complete call alone is timed. One call at a time, so the figure is the call's own latency;
//   the work it leaves behind (events, emails, the final documents sealed) is waited out before
//   the next bundle, since here it runs in the same process as the next call (on AWS it has
//   Lambdas of its own) and would be timed with it.
// - first page: a real 20-page PDF opened in headless Chromium (Debian's, driven by
//   playwright-core) through a fresh embedded URL in a fresh browser context (cold cache, as a
//   signer's first visit): from navigation start to the moment the first page frame gets the
//   class `rendered` (pdf.js has drawn it), read from performance.now() inside the page by a
//   MutationObserver installed before the page's own scripts run. Measured for a bundle in English
//   and one in Arabic (right to left, its catalog loaded, Arabic words laid out), runs alternating,
//   so the ratio of the two p50s says what a signer's language costs the first page.
//
// Each figure has a yardstick measured in the same run (bench/signing-baseline.ts), since the
// absolute figures say more about the machine than about the service: the first page beside
// pdf.js alone drawing the same page in a bare page in the same Chromium (runs alternating with
// the signing page's), answered with the signing page's own security headers (and, in the same
// rounds, without them, so what the headers cost is reported too), and complete beside one
// DynamoDB write of as many items as it has fields on the same stand-in (just before each complete, in the same quiet runtime). Each ratio, ours ÷ yardstick, has the goal ≤ 1.3:
// the page's own code, catalogs and fonts, and the finish's work besides its write, cost at most
// 30 % over the work nobody can avoid.
//
// The service runs in a process of its own, as deployed: the whole local runtime (API, stand-ins)
// in one child process, the bare page's server in another (bench/signing-servers.ts), so neither
// shares a CPU queue with Playwright's driver or the bench's clients, and both pages are served
// alike. Seeding goes over the runtime's HTTP API. The complete's yardstick stays symmetric with
// the call: the bench's own DynamoDB client (made as the service makes its) sends the write over
// loopback to the child's DynamoDB stand-in, the same endpoint and table the service writes to,
// timed from the bench's side as the complete call is.
//
// A wrong answer (a status, a page that did not render, an error thrown in the page) fails the run.

import { existsSync } from 'node:fs';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { PDFDocument, type PDFFont, StandardFonts } from 'pdf-lib';
import type { Browser, BrowserContext } from 'playwright-core';
import type { TServerChild } from './child-process';
import { mark, ms, table } from './format';
import { answerOf, serviceClients } from './http';
import { CPU_PARTS, cpuBelow, cpuPartsP50, cpuSince, type TCpuPart, type TCpuSpent } from './machine-cpu';
import { standInClient, timeOneWrite } from './signing-baseline';
import { startBareChild, startRuntimeChild, type TBareServing } from './signing-servers';
import { percentile, round } from './stats';

export interface TSigningOptions {
  /** Bundles completed before measuring, not counted. */
  completeWarmup?: number;
  completeRuns?: number;
  /** Page loads before measuring, not counted. */
  renderWarmup?: number;
  renderRuns?: number;
  renderPages?: number;
  /** The whole section; what is not done by then is left out (and said so). */
  phaseMaxMs?: number;
  /** Where Chromium is; CHROMIUM_PATH, else Debian's. */
  chromiumPath?: string;
}

export interface TTimings {
  runs: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface TCompleteFigures {
  fields: number;
  /** Field kinds and how many of each. */
  mix: Record<string, number>;
  warmup: number;
  complete: TTimings;
  /** The yardstick: one write of `fields` items (bench/signing-baseline.ts) on the same DynamoDB stand-in. */
  oneWrite: TTimings;
  put: TTimings;
  /** Fewer runs than asked for: the section's time was up. */
  timedOut: boolean;
}

export interface TFirstPageFigures {
  pages: number;
  pdfBytes: number;
  warmup: number;
  browser: string;
  /** Navigation start → first `.page.rendered`, performance.now() in the page. */
  firstPage: TTimings;
  /**
   * The same, in the warm-up rounds before it: the runtime and the browser just started, the
   * service's code on the page's path not yet compiled by V8's optimizing tiers. Reported beside
   * the counted figure, never in its place.
   */
  warmingUp: TTimings;
  /**
   * Navigation start → the second animation frame after it (same clock): the frame that shows the
   * drawn page has been painted by then, whatever the page painted or held back before it.
   */
  shown: TTimings;
  /** Navigation start → DOMContentLoaded, same clock: how much of it is the page itself. */
  domContentLoadedP50Ms: number;
  /** Navigation start → the first document's bytes in the page (its mark), same clock. */
  bytesInHand: TTimings;
  /** The page's bytes mark → its first page drawn, per load: what the page does with the bytes. */
  bytesToRendered: TTimings;
  /** Node's clock, from before page.goto to the page's call saying its first frame was drawn (CDP included). */
  wallP50Ms: number;
  /**
   * The CPU time of the same span, every process the bench started (bench/machine-cpu.ts): no
   * run where /proc does not tell.
   */
  cpu: TTimings;
  /** The p50 of each part of that CPU time (bench/machine-cpu.ts), where /proc tells. */
  cpuParts: Record<TCpuPart, number>;
  timedOut: boolean;
}

export interface TSigningFigures {
  complete: TCompleteFigures;
  /** The bundle in English; null when there is no Chromium to run. */
  firstPage: TFirstPageFigures | null;
  /** The same document in a bundle in Arabic, measured alternately with the English one. */
  firstPageAr: TFirstPageFigures | null;
  /**
   * The yardstick: pdf.js alone drawing the same first page in a bare page, alternating with them,
   * answered with the signing page's security headers (bench/signing-baseline.ts).
   */
  firstPageBaseline: TFirstPageFigures | null;
  /** The same bare page without those headers, in the same rounds: what they cost pdf.js alone. */
  firstPagePlain: TFirstPageFigures | null;
  skipped?: string;
  failures: string[];
}

/**
 * A first page's time split at the document's bytes, load by load (`first[i]` and `bytes[i]` of
 * the same load; a load without the mark is left out of both). Pure.
 */
export function splitAtBytes(first: readonly number[], bytes: readonly number[]) {
  const loads = first
    .map((f, i) => [f, bytes[i] ?? Number.NaN] as const)
    .filter(([, b]) => Number.isFinite(b));
  return {
    bytesInHand: timings(loads.map(([, b]) => b)),
    bytesToRendered: timings(loads.map(([f, b]) => f - b)),
  };
}

/** p50/p99/max of a sample; NaN for an empty one. Pure. */
export function timings(samplesMs: readonly number[]): TTimings {
  const n = samplesMs.length;
  return {
    runs: n,
    p50Ms: n > 0 ? percentile(samplesMs, 50) : Number.NaN,
    p99Ms: n > 0 ? percentile(samplesMs, 99) : Number.NaN,
    maxMs: n > 0 ? Math.max(...samplesMs) : Number.NaN,
  };
}

export interface TBenchField {
  key: string;
  kind: string;
  label: string;
  page: number;
  x: number;
  y: number;
  w: number;
  h: number;
  editors: string[];
  format?: string;
}

/** The 40-field mix: kind → count. */
export const FIELD_MIX: Readonly<Record<string, number>> = {
  inp: 10,
  txt: 5,
  dat: 5,
  chk: 5,
  sel: 5,
  sig: 5,
  ini: 5,
};

/**
 * Fields of `mix` for `signer`, all required (editors without the `-` prefix), laid out on a
 * grid of 4 columns over `pages` pages (x, y, w, h in percent of the page). Pure.
 */
export function benchFields(signer: string, mix = FIELD_MIX, pages = 1): TBenchField[] {
  const out: TBenchField[] = [];
  for (const [kind, count] of Object.entries(mix)) {
    for (let i = 1; i <= count; i++) {
      const n = out.length;
      const perPage = Math.ceil(Object.values(mix).reduce((a, b) => a + b, 0) / pages);
      const slot = n % perPage;
      out.push({
        key: `${kind}_${i}`,
        kind,
        label: `${kind} ${i}`,
        page: Math.floor(n / perPage) + 1,
        x: 4 + (slot % 4) * 24,
        y: 4 + Math.floor(slot / 4) * (90 / Math.ceil(perPage / 4)),
        w: kind === 'chk' ? 3 : 20,
        h: kind === 'chk' ? 3 : 4,
        editors: [signer],
        ...(kind === 'sel' ? { format: 'A|B|C' } : {}),
      });
    }
  }
  return out;
}

/** A valid value for a field, as the signing page would send it (marks typed). Pure. */
export function benchValue(f: TBenchField): string {
  switch (f.kind) {
    case 'txt':
      return `Free text for ${f.key},\nover two lines.`;
    case 'dat':
      return '2027-01-15';
    case 'chk':
      return 'true';
    case 'sel':
      return 'B';
    case 'sig':
    case 'ini':
      return 'typed:Ann';
    default:
      return `Value of ${f.key}`;
  }
}

/** A valid value for each field, as the signing page would send it. Pure. */
export function benchValues(docKey: string, fields: readonly TBenchField[]) {
  return fields.map((f) => ({ doc_key: docKey, field_key: f.key, value: benchValue(f) }));
}

const LOREM = 'The tenant agrees to keep the premises in good order and to report any damage without delay. ';

/** A real PDF: `pages` Letter pages, each with a heading and a page of text lines. */
async function textPdf(pages: number, title: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font: PDFFont = await doc.embedFont(StandardFonts.Helvetica);
  const bold: PDFFont = await doc.embedFont(StandardFonts.HelveticaBold);
  for (let n = 1; n <= pages; n++) {
    const page = doc.addPage([612, 792]);
    page.drawText(`${title}, page ${n} of ${pages}`, { x: 72, y: 720, size: 18, font: bold });
    for (let line = 0; line < 36; line++) {
      const text = `${n}.${line + 1} ${LOREM}`.slice(0, 92);
      page.drawText(text, { x: 72, y: 690 - line * 16, size: 10, font });
    }
  }
  return doc.save();
}

/** The flags test/e2e/signing.e2e.test.ts launches Chromium with (no fake camera needed here). */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Runs in the page before its scripts: notes performance.now() when a page frame is first drawn
 * and again two animation frames later (shown: the frame that shows it is painted by then), and
 * calls the bench's binding (DONE_BINDING) once a frame is shown or failed. The signing page
 * marks a frame drawn or failed by adding a class to it (public/viewer.js, view.js), so the probe
 * hears of class changes only, and looks only at the element each change names: its own work
 * must not grow with the page it measures (hearing of every node the page adds, and searching
 * each, cost the page's thread a few milliseconds a load).
 */
const FIRST_RENDERED_PROBE = `(() => {
  const done = () => window.__benchDone && window.__benchDone();
  new MutationObserver((records) => {
    for (const r of records) {
      const el = r.target;
      if (!el.classList.contains('page')) continue;
      if (el.classList.contains('rendered') && window.__benchFirstRendered === undefined) {
        window.__benchFirstRendered = performance.now();
        requestAnimationFrame(() => requestAnimationFrame(() => {
          window.__benchShown = performance.now();
          done();
        }));
      } else if (el.classList.contains('failed')) {
        done();
      }
    }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['class'] });
})();`;

/**
 * Resolves once the page calls the binding `__benchDone` (its first frame drawn or failed; the
 * bare page calls it too), or rejects after RENDER_STEP_MS. The bench waits on that call rather
 * than asking the page: Playwright's waitForSelector runs its query over the whole document at
 * every animation frame, on the page's main thread (about 50 ms of a signing page's load in a
 * CPU profile of the page), so the wait weighed on the figures it waited for.
 */
async function whenDone(context: BrowserContext): Promise<() => Promise<void>> {
  let called = () => {};
  const seen = new Promise<void>((resolve) => {
    called = resolve;
  });
  await context.exposeBinding('__benchDone', () => called());
  return async () => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('no page frame drawn or failed in time')), RENDER_STEP_MS);
    });
    try {
      await Promise.race([seen, late]);
    } finally {
      clearTimeout(timer);
    }
  };
}

const RENDER_STEP_MS = 30_000;
/**
 * The mark the signing page makes when its first document's bytes are in hand
 * (public/early-session.js), as the bare page does: the first page's time splits there.
 */
const BYTES_MARK = 'esign:first-document-bytes';
const SIGNER = 'ann';

export async function benchSigning(opts: TSigningOptions = {}): Promise<TSigningFigures> {
  const completeWarmup = opts.completeWarmup ?? 3;
  const completeRuns = opts.completeRuns ?? 40;
  const renderWarmup = opts.renderWarmup ?? 1;
  const renderRuns = opts.renderRuns ?? 8;
  const renderPages = opts.renderPages ?? 20;
  const deadline = Date.now() + (opts.phaseMaxMs ?? 180_000);
  const chromiumPath = opts.chromiumPath ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  const failures: string[] = [];

  const runtimeChild = await startRuntimeChild();
  const runtime = runtimeChild.serving;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 2 });
  const db = standInClient(runtime.dynamodbEndpoint, runtime.tableName);
  let browser: Browser | undefined;
  let bare: TServerChild<TBareServing> | undefined;
  try {
    const { api, signApi } = serviceClients(runtime.baseUrl, runtime.apiKey, agent);

    /** A bundle with one embedded signer and one document; answers its packet's embedded URL. */
    const embeddedBundle = async (label: string, pdfB64: string, fields: TBenchField[], language = 'en') => {
      const created = answerOf(
        'POST /bundles/',
        await api('POST', '/bundles/', {
          label,
          language,
          packets: [{ key: SIGNER, name: 'Ann Lee', email: 'ann@example.com', deliver_via: 'embed' }],
          documents: [{ key: 'doc', file_b64: pdfB64, fields }],
        }),
        201,
      ) as { id: string; packets: { id: string }[] };
      const packetId = created.packets[0]!.id;
      const embed = answerOf(
        'POST /packets/{id}/embed_url/',
        await api('POST', `/packets/${packetId}/embed_url/`),
        201,
      ) as { url: string };
      return { url: embed.url, bundleId: created.id };
    };

    /** Waits until a completed bundle's final documents are made: the work a finish leaves behind. */
    const docsReady = async (bundleId: string) => {
      const until = Date.now() + RENDER_STEP_MS;
      while (Date.now() < until) {
        const b = answerOf('GET /bundles/{id}/', await api('GET', `/bundles/${bundleId}/`), 200) as {
          docs_ready?: boolean;
        };
        if (b.docs_ready === true) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`bundle ${bundleId}: documents not ready after ${RENDER_STEP_MS / 1000} s`);
    };

    // 1. Complete with 40 fields, one call at a time.
    const fields = benchFields(SIGNER);
    const values = benchValues('doc', fields);
    const formPdf = Buffer.from(await textPdf(2, 'Signing bench form')).toString('base64');
    const completeMs: number[] = [];
    const writeMs: number[] = [];
    const putMs: number[] = [];
    let completeTimedOut = false;
    for (let i = 0; i < completeWarmup + completeRuns; i++) {
      if (Date.now() >= deadline) {
        completeTimedOut = true;
        break;
      }
      try {
        const { url, bundleId } = await embeddedBundle(`Signing bench ${i + 1}`, formPdf, fields);
        const token = new URL(url).pathname.split('/').pop()!;
        const opened = answerOf(
          'POST /sign/api/session',
          await signApi('POST', '/session', undefined, { token }),
          201,
        );
        const session = String(opened.session);
        const t0 = performance.now();
        const put = await signApi('PUT', '/values', session, { values });
        const t1 = performance.now();
        const state = answerOf('PUT /sign/api/values', put, 200) as { fields: { value?: string }[] };
        const filled = state.fields.filter((f) => f.value !== undefined && f.value !== '').length;
        if (filled !== fields.length) {
          throw new Error(`PUT /sign/api/values: ${filled} of ${fields.length} fields filled after it`);
        }
        // The yardstick just before, on the same quiet stand-in, so a busy moment of the machine
        // weighs on both alike.
        const oneWrite = await timeOneWrite(db, runtime.tableName, fields.length);
        const t2 = performance.now();
        const completed = await signApi('POST', '/complete', session, { consent: true });
        const t3 = performance.now();
        const after = answerOf('POST /sign/api/complete', completed, 200) as {
          bundle: { status: string };
          packet: { status: string };
        };
        if (after.packet.status !== 'co' || after.bundle.status !== 'co') {
          throw new Error(
            `POST /sign/api/complete: packet ${after.packet.status}, bundle ${after.bundle.status} (want co)`,
          );
        }
        await docsReady(bundleId);
        if (i >= completeWarmup) {
          putMs.push(t1 - t0);
          completeMs.push(t3 - t2);
          writeMs.push(oneWrite);
        }
      } catch (err) {
        failures.push(`complete run ${i + 1}: ${err instanceof Error ? err.message : String(err)}`);
        // One wrong answer is enough to fail the run; the rest would likely repeat it.
        break;
      }
    }

    const complete: TCompleteFigures = {
      fields: fields.length,
      mix: { ...FIELD_MIX },
      warmup: completeWarmup,
      complete: timings(completeMs),
      oneWrite: timings(writeMs),
      put: timings(putMs),
      timedOut: completeTimedOut,
    };

    // 2. First rendered page of a 20-page document.
    if (!existsSync(chromiumPath)) {
      return {
        complete,
        firstPage: null,
        firstPageAr: null,
        firstPageBaseline: null,
        firstPagePlain: null,
        skipped: 'no chromium',
        failures,
      };
    }
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: chromiumPath,
      headless: true,
      args: CHROMIUM_ARGS,
      timeout: RENDER_STEP_MS,
    });
    const bigPdf = await textPdf(renderPages, 'Signing bench agreement');
    const bigB64 = Buffer.from(bigPdf).toString('base64');
    bare = await startBareChild(bigPdf);
    const bigFields: TBenchField[] = [
      { key: 'name', kind: 'inp', label: 'Name', page: 1, x: 12, y: 80, w: 30, h: 4, editors: [SIGNER] },
      { key: 'agree', kind: 'chk', label: 'I agree', page: 2, x: 12, y: 80, w: 3, h: 3, editors: [SIGNER] },
      {
        key: 'sig',
        kind: 'sig',
        label: 'Signature',
        page: renderPages,
        x: 12,
        y: 85,
        w: 30,
        h: 5,
        editors: [SIGNER],
      },
    ];
    type TLanguageRuns = {
      first: number[];
      warm: number[];
      shown: number[];
      dcl: number[];
      wall: number[];
      bytes: number[];
      cpu: TCpuSpent[];
    };
    const runsOf = (): TLanguageRuns => ({
      first: [],
      warm: [],
      shown: [],
      dcl: [],
      wall: [],
      bytes: [],
      cpu: [],
    });
    const measured: Record<'en' | 'ar' | 'bare' | 'plain', TLanguageRuns> = {
      en: runsOf(),
      ar: runsOf(),
      bare: runsOf(),
      plain: runsOf(),
    };
    /** One load's figures into its page's runs: the warm-up's first page only, else all of them. */
    const record = (
      runs: TLanguageRuns,
      counted: boolean,
      inPage: { first: number; shown: number; dcl: number; bytes: number },
      wall: number,
      cpu: TCpuSpent | undefined,
    ) => {
      if (!counted) {
        runs.warm.push(inPage.first);
        return;
      }
      runs.first.push(inPage.first);
      runs.shown.push(inPage.shown);
      runs.dcl.push(inPage.dcl);
      runs.bytes.push(inPage.bytes);
      runs.wall.push(wall);
      if (cpu) runs.cpu.push(cpu);
    };
    /** The width in device pixels the signing page drew its first page at; the bare page draws the same. */
    let drawnWidth = 0;
    let renderTimedOut = false;
    /** One page load of the document in a bundle in `language`, in a fresh context. */
    const renderOnce = async (i: number, language: 'en' | 'ar', counted: boolean) => {
      const context = await browser!.newContext({ viewport: { width: 1280, height: 800 } });
      try {
        const { url } = await embeddedBundle(`Signing bench render ${i + 1}`, bigB64, bigFields, language);
        await context.addInitScript(FIRST_RENDERED_PROBE);
        const drawn = await whenDone(context);
        const page = await context.newPage();
        const pageErrors: string[] = [];
        page.on('pageerror', (e) => pageErrors.push(e.message));
        const cpu0 = cpuBelow();
        const t0 = performance.now();
        const answer = await page.goto(url, { waitUntil: 'commit', timeout: RENDER_STEP_MS });
        if (answer?.status() !== 200) throw new Error(`GET /sign/<token>: HTTP ${answer?.status()}`);
        await drawn();
        const t1 = performance.now();
        const cpu = cpuSince(cpu0);
        if ((await page.locator('.page.failed').count()) > 0) {
          throw new Error('the page showed a document page as failed');
        }
        const inPage = await page.evaluate((bytesMark) => {
          const w = globalThis as unknown as {
            __benchFirstRendered?: number;
            __benchShown?: number;
            performance: {
              getEntriesByType(t: string): { domContentLoadedEventEnd?: number }[];
              getEntriesByName(n: string): { startTime: number }[];
            };
            document: { documentElement: { lang: string } };
          };
          return {
            first: w.__benchFirstRendered ?? Number.NaN,
            shown: w.__benchShown ?? Number.NaN,
            dcl: w.performance.getEntriesByType('navigation')[0]?.domContentLoadedEventEnd ?? Number.NaN,
            bytes: w.performance.getEntriesByName(bytesMark)[0]?.startTime ?? Number.NaN,
            lang: w.document.documentElement.lang,
            width: (
              w.document as unknown as { querySelector(s: string): { width: number } | null }
            ).querySelector('.page.rendered canvas')?.width,
          };
        }, BYTES_MARK);
        drawnWidth = inPage.width ?? drawnWidth;
        if (inPage.lang !== language) throw new Error(`the page speaks "${inPage.lang}", not "${language}"`);
        const frames = await page.locator('.page').count();
        if (frames !== renderPages)
          throw new Error(`the page shows ${frames} page frames, not ${renderPages}`);
        if (!Number.isFinite(inPage.first)) throw new Error('the in-page probe saw no rendered page');
        if (pageErrors.length > 0) throw new Error(`error in the page: ${pageErrors[0]}`);
        record(measured[language], counted, inPage, t1 - t0, cpu);
      } finally {
        await context.close();
      }
    };
    /**
     * One page load of the bare page: pdf.js alone drawing the same first page, in a fresh context;
     * with the signing page's security headers (bare) or without (plain).
     */
    const renderBare = async (kind: 'bare' | 'plain', counted: boolean) => {
      const context = await browser!.newContext({ viewport: { width: 1280, height: 800 } });
      try {
        const drawn = await whenDone(context);
        const page = await context.newPage();
        const pageErrors: string[] = [];
        page.on('pageerror', (e) => pageErrors.push(e.message));
        const cpu0 = cpuBelow();
        const t0 = performance.now();
        const served = kind === 'bare' ? bare!.serving.url : bare!.serving.plainUrl;
        const answer = await page.goto(`${served}?width=${drawnWidth}`, {
          waitUntil: 'commit',
          timeout: RENDER_STEP_MS,
        });
        if (answer?.status() !== 200) throw new Error(`GET bare.html: HTTP ${answer?.status()}`);
        await drawn();
        const t1 = performance.now();
        const cpu = cpuSince(cpu0);
        const inPage = await page.evaluate((bytesMark) => {
          const w = globalThis as unknown as {
            __benchFirstRendered?: number;
            __benchShown?: number;
            performance: {
              getEntriesByType(t: string): { domContentLoadedEventEnd?: number }[];
              getEntriesByName(n: string): { startTime: number }[];
            };
          };
          return {
            first: w.__benchFirstRendered ?? Number.NaN,
            shown: w.__benchShown ?? Number.NaN,
            dcl: w.performance.getEntriesByType('navigation')[0]?.domContentLoadedEventEnd ?? Number.NaN,
            bytes: w.performance.getEntriesByName(bytesMark)[0]?.startTime ?? Number.NaN,
          };
        }, BYTES_MARK);
        if (!Number.isFinite(inPage.first)) throw new Error('the bare page noted no rendered page');
        if (pageErrors.length > 0) throw new Error(`error in the bare page: ${pageErrors[0]}`);
        record(measured[kind], counted, inPage, t1 - t0, cpu);
      } finally {
        await context.close();
      }
    };
    renders: for (let i = 0; i < renderWarmup + renderRuns; i++) {
      // Alternating, so a busy moment of the machine weighs on both languages and the yardstick alike.
      for (const language of ['en', 'ar', 'bare', 'plain'] as const) {
        if (Date.now() >= deadline) {
          renderTimedOut = true;
          break renders;
        }
        try {
          if (language === 'bare' || language === 'plain') await renderBare(language, i >= renderWarmup);
          else await renderOnce(i, language, i >= renderWarmup);
        } catch (err) {
          failures.push(
            `first page run ${i + 1} (${language}): ${err instanceof Error ? err.message : String(err)}`,
          );
          break renders;
        }
      }
    }
    const figuresOf = (runs: TLanguageRuns): TFirstPageFigures => ({
      pages: renderPages,
      pdfBytes: bigPdf.length,
      warmup: renderWarmup,
      browser: `Chromium ${browser!.version()}`,
      firstPage: timings(runs.first),
      warmingUp: timings(runs.warm),
      shown: timings(runs.shown.filter(Number.isFinite)),
      domContentLoadedP50Ms: timings(runs.dcl.filter(Number.isFinite)).p50Ms,
      ...splitAtBytes(runs.first, runs.bytes),
      wallP50Ms: timings(runs.wall).p50Ms,
      cpu: timings(runs.cpu.map((c) => c.total)),
      cpuParts: cpuPartsP50(runs.cpu),
      timedOut: renderTimedOut,
    });
    return {
      complete,
      firstPage: figuresOf(measured.en),
      firstPageAr: figuresOf(measured.ar),
      firstPageBaseline: { ...figuresOf(measured.bare), pdfBytes: bigPdf.length },
      firstPagePlain: { ...figuresOf(measured.plain), pdfBytes: bigPdf.length },
      failures,
    };
  } finally {
    await browser?.close();
    await bare?.stop();
    agent.destroy();
    db.destroy();
    await runtimeChild.stop();
  }
}

/** Whether the run must fail: a wrong answer, or no figure at all. */
export const signingFailed = (f: TSigningFigures) =>
  f.failures.length > 0 ||
  f.complete.complete.runs === 0 ||
  (f.firstPage !== null && f.firstPage.firstPage.runs === 0) ||
  (f.firstPageAr !== null && f.firstPageAr.firstPage.runs === 0) ||
  (f.firstPageBaseline !== null && f.firstPageBaseline.firstPage.runs === 0) ||
  (f.firstPagePlain !== null && f.firstPagePlain.firstPage.runs === 0);

/** The goal of both ratios, ours ÷ yardstick. */
export const RATIO_GOAL = 1.3;

/** p50 over p50 of one part of the first page (English) and pdf.js alone; null when a side has no run. */
const overPdfjsAlone = (
  f: TSigningFigures,
  part: 'firstPage' | 'warmingUp' | 'shown' | 'bytesToRendered' | 'cpu',
) => {
  const ours = f.firstPage?.[part];
  const bare = f.firstPageBaseline?.[part];
  return ours && bare && ours.runs > 0 && bare.runs > 0 ? ours.p50Ms / bare.p50Ms : null;
};

/** The first page's p50 (English) over pdf.js alone's: what the page itself costs over the renderer. */
export const firstPageRatio = (f: TSigningFigures) => overPdfjsAlone(f, 'firstPage');

/**
 * The first page's ratio in the warm-up rounds (p50s): the runtime and the browser just started.
 * What a signer meets on a service that has not yet served anyone; context, not the ratio's place.
 */
export const warmingUpRatio = (f: TSigningFigures) => overPdfjsAlone(f, 'warmingUp');

/**
 * The first page on the screen (English) over pdf.js alone's (p50s): the frame showing it painted.
 * The first page's ratio counts until pdf.js has drawn it; this one also counts what painting the
 * page around it still costs then, which a page that holds its paint back (public/opening.js)
 * pays after the drawing rather than before. Beside the ratio above, never lower in meaning.
 */
export const shownRatio = (f: TSigningFigures) => overPdfjsAlone(f, 'shown');

/**
 * From the document's bytes in hand to the first page drawn, ours (English) over pdf.js alone's
 * (p50s): the first page's ratio without the time each page takes to get the bytes (ours: the
 * session's exchange, the service's requests on the same machine; the bare page: a static file).
 * Context for the ratio above, not in its place.
 */
export const fromBytesRatio = (f: TSigningFigures) => overPdfjsAlone(f, 'bytesToRendered');

/**
 * The CPU time of a load, ours (English) over pdf.js alone's (p50s), every process the bench
 * started (bench/machine-cpu.ts). With every core busy through both loads, the first page's ratio
 * follows this one: what the page and its service cost the machine over the renderer alone,
 * whichever part of the load pays it. Context for the ratio above, not in its place.
 */
export const cpuRatio = (f: TSigningFigures) => overPdfjsAlone(f, 'cpu');

/**
 * pdf.js alone answered with the signing page's security headers over pdf.js alone without them
 * (first page p50s): what the headers themselves cost a page, chiefly the renderer process
 * Chromium starts for a page that sends Cross-Origin-Opener-Policy. Context, paid by both sides of
 * the first page's ratio.
 */
export const policyRatio = (f: TSigningFigures) => firstPageOver(f.firstPageBaseline, f.firstPagePlain);

/**
 * The first page (English) over pdf.js alone without the signing page's headers (p50s): the page
 * and its policy together over a plain static page. Context, not the ratio's place.
 */
export const overPlainRatio = (f: TSigningFigures) => firstPageOver(f.firstPage, f.firstPagePlain);

/** One page's first-page p50 over another's; null when either has no run. */
const firstPageOver = (a: TFirstPageFigures | null, b: TFirstPageFigures | null) =>
  a && b && a.firstPage.runs > 0 && b.firstPage.runs > 0 ? a.firstPage.p50Ms / b.firstPage.p50Ms : null;

/** Complete's p50 over one write of as many items: what the finish costs over its write. */
export const completeRatio = (f: TSigningFigures) =>
  f.complete.complete.runs > 0 && f.complete.oneWrite.runs > 0
    ? f.complete.complete.p50Ms / f.complete.oneWrite.p50Ms
    : null;

/** Arabic's first-page p50 over English's: what the signer's language costs the first page. */
export const arabicRatio = (f: TSigningFigures) =>
  f.firstPage && f.firstPageAr && f.firstPage.firstPage.runs > 0
    ? f.firstPageAr.firstPage.p50Ms / f.firstPage.firstPage.p50Ms
    : null;

/** The table `npm run bench` prints for signing. */
export function signingReport(f: TSigningFigures): string {
  const c = f.complete;
  const p = f.firstPage;
  const cut = (timedOut: boolean) => (timedOut ? '; cut short by the time bound' : '');
  const row = (name: string, t: TTimings, note: string) => [
    `  ${name}`,
    String(t.runs),
    ms(t.p50Ms),
    ms(t.p99Ms),
    ms(t.maxMs),
    note,
  ];
  const rows = [
    ['  figure', 'runs', 'p50', 'p99', 'max', ''],
    row(
      `POST /sign/api/complete, ${c.fields} fields`,
      c.complete,
      `one call at a time, the last one's work done, after ${c.warmup} warm-up${cut(c.timedOut)}`,
    ),
    row(
      `  yardstick: one DynamoDB write of ${c.fields} items`,
      c.oneWrite,
      `TransactWriteItems, one request, on the same stand-in, just before each complete`,
    ),
    p
      ? row(
          `first rendered page, ${p.pages}-page PDF, English`,
          p.firstPage,
          `${p.browser}, fresh context each, after ${p.warmup} warm-up${cut(p.timedOut)}`,
        )
      : [`  first rendered page`, '—', '—', '—', '—', `skipped: ${f.skipped ?? 'no chromium'}`],
    ...(f.firstPageAr
      ? [
          row(
            `first rendered page, ${f.firstPageAr.pages}-page PDF, Arabic`,
            f.firstPageAr.firstPage,
            `alternating with English; p50 Arabic/English ${arabicRatio(f)?.toFixed(2) ?? '—'}`,
          ),
        ]
      : []),
    ...(f.firstPageBaseline
      ? [
          row(
            `  yardstick: pdf.js alone, same first page`,
            f.firstPageBaseline.firstPage,
            `bare page served from its own process with the signing page's security headers, same pdfjs-dist and Chromium, alternating with the two above`,
          ),
        ]
      : []),
    ...(f.firstPagePlain
      ? [
          row(
            `  pdf.js alone without those headers`,
            f.firstPagePlain.firstPage,
            `the same bare page from the same server, in the same rounds; p50 with/without ${policyRatio(f)?.toFixed(2) ?? '—'}`,
          ),
        ]
      : []),
  ];
  const ratioLine = (name: string, r: number | null) =>
    `  ${name}: ${r === null ? '—' : `${r.toFixed(2)} (goal ≤ ${RATIO_GOAL} ${mark(r <= RATIO_GOAL)})`}`;
  const out = [
    '',
    'Signing (one embedded signer; the service in its own process, as deployed: the local runtime, apart from Chromium and its driver)',
    table(rows, ['l', 'r', 'r', 'r', 'r', 'l']),
    `  complete: latency of the call alone as the client sees it (loopback HTTP); context: the PUT of all ${c.fields} values ` +
      `p50 ${ms(c.put.p50Ms)}, p99 ${ms(c.put.p99Ms)}, max ${ms(c.put.maxMs)}.`,
    `  fields: ${Object.entries(c.mix)
      .map(([k, n]) => `${n} ${k}`)
      .join(', ')}; all required; sig/ini typed.`,
    ratioLine('complete ÷ one write (p50s)', completeRatio(f)),
    ratioLine('first page ÷ pdf.js alone (p50s, English)', firstPageRatio(f)),
    ratioLine('first page shown ÷ pdf.js alone (p50s, English)', shownRatio(f)),
    `  context: the first page ÷ pdf.js alone in the ${p?.warmup ?? 0} warm-up rounds before them (the runtime ` +
      `and the browser just started): ${warmingUpRatio(f)?.toFixed(2) ?? '—'}`,
    `  context: the first page ÷ pdf.js alone without the security headers (p50s, English): ` +
      `${overPlainRatio(f)?.toFixed(2) ?? '—'}; the headers alone cost pdf.js alone ` +
      `${policyRatio(f) === null ? '—' : `× ${policyRatio(f)!.toFixed(2)}`} (Cross-Origin-Opener-Policy: a renderer process of its own)`,
  ];
  if (p) {
    out.push(
      `  first page: navigation start → first page frame classed "rendered" (pdf.js drew it), performance.now() in the page;`,
      `  shown: the second animation frame after it (the frame showing it painted), p50 ${ms(p.shown.p50Ms)} ` +
        `(pdf.js alone: ${f.firstPageBaseline ? ms(f.firstPageBaseline.shown.p50Ms) : '—'}); the CPU and Node figures end there;`,
      `  context: DOMContentLoaded p50 ${ms(p.domContentLoadedP50Ms)}; in Node (performance.now() before page.goto → ` +
        `the page said its first frame was drawn) p50 ${ms(p.wallP50Ms)}; PDF ${(p.pdfBytes / 1024).toFixed(1)} KB.`,
    );
    const bare = f.firstPageBaseline;
    const r = fromBytesRatio(f);
    out.push(
      `  split at the document's bytes in the page (p50s, English): in hand at ${ms(p.bytesInHand.p50Ms)} ` +
        `(pdf.js alone: ${bare ? ms(bare.bytesInHand.p50Ms) : '—'}); from them to the drawn page ` +
        `${ms(p.bytesToRendered.p50Ms)} (pdf.js alone: ${bare ? ms(bare.bytesToRendered.p50Ms) : '—'}), ` +
        `÷ ${r === null ? '—' : r.toFixed(2)}`,
    );
    const c = cpuRatio(f);
    out.push(
      `  CPU per load (p50s, English; every process the bench started: Chromium's, and the service's or the bare page's server): ` +
        `${ms(p.cpu.p50Ms)} (pdf.js alone: ${bare ? ms(bare.cpu.p50Ms) : '—'}), ` +
        `÷ ${c === null ? '—' : c.toFixed(2)}; with every core busy through a load, the first page's ratio follows this one`,
    );
    if (p.cpu.runs > 0) {
      const parts = Object.keys(CPU_PARTS) as TCpuPart[];
      out.push(
        table(
          [
            ['    CPU per load by part (p50s)', 'English', 'pdf.js alone'],
            ...parts.map((part) => [
              `    ${CPU_PARTS[part]}`,
              ms(p.cpuParts[part]),
              bare ? ms(bare.cpuParts[part]) : '—',
            ]),
          ],
          ['l', 'r', 'r'],
        ),
      );
    }
  } else {
    out.push(`  first page: skipped: ${f.skipped ?? 'no chromium'}`);
  }
  for (const x of f.failures) out.push(`  FAILED ${x}`);
  return out.join('\n');
}

/** Each part's p50, rounded, in CPU_PARTS's order. */
const roundedParts = (parts: Record<TCpuPart, number>) =>
  Object.fromEntries((Object.keys(CPU_PARTS) as TCpuPart[]).map((part) => [part, round(parts[part])]));

/** results.json's `signing`: keys in a fixed order, figures rounded. */
export function signingJson(f: TSigningFigures) {
  const t = (x: TTimings) => ({
    runs: x.runs,
    p50Ms: round(x.p50Ms),
    p99Ms: round(x.p99Ms),
    maxMs: round(x.maxMs),
  });
  const p = f.firstPage;
  return {
    complete: {
      fields: f.complete.fields,
      mix: f.complete.mix,
      warmup: f.complete.warmup,
      concurrency: 1,
      complete: t(f.complete.complete),
      // The yardstick: one write of as many items (one TransactWriteItems), on the same stand-in.
      oneWrite: t(f.complete.oneWrite),
      put: t(f.complete.put),
    },
    firstRenderedPage: p
      ? {
          pages: p.pages,
          pdfBytes: p.pdfBytes,
          warmup: p.warmup,
          browser: p.browser,
          clock: 'performance.now() in the page, from navigation start',
          ...t(p.firstPage),
          shownP50Ms: round(p.shown.p50Ms),
          domContentLoadedP50Ms: round(p.domContentLoadedP50Ms),
          bytesInHandP50Ms: round(p.bytesInHand.p50Ms),
          bytesToRenderedP50Ms: round(p.bytesToRendered.p50Ms),
          wallP50Ms: round(p.wallP50Ms),
          cpuP50Ms: round(p.cpu.p50Ms),
          cpuPartsP50Ms: roundedParts(p.cpuParts),
        }
      : null,
    // The same document in a bundle in Arabic (right to left), runs alternating with the English.
    firstRenderedPageAr: f.firstPageAr
      ? {
          language: 'ar',
          runs: f.firstPageAr.firstPage.runs,
          p50Ms: round(f.firstPageAr.firstPage.p50Ms),
          p99Ms: round(f.firstPageAr.firstPage.p99Ms),
          maxMs: round(f.firstPageAr.firstPage.maxMs),
          domContentLoadedP50Ms: round(f.firstPageAr.domContentLoadedP50Ms),
          bytesInHandP50Ms: round(f.firstPageAr.bytesInHand.p50Ms),
          bytesToRenderedP50Ms: round(f.firstPageAr.bytesToRendered.p50Ms),
          cpuP50Ms: round(f.firstPageAr.cpu.p50Ms),
          cpuPartsP50Ms: roundedParts(f.firstPageAr.cpuParts),
        }
      : null,
    firstRenderedPageRatioArEn: arabicRatio(f) === null ? null : round(arabicRatio(f)!, 2),
    // The yardstick: pdf.js alone drawing the same first page in a bare page, same Chromium.
    firstRenderedPageBaseline: f.firstPageBaseline
      ? {
          runs: f.firstPageBaseline.firstPage.runs,
          p50Ms: round(f.firstPageBaseline.firstPage.p50Ms),
          p99Ms: round(f.firstPageBaseline.firstPage.p99Ms),
          maxMs: round(f.firstPageBaseline.firstPage.maxMs),
          shownP50Ms: round(f.firstPageBaseline.shown.p50Ms),
          domContentLoadedP50Ms: round(f.firstPageBaseline.domContentLoadedP50Ms),
          bytesInHandP50Ms: round(f.firstPageBaseline.bytesInHand.p50Ms),
          bytesToRenderedP50Ms: round(f.firstPageBaseline.bytesToRendered.p50Ms),
          cpuP50Ms: round(f.firstPageBaseline.cpu.p50Ms),
          cpuPartsP50Ms: roundedParts(f.firstPageBaseline.cpuParts),
        }
      : null,
    // The same bare page without the signing page's security headers, in the same rounds.
    firstRenderedPagePlain: f.firstPagePlain
      ? {
          runs: f.firstPagePlain.firstPage.runs,
          p50Ms: round(f.firstPagePlain.firstPage.p50Ms),
          p99Ms: round(f.firstPagePlain.firstPage.p99Ms),
          maxMs: round(f.firstPagePlain.firstPage.maxMs),
          cpuP50Ms: round(f.firstPagePlain.cpu.p50Ms),
        }
      : null,
    // Ours ÷ yardstick (p50s): the figures that mean the same on any machine.
    ratios: {
      goal: RATIO_GOAL,
      completeOverOneWrite: completeRatio(f) === null ? null : round(completeRatio(f)!, 2),
      firstPageOverPdfjsAlone: firstPageRatio(f) === null ? null : round(firstPageRatio(f)!, 2),
      // Context: the first page's, in the warm-up rounds (the runtime just started).
      warmingUpOverPdfjsAlone: warmingUpRatio(f) === null ? null : round(warmingUpRatio(f)!, 2),
      // The same, to the frame showing the page painted.
      shownOverPdfjsAlone: shownRatio(f) === null ? null : round(shownRatio(f)!, 2),
      // Context: the same, from the document's bytes in the page to the page drawn.
      fromBytesOverPdfjsAlone: fromBytesRatio(f) === null ? null : round(fromBytesRatio(f)!, 2),
      // Context: the CPU time of a load, every process the bench started, ours ÷ pdf.js alone.
      cpuOverPdfjsAlone: cpuRatio(f) === null ? null : round(cpuRatio(f)!, 2),
      // Context: the first page ÷ pdf.js alone without the security headers.
      firstPageOverPlainPdfjs: overPlainRatio(f) === null ? null : round(overPlainRatio(f)!, 2),
      // Context: pdf.js alone with the headers ÷ without: what the headers cost a page.
      policyOverPlain: policyRatio(f) === null ? null : round(policyRatio(f)!, 2),
    },
    failed: signingFailed(f),
  };
}
