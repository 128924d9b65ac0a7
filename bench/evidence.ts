// Evidence: the figures the evidence work is judged by.
//
// - cost of a final document: a real 50-page, ~10 MB PDF (text on every page and a large image
//   on each, whose bytes are noise, so nothing compresses them away) with 40 fields over its
//   pages. Each of three kinds of work runs in a fresh Node process of its own (this file, run
//   with tsx's loader), a warm-up then timed runs, so the child's peak memory is that work's:
//   (a) a plain pdf-lib `PDFDocument.load` + `save` of the file (default options);
//   (b) `renderFinalDocument` + `sealPdf` of the file with the 40 values: what the document
//       worker pays per document (shared/domain/evidence/produce-final-files.ts), storage aside;
//   (c) `sealPdf` alone, of the rendered file (b) left behind.
//   The children run in rounds (a, b, c, a, b, c…); the ratio (b)/(a) is the median over rounds
//   of the ratio of the two children's medians in each, as they ran under alike load.
//   Peak memory is the child's VmHWM (/proc/self/status: the kernel's high-water mark of its
//   resident set since its exec: Node, tsx, the imports, the file read, every run). Not
//   `process.resourceUsage().maxRSS`: on Linux that keeps the mark of the process it was forked
//   from (the bench itself, several hundred MB by the end of a full run) across the exec.
// - last signature → bundle_docs_ready: bundles with two embedded signers and one 10-page
//   document signed through the signer API one after the other, a loopback receiver subscribed
//   to packet_complete and bundle_docs_ready; from the last `POST /sign/api/complete` answer to
//   the bundle_docs_ready call arriving, and the event dates of the two state changes.
//
// A wrong answer (a status, a seal that does not verify, a file not about its size, an event that
// never came) fails the run; the targets (ratio at most 3, under 512 MB) never do.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { crc32, deflateSync } from 'node:zlib';
import {
  concatTransformationMatrix,
  drawObject,
  PDFDocument,
  type PDFFont,
  popGraphicsState,
  pushGraphicsState,
  StandardFonts,
} from 'pdf-lib';
import type { TRuntime } from '#infra/local/runtime';
import type { TAuditPage, TStampField } from '#shared/pdf/evidence-types';
import { peakRss, runAsChild, runTsxChild, spread, type TPeakSource } from './child-process';
import { mark, ms, table } from './format';
import { answerOf, embeddedSession, serviceClients, startWebhookReceiver } from './http';
import {
  benchSealLevels,
  sealLevelsFailed,
  sealLevelsJson,
  sealLevelsReport,
  type TSealLevelFigures,
} from './seal-levels';
import { benchValue, type TBenchField } from './signing';
import { percentile, round } from './stats';

export { spread, vmHwmMb } from './child-process';

const THIS_FILE = fileURLToPath(import.meta.url);
const REPO_ROOT = path.resolve(path.dirname(THIS_FILE), '..');
const WORK_DIR = path.join(REPO_ROOT, 'bench', 'tmp', 'evidence');

export const EVIDENCE_TARGETS = {
  /** (render + seal) / (plain load + save), medians. */
  ratioMax: 3,
  /** Peak resident set of the render + seal process, MiB. */
  peakRssMaxMb: 512,
} as const;

export interface TEvidenceOptions {
  /** The large document. */
  pages?: number;
  targetBytes?: number;
  /** Runs per child before measuring, not counted. */
  warmup?: number;
  /** Timed runs per child. */
  runs?: number;
  /** Children of each kind, one after the other (a, b, c, a, b, c…); their runs are pooled. */
  rounds?: number;
  /** Bundles signed to completion for the docs-ready figure, after `bundleWarmup` not counted. */
  bundles?: number;
  bundleWarmup?: number;
  bundlePages?: number;
  /** The whole section; what is not done by then is left out (and said so). */
  phaseMaxMs?: number;
  /** The seal at each PAdES level beside Documenso's (seal-levels.ts): rounds, and its own time bound. */
  levelRounds?: number;
  levelsMaxMs?: number;
}

// ---- pure helpers (test/bench/evidence.test.ts) ----

/** The 40-field mix of the large document: kind → count. */
export const EVIDENCE_FIELD_MIX: Readonly<Record<string, number>> = {
  inp: 10,
  txt: 5,
  dat: 5,
  chk: 5,
  sel: 5,
  sig: 5,
  ini: 5,
};

/** The 1-based page of item `i` of `n` spread evenly over `pages`. Pure. */
export const spreadPage = (i: number, n: number, pages: number) => 1 + Math.floor((i * pages) / n);

/**
 * The values drawn on the large document, as the worker hands them to renderFinalDocument: the
 * mix spread over `pages` pages, `sig` drawn (each its own copy of `signature`, as each comes
 * from its own blob), `ini` typed. Pure.
 */
