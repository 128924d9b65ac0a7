import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CPU_PARTS, type TCpuPart } from '../../bench/machine-cpu';
import {
  benchFields,
  benchValues,
  completeRatio,
  cpuRatio,
  FIELD_MIX,
  firstPageRatio,
  fromBytesRatio,
  overPlainRatio,
  policyRatio,
  RATIO_GOAL,
  shownRatio,
  signingJson,
  signingReport,
  splitAtBytes,
  type TFirstPageFigures,
  type TSigningFigures,
  timings,
  warmingUpRatio,
} from '../../bench/signing';
import { startBareChild } from '../../bench/signing-servers';

describe('benchFields', () => {
  it('makes the 40-field mix, all required of the one signer, with distinct keys on the page', () => {
    const fields = benchFields('ann');
    expect(fields).toHaveLength(40);
    const count = (kind: string) => fields.filter((f) => f.kind === kind).length;
    expect(Object.fromEntries(Object.keys(FIELD_MIX).map((k) => [k, count(k)]))).toEqual(FIELD_MIX);
    expect(new Set(fields.map((f) => f.key)).size).toBe(40);
    for (const f of fields) {
      expect(f.editors).toEqual(['ann']);
      expect(f.page).toBe(1);
      expect(f.x + f.w).toBeLessThanOrEqual(100);
      expect(f.y + f.h).toBeLessThanOrEqual(100);
    }
    expect(fields.filter((f) => f.kind === 'sel').every((f) => f.format === 'A|B|C')).toBe(true);
    // No two fields share a grid slot.
    expect(new Set(fields.map((f) => `${f.x},${f.y}`)).size).toBe(40);
  });

  it('spreads the fields over pages when asked', () => {
    const fields = benchFields('ann', FIELD_MIX, 2);
    expect(fields.filter((f) => f.page === 1)).toHaveLength(20);
    expect(fields.filter((f) => f.page === 2)).toHaveLength(20);
  });
});