export function evidenceStampFields(
  pages: number,
  signature: Uint8Array,
  mix = EVIDENCE_FIELD_MIX,
): TStampField[] {
  const n = Object.values(mix).reduce((a, b) => a + b, 0);
  const out: TStampField[] = [];
  for (const [kind, count] of Object.entries(mix)) {
    for (let k = 1; k <= count; k++) {
      const i = out.length;
      const box = {
        page: spreadPage(i, n, pages),
        x: i % 2 === 0 ? 8 : 55,
        y: 8 + (i % 4) * 11,
        w: kind === 'chk' ? 3 : 35,
        h: kind === 'chk' ? 3 : kind === 'txt' ? 8 : 5,
        kind,
      };
      switch (kind) {
        case 'txt':
          out.push({ ...box, value: `Free text of field ${k},\nover two lines.`, format: '' });
          break;
        case 'dat':
          out.push({ ...box, value: '2027-01-15', format: 'D MMMM YYYY' });
          break;
        case 'chk':
          out.push({ ...box, value: 'true', format: '' });
          break;
        case 'sel':
          out.push({ ...box, value: 'B', format: 'A|B|C', options: ['A', 'B', 'C'] });
          break;
        case 'sig':
          out.push({ ...box, value: 'drawn', format: '', image: Uint8Array.from(signature) });
          break;
        case 'ini':
          out.push({ ...box, value: 'typed:A.L.', format: '' });
          break;
        default:
          out.push({ ...box, value: `Value of ${kind} ${k}`, format: '' });
      }
    }
  }
  return out;
}

/** Each signer's ten fields of the docs-ready bundle. */
const SIGNER_KINDS = ['inp', 'inp', 'inp', 'txt', 'dat', 'chk', 'chk', 'sel', 'sig', 'ini'] as const;

/** Ten required fields per signer, the signers' alternating, spread over `pages` pages. Pure. */
export function bundleFields(signers: readonly string[], pages: number): TBenchField[] {
  const n = SIGNER_KINDS.length * signers.length;
  const out: TBenchField[] = [];
  for (let i = 0; i < n; i++) {
    const s = i % signers.length;
    const kind = SIGNER_KINDS[Math.floor(i / signers.length)]!;
    out.push({
      key: `${signers[s]}_${kind}_${i}`,
      kind,
      label: `${kind} ${i}`,
      page: spreadPage(i, n, pages),
      x: s === 0 ? 8 : 55,
      y: 8 + (i % 4) * 11,
      w: kind === 'chk' ? 3 : 35,
      h: kind === 'chk' ? 3 : kind === 'txt' ? 8 : 5,
      editors: [signers[s]!],
      ...(kind === 'sel' ? { format: 'A|B|C' } : {}),
    });
  }
  return out;
}

/**
 * What `signer` sends in `PUT /sign/api/values` for its fields: a drawn signature (`imageUrl`, a
 * data URL) when given, else typed; initials typed. Pure.
 */
export function bundleValues(
  docKey: string,
  fields: readonly TBenchField[],
  signer: string,
  imageUrl?: string,
) {
  return fields
    .filter((f) => f.editors.includes(signer))
    .map((f) => {
      const at = { doc_key: docKey, field_key: f.key };
      switch (f.kind) {
        case 'sig':
          return imageUrl ? { ...at, image: imageUrl } : { ...at, value: `typed:${signer} signs` };
        case 'ini':
          return { ...at, value: `typed:${signer.slice(0, 1).toUpperCase()}.` };
        default:
          return { ...at, value: benchValue(f) };
      }
    });
}

/** A PNG (8-bit RGBA, no interlace) of `width` × `height`; `pixel` answers [r, g, b, a]. Pure. */
export function pngImage(
  width: number,
  height: number,
  pixel: (x: number, y: number) => readonly [number, number, number, number],
): Buffer {
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 4 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      const [r, g, b, a] = pixel(x, y);
      raw.set([r, g, b, a], row + 1 + x * 4);
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body) >>> 0, body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A drawn signature as the signing page sends it: a dark stroke on a transparent 600 × 180. Pure. */
export function signaturePng(): Buffer {
  const w = 600;
  const h = 180;
  return pngImage(w, h, (x, y) => {
    const stroke = h / 2 + Math.sin(x / 23) * (h / 4) * Math.cos(x / 97);
    return Math.abs(y - stroke) < 2.5 && x > 20 && x < w - 20 ? [20, 30, 90, 255] : [0, 0, 0, 0];
  });
}

/** `n` bytes of deterministic noise (xorshift32 from `seed`). Pure. */
export function noise(n: number, seed: number): Uint8Array {
  const words = new Uint32Array(Math.ceil(n / 4));
  let s = seed >>> 0 || 1;
  for (let i = 0; i < words.length; i++) {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    words[i] = s;
  }
  return new Uint8Array(words.buffer, 0, n);
}

/** p50 and max of a sample; NaN for an empty one. Pure. */
export function p50Max(samplesMs: readonly number[]) {
  const n = samplesMs.length;
  return {
    runs: n,
    p50Ms: n > 0 ? percentile(samplesMs, 50) : Number.NaN,
    maxMs: n > 0 ? Math.max(...samplesMs) : Number.NaN,
  };
}

/** One call the receiver answered; `arrivedAt` is Date.now() when it answered. */
export interface TEvidenceArrival {
  eventId: string;
  eventType: string;
  eventDate: number;
  bundleId: string;
  packetId?: string;
  arrivedAt: number;
}

export interface TDocsReadySample {
  /** Last `POST /sign/api/complete` answered → bundle_docs_ready answered by the receiver. */
  completeToArrivalMs: number;
  /** The last signer's packet_complete event_date → bundle_docs_ready event_date (the service's own). */
  eventToEventMs: number;
  /** The last signer's packet_complete event_date → bundle_docs_ready answered by the receiver. */
  eventToArrivalMs: number;
}

/**
 * The docs-ready figures of one bundle from what the receiver got (the first arrival of each
 * event counts), or why there are none: an event missing, or a second bundle_docs_ready event. Pure.
 */
export function docsReadySample(
  arrivals: readonly TEvidenceArrival[],
  bundleId: string,
  lastPacketId: string,
  completeAnsweredAt: number,
): TDocsReadySample | string {
  const ofBundle = arrivals.filter((a) => a.bundleId === bundleId);
  const pc = ofBundle.find((a) => a.eventType === 'packet_complete' && a.packetId === lastPacketId);
  const ready = ofBundle.filter((a) => a.eventType === 'bundle_docs_ready');
  if (!pc) return 'no packet_complete of the last signer arrived';
  if (ready.length === 0) return 'no bundle_docs_ready arrived';
  if (new Set(ready.map((a) => a.eventId)).size > 1) return 'two different bundle_docs_ready events';
  const dk = ready.reduce((m, a) => (a.arrivedAt < m.arrivedAt ? a : m));
  return {
    completeToArrivalMs: dk.arrivedAt - completeAnsweredAt,
    eventToEventMs: dk.eventDate - pc.eventDate,
    eventToArrivalMs: dk.arrivedAt - pc.eventDate,
  };
}

// ---- the documents ----

const LOREM =
  'The parties agree to the terms set out in this agreement and in the schedules attached to it. ';

/**
 * A real PDF of `pages` Letter pages: a heading and lines of text on each, and an image (raw RGB,
 * noise, so a size no compression changes) sized so the whole file is about `targetBytes`.
 */
export async function evidencePdf(pages: number, targetBytes: number, title: string): Promise<Uint8Array> {
  const build = async (imageBytes: number) => {
    const doc = await PDFDocument.create();
    doc.setTitle(title);
    const font: PDFFont = await doc.embedFont(StandardFonts.Helvetica);
    const bold: PDFFont = await doc.embedFont(StandardFonts.HelveticaBold);
    const side = Math.max(1, Math.round(Math.sqrt(imageBytes / 3)));
    const height = Math.max(1, Math.floor(imageBytes / 3 / side));
    for (let n = 1; n <= pages; n++) {
      const page = doc.addPage([612, 792]);
      page.drawText(`${title}, page ${n} of ${pages}`, { x: 72, y: 730, size: 16, font: bold });
      for (let line = 0; line < 22; line++) {
        page.drawText(`${n}.${line + 1} ${LOREM}`.slice(0, 96), { x: 72, y: 704 - line * 14, size: 9, font });
      }
      if (imageBytes > 0) {
        const image = doc.context.register(
          doc.context.stream(noise(side * height * 3, n * 7919), {
            Type: 'XObject',
            Subtype: 'Image',
            Width: side,
            Height: height,
            ColorSpace: 'DeviceRGB',
            BitsPerComponent: 8,
          }),
        );
        const name = page.node.newXObject('Exhibit', image);
        page.pushOperators(
          pushGraphicsState(),
          concatTransformationMatrix(468, 0, 0, 300, 72, 72),
          drawObject(name),
          popGraphicsState(),
        );
      }
    }
    return doc.save();
  };
  // The text alone, then the images sized to make up the rest (each image object costs ~150 bytes).
  const base = (await build(0)).length;
  return build(Math.max(0, (targetBytes - base) / pages - 150));
}

const AUDIT: TAuditPage = {
  bundleId: 'bench-bundle',
  label: 'Evidence bench agreement',
  documentName: 'Agreement (50 pages)',
  originalSha256: '0'.repeat(64),
  signers: [
    { name: 'Ann Lee', email: 'ann@example.com', completedAt: '2027-01-15T10:04:00.000Z' },
    { name: 'Bob Roe', email: 'bob@example.com', completedAt: '2027-01-15T10:09:00.000Z' },
  ],
  events: [
    ['2027-01-15T10:00:00.000Z', 'Bundle created and sent', 'sender'],
    ['2027-01-15T10:00:01.000Z', 'Signing request sent to Ann Lee', 'service'],
    ['2027-01-15T10:00:01.000Z', 'Signing request sent to Bob Roe', 'service'],
    ['2027-01-15T10:01:00.000Z', 'Ann Lee opened the documents', 'Ann Lee'],
    ['2027-01-15T10:02:00.000Z', 'Ann Lee filled 20 fields', 'Ann Lee'],
    ['2027-01-15T10:04:00.000Z', 'Ann Lee agreed to sign electronically and signed', 'Ann Lee'],
    ['2027-01-15T10:05:00.000Z', 'Bob Roe opened the documents', 'Bob Roe'],
    ['2027-01-15T10:07:00.000Z', 'Bob Roe filled 20 fields', 'Bob Roe'],
    ['2027-01-15T10:09:00.000Z', 'Bob Roe agreed to sign electronically and signed', 'Bob Roe'],
    ['2027-01-15T10:09:00.000Z', 'Bundle complete', 'service'],
  ].map(([timestamp, description, actor]) => ({
    timestamp: timestamp!,
    description: description!,
    actor: actor!,
    ip: '203.0.113.7',
  })),
  chainHead: 'f'.repeat(64),
  completedAt: '2027-01-15T10:09:00.000Z',
  sealedBy: 'Evidence bench seal',
};