describe('benchValues', () => {
  it('gives each field a value its kind accepts', () => {
    const values = benchValues('doc', benchFields('ann'));
    expect(values).toHaveLength(40);
    const of = (key: string) => values.find((v) => v.field_key === key)?.value;
    expect(of('sig_1')).toBe('typed:Ann');
    expect(of('ini_5')).toBe('typed:Ann');
    expect(of('chk_1')).toBe('true');
    expect(of('sel_2')).toBe('B');
    expect(of('dat_3')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(values.every((v) => v.doc_key === 'doc' && v.value !== '')).toBe(true);
  });
});

describe('timings', () => {
  it('summarizes a sample, and an empty one as NaN', () => {
    expect(timings([30, 10, 20])).toEqual({ runs: 3, p50Ms: 20, p99Ms: 29.8, maxMs: 30 });
    expect(timings([])).toMatchObject({ runs: 0, p50Ms: Number.NaN, maxMs: Number.NaN });
  });
});

const round2 = (x: number) => Math.round(x * 100) / 100;

describe('the ratios to the yardsticks', () => {
  const parts = (v: number) =>
    Object.fromEntries(Object.keys(CPU_PARTS).map((part) => [part, v])) as Record<TCpuPart, number>;
  const page = (
    p50: number,
    bytesAt = 100,
    cpu = p50 * 2,
    shownAfter = 20,
    warm = p50,
  ): TFirstPageFigures => ({
    pages: 20,
    pdfBytes: 22_000,
    warmup: 8,
    browser: 'Chromium',
    firstPage: { runs: 8, p50Ms: p50, p99Ms: p50, maxMs: p50 },
    warmingUp: timings([warm]),
    shown: timings([p50 + shownAfter]),
    domContentLoadedP50Ms: 100,
    ...splitAtBytes([p50], [bytesAt]),
    wallP50Ms: p50,
    cpu: timings([cpu]),
    cpuParts: { ...parts(Number.NaN), pageMain: cpu / 2, servers: cpu / 4 },
    timedOut: false,
  });
  const figures = (over: Partial<TSigningFigures> = {}): TSigningFigures => ({
    complete: {
      fields: 40,
      mix: { ...FIELD_MIX },
      warmup: 3,
      complete: timings([60, 65, 70]),
      oneWrite: timings([40, 50, 60]),
      put: timings([30]),
      timedOut: false,
    },
    firstPage: page(650, 200, 1300, 40, 760),
    firstPageAr: page(700, 210),
    firstPageBaseline: page(500, 100, 1000, 10, 520),
    firstPagePlain: page(400),
    failures: [],
    ...over,
  });

  it('divide our p50 by the yardstick p50, print them against the goal, and write them to results.json', () => {
    const f = figures();
    expect(completeRatio(f)).toBeCloseTo(65 / 50);
    expect(firstPageRatio(f)).toBeCloseTo(650 / 500);
    expect(signingJson(f).ratios).toEqual({
      goal: RATIO_GOAL,
      completeOverOneWrite: 1.3,
      firstPageOverPdfjsAlone: 1.3,
      warmingUpOverPdfjsAlone: round2(760 / 520),
      shownOverPdfjsAlone: round2(690 / 510),
      fromBytesOverPdfjsAlone: round2(450 / 400),
      cpuOverPdfjsAlone: 1.3,
      firstPageOverPlainPdfjs: round2(650 / 400),
      policyOverPlain: 1.25,
    });
    expect(cpuRatio(f)).toBeCloseTo(1300 / 1000);
    // The warm-up rounds' own ratio, beside the counted one, never in its place.
    expect(warmingUpRatio(f)).toBeCloseTo(760 / 520);
    // Shown: what painting the page around the drawn page still cost counts too.
    expect(shownRatio(f)).toBeCloseTo(690 / 510);
    expect(fromBytesRatio(f)).toBeCloseTo(450 / 400);
    expect(signingJson(f).firstRenderedPage).toMatchObject({
      shownP50Ms: 690,
      bytesInHandP50Ms: 200,
      bytesToRenderedP50Ms: 450,
      cpuP50Ms: 1300,
      cpuPartsP50Ms: { pageMain: 650, servers: 325 },
    });
    expect(signingJson(f).complete.oneWrite).toMatchObject({ runs: 3, p50Ms: 50 });
    expect(signingJson(f).firstRenderedPageBaseline).toMatchObject({ runs: 8, p50Ms: 500, shownP50Ms: 510 });
    // The yardstick is served with the signing page's headers; without them, context.
    expect(policyRatio(f)).toBeCloseTo(500 / 400);
    expect(overPlainRatio(f)).toBeCloseTo(650 / 400);
    expect(signingJson(f).firstRenderedPagePlain).toMatchObject({ runs: 8, p50Ms: 400 });
    const report = signingReport(f);
    expect(report).toContain('complete ÷ one write (p50s): 1.30 (goal ≤ 1.3 ✓)');
    expect(report).toContain('first page ÷ pdf.js alone (p50s, English): 1.30 (goal ≤ 1.3 ✓)');
    expect(report).toContain('first page shown ÷ pdf.js alone (p50s, English): 1.35 (goal ≤ 1.3 ✗)');
    expect(report).toContain(
      'shown: the second animation frame after it (the frame showing it painted), p50 690.0 ms (pdf.js alone: 510.0 ms)',
    );
    expect(report).toContain('the service in its own process, as deployed');
    expect(report).toContain(
      'context: the first page ÷ pdf.js alone without the security headers (p50s, English): 1.63; ' +
        'the headers alone cost pdf.js alone × 1.25 (Cross-Origin-Opener-Policy: a renderer process of its own)',
    );
    expect(report).toMatch(/pdf\.js alone without those headers +8 +400\.0 ms/);
    expect(report).toContain(
      'context: the first page ÷ pdf.js alone in the 8 warm-up rounds before them (the runtime and the browser just started): 1.46',
    );
    expect(report).toContain(
      "split at the document's bytes in the page (p50s, English): in hand at 200.0 ms (pdf.js alone: 100.0 ms); " +
        'from them to the drawn page 450.0 ms (pdf.js alone: 400.0 ms), ÷ 1.13',
    );
    expect(report).toContain('CPU per load (p50s, English; every process the bench started');
    expect(report).toContain('1300.0 ms (pdf.js alone: 1000.0 ms), ÷ 1.30;');
    expect(report).toMatch(/the page's main thread +650\.0 ms +500\.0 ms/);
    expect(report).toMatch(/the servers \(the runtime, the bare page's\) +325\.0 ms +250\.0 ms/);
    expect(signingReport(figures({ firstPage: page(1300) }))).toContain('2.60 (goal ≤ 1.3 ✗)');
  });

  it('split each load at its bytes mark, leaving out a load without one', () => {
    const split = splitAtBytes([500, 520, 540], [120, Number.NaN, 140]);
    expect(split.bytesInHand).toMatchObject({ runs: 2, p50Ms: 130 });
    expect(split.bytesToRendered).toMatchObject({ runs: 2, p50Ms: 390 });
    const none = figures({ firstPage: { ...page(650), ...splitAtBytes([650], [Number.NaN]) } });
    expect(fromBytesRatio(none)).toBeNull();
    expect(signingJson(none).ratios.fromBytesOverPdfjsAlone).toBeNull();
  });

  it('are missing, never a number, when a side has no run', () => {
    const f = figures({ firstPageBaseline: null });
    expect(firstPageRatio(f)).toBeNull();
    expect(policyRatio(f)).toBeNull();
    const noPlain = figures({ firstPagePlain: null });
    expect(overPlainRatio(noPlain)).toBeNull();
    expect(signingJson(noPlain).ratios).toMatchObject({
      firstPageOverPlainPdfjs: null,
      policyOverPlain: null,
    });
    expect(signingReport(noPlain)).toContain(
      'without the security headers (p50s, English): —; the headers alone cost pdf.js alone —',
    );
    expect(signingJson(f).ratios.firstPageOverPdfjsAlone).toBeNull();
    expect(shownRatio(f)).toBeNull();
    // No warm-up asked for: no warm-up ratio.
    const cold = figures({ firstPage: { ...page(650), warmup: 0, warmingUp: timings([]) } });
    expect(warmingUpRatio(cold)).toBeNull();
    expect(signingJson(cold).ratios.warmingUpOverPdfjsAlone).toBeNull();
    expect(signingReport(cold)).toContain(
      'in the 0 warm-up rounds before them (the runtime and the browser just started): —',
    );
    const noWrite = figures();
    noWrite.complete.oneWrite = timings([]);
    expect(completeRatio(noWrite)).toBeNull();
    // No /proc to read (not Linux): no CPU figure, and no ratio of it.
    const noCpu = figures({ firstPage: { ...page(650), cpu: timings([]) } });
    expect(cpuRatio(noCpu)).toBeNull();
    expect(signingJson(noCpu).ratios.cpuOverPdfjsAlone).toBeNull();
    expect(signingReport(noCpu)).toContain(
      'CPU per load (p50s, English; every process the bench started: ' +
        "Chromium's, and the service's or the bare page's server): — (pdf.js alone: 1000.0 ms), ÷ —",
    );
  });
});

describe('the servers in processes of their own', () => {
  it('serve the bare page and its PDF from another process, which ends when stopped', async () => {
    const pdf = new TextEncoder().encode('%PDF-1.7 bench stand-in bytes');
    const bare = await startBareChild(pdf);
    try {
      expect(bare.pid).not.toBe(process.pid);
      const page = await fetch(bare.serving.url);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('<title>pdf.js alone</title>');
      const doc = await fetch(new URL('doc.pdf', bare.serving.url));
      expect(new Uint8Array(await doc.arrayBuffer())).toEqual(pdf);
      // The yardstick and its files carry the signing page's headers, its CSP naming its script.
      const script = /<script type="module">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
      const hash = createHash('sha256').update(script).digest('base64');
      expect(page.headers.get('content-security-policy')).toContain(`script-src 'self' 'sha256-${hash}'`);
      for (const answer of [page, doc]) {
        expect(answer.headers.get('cross-origin-opener-policy')).toBe('same-origin');
        expect(answer.headers.get('x-frame-options')).toBe('DENY');
      }
      // The same page and PDF answered plainly, as a static server would.
      const plain = await fetch(bare.serving.plainUrl);
      expect(await plain.text()).toContain('<title>pdf.js alone</title>');
      const plainDoc = await fetch(new URL('doc.pdf', bare.serving.plainUrl));
      expect(new Uint8Array(await plainDoc.arrayBuffer())).toEqual(pdf);
      for (const answer of [plain, plainDoc]) {
        expect(answer.headers.get('cross-origin-opener-policy')).toBeNull();
        expect(answer.headers.get('content-security-policy')).toBeNull();
      }
    } finally {
      await bare.stop();
    }
    expect(() => process.kill(bare.pid, 0)).toThrow(/ESRCH/);
  });
});