// ---- the child: one kind of work, measured in a process of its own ----

type TChildKind = 'load-save' | 'render-seal' | 'seal';
const KINDS: readonly TChildKind[] = ['load-save', 'render-seal', 'seal'];

interface TChildResult {
  kind: TChildKind;
  warmupMs: number[];
  runsMs: number[];
  /** memoryUsage().rss after the imports, the key and the file read: before any work. */
  baselineRssMb: number;
  /** The process's peak resident set at the end (see peakRss). */
  peakRssMb: number;
  peakSource: TPeakSource;
  outBytes: number;
  /** Pages of the output, read back. */
  outPages: number;
}

const SEAL_INFO = { reason: 'Final document', name: 'Evidence bench agreement · Agreement (50 pages)' };
const mb = (bytes: number) => bytes / (1024 * 1024);

/** argv: kind, input file, output file (render-seal writes the rendered file there), pages, warmup, runs. */
async function childMain(argv: string[]): Promise<void> {
  const [kind, input, output, pagesArg, warmupArg, runsArg] = argv as [
    TChildKind,
    string,
    string,
    string,
    string,
    string,
  ];
  if (!KINDS.includes(kind)) throw new Error(`unknown kind ${kind}`);
  const { renderFinalDocument } = await import('#shared/pdf/final-document');
  const { newSealIdentity, sealPdf } = await import('#shared/pdf/seal');
  const { readSeal } = await import('#shared/pdf/read-seal');
  const pages = Number(pagesArg);
  const bytes = new Uint8Array(readFileSync(input));
  const identity = kind === 'load-save' ? undefined : newSealIdentity('Evidence bench seal');
  const fields = evidenceStampFields(pages, signaturePng());
  const baselineRssMb = mb(process.memoryUsage().rss);

  let out: Uint8Array = bytes;
  let rendered: Uint8Array | undefined;
  const once = async () => {
    if (kind === 'load-save') {
      const doc = await PDFDocument.load(bytes);
      out = await doc.save();
    } else if (kind === 'render-seal') {
      rendered = await renderFinalDocument({
        original: bytes,
        fields,
        audit: AUDIT,
        isTest: false,
        interim: false,
      });
      out = await sealPdf(rendered, identity!, SEAL_INFO);
    } else {
      out = await sealPdf(bytes, identity!, SEAL_INFO);
    }
  };
  const time = async (n: number) => {
    const samples: number[] = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      await once();
      samples.push(performance.now() - t0);
    }
    return samples;
  };
  const warmupMs = await time(Number(warmupArg));
  const runsMs = await time(Number(runsArg));
  const peak = peakRss();

  // The answers, checked after the clock: a file of the right pages, a seal that holds.
  const outPages = (await PDFDocument.load(out, { updateMetadata: false })).getPageCount();
  if (kind === 'load-save' && outPages !== pages) throw new Error(`saved ${outPages} pages, not ${pages}`);
  if (kind !== 'load-save') {
    const seal = readSeal(out);
    if (!seal?.valid || !seal.coversWholeFile) {
      throw new Error(`the seal does not verify: ${seal?.problem ?? 'no seal found'}`);
    }
    if (outPages <= pages) throw new Error(`the final document has ${outPages} pages, no audit page`);
  }
  if (kind === 'render-seal' && rendered) writeFileSync(output, rendered);
  const result: TChildResult = {
    kind,
    warmupMs,
    runsMs,
    baselineRssMb,
    peakRssMb: peak.mb,
    peakSource: peak.source,
    outBytes: out.length,
    outPages,
  };
  process.stdout.write(JSON.stringify(result));
}

// ---- the section ----

export interface TWorkFigures {
  runs: number;
  medianMs: number;
  minMs: number;
  maxMs: number;
  /** The first run of each child (cold: JIT, fonts, for the seal the PKCS #12 opened). */
  firstRunMs: number;
  /** Highest peak RSS of the children of this kind. */
  peakRssMb: number;
  peakSource: TPeakSource;
  baselineRssMb: number;
  outBytes: number;
  outPages: number;
}

export interface TDocsReadyFigures {
  bundles: number;
  warmup: number;
  pages: number;
  pdfBytes: number;
  fields: number;
  completeToArrival: ReturnType<typeof p50Max>;
  eventToEvent: ReturnType<typeof p50Max>;
  eventToArrival: ReturnType<typeof p50Max>;
  /** The last `POST /sign/api/complete` itself, as context. */
  lastComplete: ReturnType<typeof p50Max>;
  timedOut: boolean;
}

export interface TEvidenceFigures {
  pages: number;
  pdfBytes: number;
  fields: number;
  mix: Record<string, number>;
  warmup: number;
  rounds: number;
  loadSave: TWorkFigures | null;
  renderSeal: TWorkFigures | null;
  seal: TWorkFigures | null;
  /**
   * The figure the target is about: the median over rounds of (render + seal median) / (load +
   * save median) of the round. A round's two children run back to back, under much the same load
   * from other work on the machine; pooling all rounds' runs would compare runs made under
   * different loads.
   */
  ratio: number;
  /** Per round, the ratio of its two children's medians. */
  ratioByRound: number[];
  /** renderSeal.medianMs / loadSave.medianMs over the pooled runs, as context. */
  ratioOfPooledMedians: number;
  /** renderSeal.minMs / loadSave.minMs, as context. */
  ratioOfMinimums: number;
  docsReady: TDocsReadyFigures | null;
  /** The rendered document sealed at B-B, B-T and B-LTA, ours and Documenso's. */
  levels: TSealLevelFigures | null;
  timedOut: boolean;
  failures: string[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Per bundle: at most this long from the last complete to bundle_docs_ready. */
const DOCS_READY_WAIT_MS = 120_000;
const SIGNERS = ['ann', 'bob'] as const;

export async function benchEvidence(opts: TEvidenceOptions = {}): Promise<TEvidenceFigures> {
  const pages = opts.pages ?? 50;
  const targetBytes = opts.targetBytes ?? 10 * 1024 * 1024;
  const warmup = opts.warmup ?? 1;
  const runs = opts.runs ?? 5;
  const rounds = opts.rounds ?? 5;
  const bundles = opts.bundles ?? 5;
  const bundleWarmup = opts.bundleWarmup ?? 1;
  const bundlePages = opts.bundlePages ?? 10;
  const deadline = Date.now() + (opts.phaseMaxMs ?? 240_000);
  const failures: string[] = [];
  let timedOut = false;

  // 1. The cost of one final document, in fresh processes.
  mkdirSync(WORK_DIR, { recursive: true });
  const original = path.join(WORK_DIR, 'original.pdf');
  const rendered = path.join(WORK_DIR, 'rendered.pdf');
  const pdf = await evidencePdf(pages, targetBytes, 'Evidence bench agreement');
  writeFileSync(original, pdf);
  if (Math.abs(pdf.length - targetBytes) > targetBytes * 0.02) {
    failures.push(`the document is ${pdf.length} bytes, not about ${targetBytes}`);
  }
  const results: Record<TChildKind, TChildResult[]> = { 'load-save': [], 'render-seal': [], seal: [] };
  children: for (let r = 0; r < rounds && failures.length === 0; r++) {
    for (const kind of KINDS) {
      const left = deadline - Date.now();
      if (left <= 0) {
        timedOut = true;
        break children;
      }
      const input = kind === 'seal' ? rendered : original;
      try {
        results[kind].push(
          await runTsxChild<TChildResult>(
            THIS_FILE,
            [kind, input, rendered, String(pages), String(warmup), String(runs)],
            left,
          ),
        );
      } catch (err) {
        failures.push(errorText(err));
        break children;
      }
    }
  }
  const work = (kind: TChildKind): TWorkFigures | null => {
    const rs = results[kind];
    if (rs.length === 0) return null;
    return {
      ...spread(rs.flatMap((x) => x.runsMs)),
      firstRunMs: percentile(
        rs.map((x) => x.warmupMs[0] ?? x.runsMs[0] ?? Number.NaN),
        50,
      ),
      peakRssMb: Math.max(...rs.map((x) => x.peakRssMb)),
      peakSource: rs[0]!.peakSource,
      baselineRssMb: percentile(
        rs.map((x) => x.baselineRssMb),
        50,
      ),
      outBytes: rs.at(-1)!.outBytes,
      outPages: rs.at(-1)!.outPages,
    };
  };
  const loadSave = work('load-save');
  const renderSeal = work('render-seal');
  const seal = work('seal');
  const ratioByRound = results['render-seal'].flatMap((b, i) => {
    const a = results['load-save'][i];
    return a ? [percentile(b.runsMs, 50) / percentile(a.runsMs, 50)] : [];
  });

  // 2. The last signature → bundle_docs_ready, over the API.
  let docsReady: TDocsReadyFigures | null = null;
  if (failures.length === 0 && Date.now() < deadline) {
    docsReady = await benchDocsReady({
      bundles,
      warmup: bundleWarmup,
      pages: bundlePages,
      // The large document's density (bytes per page).
      pdfBytes: Math.round((targetBytes / pages) * bundlePages),
      deadline,
      failures,
    });
    timedOut ||= docsReady.timedOut;
  } else if (failures.length === 0) {
    timedOut = true;
  }

  // 3. The seal at each level, and Documenso's stack, on the rendered file (1) left behind.
  let levels: TSealLevelFigures | null = null;
  if (results['render-seal'].length > 0) {
    levels = await benchSealLevels({
      input: rendered,
      workDir: WORK_DIR,
      warmup,
      runs,
      rounds: opts.levelRounds ?? 5,
      deadline: Date.now() + (opts.levelsMaxMs ?? 240_000),
    });
    timedOut ||= levels.timedOut;
  }

  return {
    pages,
    pdfBytes: pdf.length,
    fields: Object.values(EVIDENCE_FIELD_MIX).reduce((a, b) => a + b, 0),
    mix: { ...EVIDENCE_FIELD_MIX },
    warmup,
    rounds,
    loadSave,
    renderSeal,
    seal,
    ratio: ratioByRound.length > 0 ? percentile(ratioByRound, 50) : Number.NaN,
    ratioByRound,
    ratioOfPooledMedians: loadSave && renderSeal ? renderSeal.medianMs / loadSave.medianMs : Number.NaN,
    ratioOfMinimums: loadSave && renderSeal ? renderSeal.minMs / loadSave.minMs : Number.NaN,
    docsReady,
    levels,
    timedOut,
    failures,
  };
}

async function benchDocsReady(o: {
  bundles: number;
  warmup: number;
  pages: number;
  pdfBytes: number;
  deadline: number;
  failures: string[];
}): Promise<TDocsReadyFigures> {
  const { startBenchRuntime } = await import('./runtime');
  const runtime: TRuntime = await startBenchRuntime(() => undefined);
  const receiver = await startWebhookReceiver('/evidence-hook', ({ answeredAt, ...call }) => ({
    ...call,
    arrivedAt: answeredAt,
  }));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 2 });
  const samples: TDocsReadySample[] = [];
  const lastComplete: number[] = [];
  const fields = bundleFields(SIGNERS, o.pages);
  const pdf = await evidencePdf(o.pages, o.pdfBytes, 'Evidence bench lease');
  let timedOut = false;
  try {
    const { api, signApi } = serviceClients(runtime.baseUrl, runtime.demo.apiKey, agent);
    answerOf(
      'POST /webhooks/',
      await api('POST', '/webhooks/', {
        url: receiver.url,
        event_types: ['packet_complete', 'bundle_docs_ready'],
      }),
      201,
    );
    const b64 = Buffer.from(pdf).toString('base64');
    const drawn = `data:image/png;base64,${signaturePng().toString('base64')}`;

    for (let i = 0; i < o.warmup + o.bundles; i++) {
      if (Date.now() >= o.deadline) {
        timedOut = true;
        break;
      }
      try {
        const created = answerOf(
          'POST /bundles/',
          await api('POST', '/bundles/', {
            label: `Evidence bench ${i + 1}`,
            packets: [
              { key: 'ann', name: 'Ann Lee', email: 'ann@example.com', deliver_via: 'embed' },
              { key: 'bob', name: 'Bob Roe', email: 'bob@example.com', deliver_via: 'embed' },
            ],
            documents: [{ key: 'lease', file_b64: b64, fields }],
          }),
          201,
        ) as { id: string; packets: { id: string }[] };
        // Packets come back in the order asked for (the wire shape has no key).
        if (created.packets.length !== SIGNERS.length) {
          throw new Error(`POST /bundles/: ${created.packets.length} packets, not ${SIGNERS.length}`);
        }
        let answeredAt = 0;
        let callMs = 0;
        for (const [s, signer] of SIGNERS.entries()) {
          const packet = created.packets[s]!;
          const session = await embeddedSession({ api, signApi }, packet.id);
          const values = bundleValues('lease', fields, signer, signer === 'ann' ? drawn : undefined);
          const state = answerOf(
            'PUT /sign/api/values',
            await signApi('PUT', '/values', session, { values }),
            200,
          ) as { fields: { editable?: boolean; value?: string; has_image?: boolean }[] };
          const filled = state.fields.filter(
            (f) => f.editable && (f.has_image || (f.value !== undefined && f.value !== '')),
          ).length;
          if (filled < values.length) {
            throw new Error(
              `PUT /sign/api/values: ${filled} of ${values.length} of ${signer}'s fields filled`,
            );
          }
          const t0 = performance.now();
          const completed = await signApi('POST', '/complete', session, { consent: true });
          answeredAt = Date.now();
          callMs = performance.now() - t0;
          const after = answerOf('POST /sign/api/complete', completed, 200) as {
            bundle: { status: string };
            packet: { status: string };
          };
          const want = s === SIGNERS.length - 1 ? 'co' : undefined;
          if (after.packet.status !== 'co' || (want && after.bundle.status !== want)) {
            throw new Error(
              `POST /sign/api/complete (${signer}): packet ${after.packet.status}, bundle ${after.bundle.status}`,
            );
          }
        }
        const last = created.packets.at(-1)!.id;
        const until = Math.min(o.deadline, answeredAt + DOCS_READY_WAIT_MS);
        let sample = docsReadySample(receiver.arrivals, created.id, last, answeredAt);
        while (typeof sample === 'string' && Date.now() < until) {
          await sleep(10);
          sample = docsReadySample(receiver.arrivals, created.id, last, answeredAt);
        }
        if (typeof sample === 'string') {
          if (Date.now() >= o.deadline) timedOut = true;
          throw new Error(`bundle ${i + 1}: ${sample} within ${Math.round((until - answeredAt) / 1000)} s`);
        }
        // The answer behind the event: the bundle says so, and its files are there.
        const bundle = answerOf('GET /bundles/{id}/', await api('GET', `/bundles/${created.id}/`), 200);
        if (bundle.docs_ready !== true || bundle.status !== 'co') {
          throw new Error(`bundle ${i + 1}: status ${bundle.status}, docs_ready ${bundle.docs_ready}`);
        }
        const files = answerOf(
          'GET /bundles/{id}/files/',
          await api('GET', `/bundles/${created.id}/files/`),
          200,
        ) as unknown as { kind: string }[];
        const finals = files.filter((f) => f.kind === 'final').length;
        const certificates = files.filter((f) => f.kind === 'certificate').length;
        if (finals !== 1 || certificates !== SIGNERS.length) {
          throw new Error(`bundle ${i + 1}: ${finals} final documents and ${certificates} certificates`);
        }
        if (i >= o.warmup) {
          samples.push(sample);
          lastComplete.push(callMs);
        }
      } catch (err) {
        o.failures.push(`docs ready, ${errorText(err)}`);
        break;
      }
    }
    for (const u of receiver.unreadable) o.failures.push(`receiver: unreadable call ${JSON.stringify(u)}`);
  } finally {
    agent.destroy();
    await receiver.stop();
    await runtime.stop();
  }
  return {
    bundles: o.bundles,
    warmup: o.warmup,
    pages: o.pages,
    pdfBytes: pdf.length,
    fields: fields.length,
    completeToArrival: p50Max(samples.map((s) => s.completeToArrivalMs)),
    eventToEvent: p50Max(samples.map((s) => s.eventToEventMs)),
    eventToArrival: p50Max(samples.map((s) => s.eventToArrivalMs)),
    lastComplete: p50Max(lastComplete),
    timedOut,
  };
}

// ---- report ----

/** Whether the run must fail: a wrong answer, or no figure at all. */
export const evidenceFailed = (f: TEvidenceFigures) =>
  f.failures.length > 0 ||
  !f.loadSave ||
  !f.renderSeal ||
  !f.seal ||
  !f.docsReady ||
  f.docsReady.completeToArrival.runs === 0 ||
  !f.levels ||
  sealLevelsFailed(f.levels);

/** MiB, as Lambda's memory sizes and the target are. */
const MB = (v: number) => (Number.isFinite(v) ? `${v.toFixed(0)} MB` : '—');

/** The table `npm run bench` prints for evidence. */
export function evidenceReport(f: TEvidenceFigures): string {
  const work = (name: string, w: TWorkFigures | null) =>
    w
      ? [
          `  ${name}`,
          String(w.runs),
          ms(w.medianMs),
          ms(w.minMs),
          ms(w.maxMs),
          ms(w.firstRunMs),
          MB(w.peakRssMb),
          MB(w.baselineRssMb),
        ]
      : [`  ${name}`, '0', '—', '—', '—', '—', '—', '—'];
  const ratioOk = f.ratio <= EVIDENCE_TARGETS.ratioMax;
  const peak = f.renderSeal?.peakRssMb ?? Number.NaN;
  const memoryOk = peak < EVIDENCE_TARGETS.peakRssMaxMb;
  const out = [
    '',
    `Evidence (a ${f.pages}-page PDF of ${f.pdfBytes.toLocaleString('en-US')} bytes (${(f.pdfBytes / (1024 * 1024)).toFixed(2)} MiB) with ${f.fields} fields; ` +
      `each kind of work in fresh Node processes (tsx), ${f.rounds} × (${f.warmup} warm-up + runs))`,
    table(
      [
        ['  work', 'runs', 'median', 'min', 'max', 'first run', 'peak RSS', 'RSS before'],
        work('pdf-lib load + save (plain)', f.loadSave),
        work('renderFinalDocument + sealPdf', f.renderSeal),
        work('sealPdf alone', f.seal),
      ],
      ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
    ),
    `  ratio (render + seal) / (load + save): ${Number.isFinite(f.ratio) ? f.ratio.toFixed(2) : '—'}   ` +
      `target ≤ ${EVIDENCE_TARGETS.ratioMax} ${mark(ratioOk)}`,
    `  (median over rounds of each round's ratio of medians: ${f.ratioByRound.map((r) => r.toFixed(2)).join(', ') || '—'}; ` +
      `a round's children run back to back; context: pooled medians ${f.ratioOfPooledMedians.toFixed(2)}, minimums ${f.ratioOfMinimums.toFixed(2)})`,
    `  peak memory of render + seal: ${MB(peak)}   target < ${EVIDENCE_TARGETS.peakRssMaxMb} MB ${mark(memoryOk)}`,
    `  peak RSS = ${f.renderSeal?.peakSource === 'maxRSS' ? 'process.resourceUsage().maxRSS' : 'VmHWM (/proc/self/status)'} of the child ` +
      '(its high-water mark since exec: Node, tsx, the imports, the file, every run);',
    '  RSS before = memoryUsage().rss once imported and the file read, before any work. First run = the warm-up, not counted.',
    `  fields: ${Object.entries(f.mix)
      .map(([k, n]) => `${n} ${k}`)
      .join(
        ', ',
      )} over the pages; sig drawn (PNG), ini typed; the final file has ${f.renderSeal?.outPages ?? '—'} pages, ` +
      `${f.renderSeal ? (f.renderSeal.outBytes / (1024 * 1024)).toFixed(2) : '—'} MiB.`,
  ];
  const d = f.docsReady;
  if (d) {
    const row = (name: string, t: ReturnType<typeof p50Max>) => [
      `  ${name}`,
      String(t.runs),
      ms(t.p50Ms),
      ms(t.maxMs),
    ];
    out.push(
      '',
      `Evidence: last signature → bundle_docs_ready (local runtime; ${d.bundles} bundles one after the other, after ` +
        `${d.warmup} warm-up; two embedded signers, a ${d.pages}-page ${(d.pdfBytes / (1024 * 1024)).toFixed(2)} MiB document, ${d.fields} fields)`,
      table(
        [
          ['  interval', 'runs', 'p50', 'max'],
          row('last complete answered → bundle_docs_ready at the receiver', d.completeToArrival),
          row('packet_complete event_date → bundle_docs_ready event_date', d.eventToEvent),
          row('packet_complete event_date → bundle_docs_ready at the receiver', d.eventToArrival),
        ],
        ['l', 'r', 'r', 'r'],
      ),
      `  the work between: the final document and a Certificate of Evidence per signer rendered, sealed and stored; ` +
        `context: the last POST /sign/api/complete p50 ${ms(d.lastComplete.p50Ms)}, max ${ms(d.lastComplete.maxMs)}.`,
    );
  }
  if (f.levels) out.push(sealLevelsReport(f.levels));
  if (f.timedOut) out.push('  cut short by the time bound');
  for (const x of f.failures) out.push(`  FAILED ${x}`);
  return out.join('\n');
}

/** results.json's `evidence`: keys in a fixed order, figures rounded. */
export function evidenceJson(f: TEvidenceFigures) {
  const w = (x: TWorkFigures | null) =>
    x
      ? {
          runs: x.runs,
          medianMs: round(x.medianMs, 1),
          minMs: round(x.minMs, 1),
          maxMs: round(x.maxMs, 1),
          firstRunMs: round(x.firstRunMs, 1),
          peakRssMb: round(x.peakRssMb, 1),
          baselineRssMb: round(x.baselineRssMb, 1),
          outBytes: x.outBytes,
          outPages: x.outPages,
        }
      : null;
  const t = (x: ReturnType<typeof p50Max>) => ({
    runs: x.runs,
    p50Ms: round(x.p50Ms, 1),
    maxMs: round(x.maxMs, 1),
  });
  const d = f.docsReady;
  return {
    document: { pages: f.pages, bytes: f.pdfBytes, fields: f.fields, mix: f.mix },
    method: {
      processes: 'one fresh Node process (tsx) per kind of work and round',
      rounds: f.rounds,
      warmupPerProcess: f.warmup,
      memory: `${f.renderSeal?.peakSource ?? 'VmHWM'} of the child (peak resident set since its exec)`,
    },
    targets: { ratioMax: EVIDENCE_TARGETS.ratioMax, peakRssMaxMb: EVIDENCE_TARGETS.peakRssMaxMb },
    loadSave: w(f.loadSave),
    renderSeal: w(f.renderSeal),
    seal: w(f.seal),
    ratio: round(f.ratio),
    ratioMet: f.ratio <= EVIDENCE_TARGETS.ratioMax,
    ratioByRound: f.ratioByRound.map((r) => round(r)),
    ratioOfPooledMedians: round(f.ratioOfPooledMedians),
    ratioOfMinimums: round(f.ratioOfMinimums),
    peakRssMb: round(f.renderSeal?.peakRssMb ?? Number.NaN, 1),
    memoryMet: (f.renderSeal?.peakRssMb ?? Number.NaN) < EVIDENCE_TARGETS.peakRssMaxMb,
    docsReady: d
      ? {
          bundles: d.bundles,
          warmup: d.warmup,
          pages: d.pages,
          pdfBytes: d.pdfBytes,
          fields: d.fields,
          lastCompleteToArrival: t(d.completeToArrival),
          packetCompleteToDocsReadyEventDate: t(d.eventToEvent),
          packetCompleteToArrival: t(d.eventToArrival),
          lastCompleteCall: t(d.lastComplete),
        }
      : null,
    levels: f.levels ? sealLevelsJson(f.levels) : null,
    timedOut: f.timedOut,
    failed: evidenceFailed(f),
  };
}

// `node --import tsx bench/evidence.ts <kind> …`: one child's work (see childMain).
await runAsChild(import.meta.url, childMain);
