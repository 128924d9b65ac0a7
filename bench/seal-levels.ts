// Evidence: what a seal costs at each PAdES level, and Documenso's signing stack on the same file.
//
// The file is the rendered 50-page ~10 MB final document the evidence section leaves behind (what
// the document worker seals). Each kind of work runs in a fresh Node process of its own (this
// file, with tsx's loader): a warm-up, then timed runs, the process's peak resident set its own.
// In each round, one child of each kind, one after the other, ours and theirs alternating:
//   load-save        a plain pdf-lib `PDFDocument.load` + `save` of the file, the yardstick;
//   ours:B-B|B-T|B-LTA  the service's seal (createEvidencePdf(...).seal, as the document worker
//                    calls it) without authorities, with one at level B-T, and at B-LTA;
//   libpdf:B-B|B-T|B-LTA  Documenso's signing library (@libpdf/core): `PDF.load` + `pdf.sign`
//                    at that level, its HttpTimestampAuthority and its default revocation provider;
//   ours-cms:B-B, pdf-sign:B-B  the CMS alone over the same byte ranges: our signDetached, and
//                    @documenso/pdf-sign's signWithP12, which signs bytes, not a PDF (its caller
//                    lays out the signature field), so only the CMS can be compared.
// The timestamp authority and the local CA's publication point (CRL, OCSP) are the local
// stand-ins, run by the bench process on loopback: network cost is loopback's only. Both stacks
// use the same RSA 3072 key and self-signed certificate (newSealIdentity), and the same authority.
// @documenso/pdf-sign at B-T is left out: its timestamp client refuses the stand-in's tokens
// (it reports only "Failed to build signed data"), so there is nothing of it to compare.
//
// Every answer is checked after the clock, by tools we did not write where they can: pdfsig finds
// each signature valid (over the whole file where it should be), openssl verifies the signature
// timestamp (B-T) and the archive timestamp over its byte ranges (B-LTA) against the local root;
// our seals also by readSeal, which covers the DSS and the /DocTimeStamp after the seal. A wrong
// answer fails the run; the targets (B-LTA ≤ 4 × load + save, < 512 MB, not slower than
// Documenso's B-LTA) never do.

import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { createHash, createPrivateKey, sign as cryptoSign, X509Certificate } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { PDFDocument } from 'pdf-lib';
import type { TConfig } from '#shared/config';
import type { TValidationDataCollector } from '#shared/domain/ports/evidence';
import type { TSealSigner } from '#shared/pdf/seal-signer';
import { pdfsig } from '../test/helpers/poppler';
import {
  archiveTimestampOf,
  opensslVerifyTimestamp,
  opensslVerifyTimestampOf,
  signatureTimestampOf,
} from '../test/helpers/seal-timestamp';
import { peakRss, runAsChild, runTsxChild, spread, type TPeakSource } from './child-process';
import { mark, ms, table } from './format';
import { percentile, round } from './stats';

const THIS_FILE = fileURLToPath(import.meta.url);

export const SEAL_LEVELS = ['B-B', 'B-T', 'B-LTA'] as const;
export type TSealLevel = (typeof SEAL_LEVELS)[number];

export const SEAL_LEVEL_TARGETS = {
  /** Our B-LTA seal / plain load + save, medians of a round. */
  ltaRatioMax: 4,
  /** Peak resident set of the B-LTA seal's process, MiB. */
  ltaPeakRssMaxMb: 512,
  /** Ours / Documenso's at B-LTA: not slower. */
  ltaVsDocumensoMax: 1,
} as const;

/** @documenso/pdf-sign's API (its binding has no types of its own). */
interface TPdfSign {
  signWithP12(options: {
    content: Buffer;
    cert: Buffer;
    password?: string;
    signingTime?: string;
    timestampServer?: string;
  }): Buffer;
}

export type TLevelKind =
  | 'load-save'
  | `ours:${TSealLevel}`
  | `libpdf:${TSealLevel}`
  | 'ours-cms:B-B'
  | 'pdf-sign:B-B';

/** A round's children, in order: ours and Documenso's alternating, so each pair runs under alike load. */
export const LEVEL_KINDS: readonly TLevelKind[] = [
  'load-save',
  'ours:B-B',
  'libpdf:B-B',
  'ours:B-T',
  'libpdf:B-T',
  'ours:B-LTA',
  'libpdf:B-LTA',
  'ours-cms:B-B',
  'pdf-sign:B-B',
];

/** Ours against theirs: the rows of the comparison. */
export const LEVEL_PAIRS: readonly { label: string; ours: TLevelKind; theirs: TLevelKind }[] = [
  { label: 'B-B', ours: 'ours:B-B', theirs: 'libpdf:B-B' },
  { label: 'B-T', ours: 'ours:B-T', theirs: 'libpdf:B-T' },
  { label: 'B-LTA', ours: 'ours:B-LTA', theirs: 'libpdf:B-LTA' },
  { label: 'CMS only, B-B', ours: 'ours-cms:B-B', theirs: 'pdf-sign:B-B' },
];

/** The B-LTA seal's steps, as profiled after its timed runs (median ms of each). */
export interface TLtaSteps {
  runs: number;
  /** sealPdf, the seal's timestamp included. */
  sealMs: number;
  /** Of which the authority's answer to the seal's timestamp request. */
  sealTimestampMs: number;
  /** The validation data: the seal's chains, then the archive token's (fetched and checked). */
  validationDataMs: number;
  /** The authority's answer to the archive timestamp request. */
  archiveTimestampMs: number;
  /** The rest of B-LTA: the DSS update and the document timestamp's (writing, hashing the file). */
  updatesMs: number;
}

interface TLevelChildResult {
  kind: TLevelKind;
  warmupMs: number[];
  runsMs: number[];
  baselineRssMb: number;
  peakRssMb: number;
  peakSource: TPeakSource;
  outBytes: number;
  /** What was checked after the clock, said so. */
  checked: string;
  steps?: TLtaSteps;
}

// ---- pure helpers (test/bench/seal-levels.test.ts) ----

export interface TPdfsigSignature {
  field: string;
  type: string;
  valid: boolean;
  wholeFile: boolean;
}

/** The signatures pdfsig lists, in file order: field, type, whether valid, whether over the whole file. Pure. */
export function pdfsigSignatures(out: string): TPdfsigSignature[] {
  return out
    .split(/^Signature #\d+:$/m)
    .slice(1)
    .map((block) => ({
      field: /Signature Field Name: (.*)$/m.exec(block)?.[1]?.trim() ?? '',
      type: /Signature Type: (.*)$/m.exec(block)?.[1]?.trim() ?? '',
      valid: /Signature Validation: Signature is Valid\./.test(block),
      wholeFile: /^\s*- Total document signed/m.test(block),
    }));
}

/**
 * Per round, the ratio of the medians of two kinds' children (the nth child of each is of the
 * nth round), and the median of those ratios; NaN when no round has both. Pure.
 */
export function roundRatios(numerator: readonly number[][], denominator: readonly number[][]) {
  const byRound = numerator.flatMap((runs, i) => {
    const den = denominator[i];
    return den && runs.length > 0 && den.length > 0 ? [percentile(runs, 50) / percentile(den, 50)] : [];
  });
  return { byRound, median: byRound.length > 0 ? percentile(byRound, 50) : Number.NaN };
}

/** The targets against the figures: met, missed, or undefined when a figure is missing. Pure. */
export function sealLevelVerdicts(f: { ltaRatio: number; ltaPeakRssMb: number; ltaVsDocumenso: number }): {
  ratio?: boolean;
  memory?: boolean;
  documenso?: boolean;
} {
  const judge = (v: number, ok: (v: number) => boolean) => (Number.isFinite(v) ? ok(v) : undefined);
  return {
    ratio: judge(f.ltaRatio, (v) => v <= SEAL_LEVEL_TARGETS.ltaRatioMax),
    memory: judge(f.ltaPeakRssMb, (v) => v < SEAL_LEVEL_TARGETS.ltaPeakRssMaxMb),
    documenso: judge(f.ltaVsDocumenso, (v) => v <= SEAL_LEVEL_TARGETS.ltaVsDocumensoMax),
  };
}

// ---- the child ----

const SEAL_INFO = { reason: 'Final document', name: 'Evidence bench agreement · Agreement (50 pages)' };
const mb = (bytes: number) => bytes / (1024 * 1024);
const latin1 = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1');

/** The files the parent leaves in the work dir for the children: one key and certificate, several wrappings. */
const FILES = {
  p12: 'seal.p12',
  passphrase: 'seal.pass',
  certificate: 'seal.pem',
  key: 'seal-key.pem',
  /** The same key and certificate, PBE-SHA1-3DES: the PKCS #12 @documenso/pdf-sign can read. */
  legacyP12: 'seal-legacy.p12',
  root: 'root.pem',
} as const;
const LEGACY_PASSWORD = 'bench';

/** argv: kind, input file, work dir, TSA URL, warmup, runs. */
async function childMain(argv: string[]): Promise<void> {
  const [kind, input, dir, tsaUrl, warmupArg, runsArg] = argv as [
    TLevelKind,
    string,
    string,
    string,
    string,
    string,
  ];
  if (!LEVEL_KINDS.includes(kind)) throw new Error(`unknown kind ${kind}`);
  const file = (name: string) => readFileSync(path.join(dir, name));
  const bytes = new Uint8Array(readFileSync(input));
  const { once, check, profile } = await workOf(kind, bytes, {
    identity: {
      p12: file(FILES.p12),
      passphrase: file(FILES.passphrase).toString('utf8'),
      certificatePem: file(FILES.certificate).toString('utf8'),
      commonName: 'Evidence bench seal',
    },
    keyPem: file(FILES.key).toString('utf8'),
    legacyP12: file(FILES.legacyP12),
    rootPem: file(FILES.root).toString('utf8'),
    tsaUrl,
  });
  const baselineRssMb = mb(process.memoryUsage().rss);
  let out: Uint8Array = bytes;
  const time = async (n: number) => {
    const samples: number[] = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      out = await once();
      samples.push(performance.now() - t0);
    }
    return samples;
  };
  const warmupMs = await time(Number(warmupArg));
  const runsMs = await time(Number(runsArg));
  const peak = peakRss();
  // After the clock: the answer, checked; then, for B-LTA, where its time goes.
  const checked = await check(out);
  const steps = profile ? await profile(Number(runsArg)) : undefined;
  const result: TLevelChildResult = {
    kind,
    warmupMs,
    runsMs,
    baselineRssMb,
    peakRssMb: peak.mb,
    peakSource: peak.source,
    outBytes: out.length,
    checked,
    ...(steps ? { steps } : {}),
  };
  process.stdout.write(JSON.stringify(result));
}

interface TWorkInputs {
  identity: import('#shared/pdf/evidence-types').TSealIdentity;
  keyPem: string;
  legacyP12: Buffer;
  rootPem: string;
  tsaUrl: string;
}

interface TWork {
  once: () => Promise<Uint8Array>;
  /** Throws when the answer is wrong; says what was checked. */
  check: (out: Uint8Array) => Promise<string>;
  profile?: (runs: number) => Promise<TLtaSteps>;
}

const levelOf = (kind: TLevelKind) => kind.split(':')[1] as TSealLevel;

async function workOf(kind: TLevelKind, bytes: Uint8Array, w: TWorkInputs): Promise<TWork> {
  if (kind === 'load-save') {
    return {
      once: async () => (await PDFDocument.load(bytes)).save(),
      check: async (out) => {
        const pages = (await PDFDocument.load(out, { updateMetadata: false })).getPageCount();
        const want = (await PDFDocument.load(bytes, { updateMetadata: false })).getPageCount();
        if (pages !== want) throw new Error(`load-save: ${pages} pages, not ${want}`);
        return `${pages} pages`;
      },
    };
  }
  if (kind.startsWith('ours:')) return oursWork(levelOf(kind), bytes, w);
  if (kind.startsWith('libpdf:')) return libpdfWork(levelOf(kind), bytes, w);
  return cmsWork(kind, bytes, w);
}

const configFor = (level: TSealLevel, tsaUrl: string): TConfig => ({
  stage: 'bench',
  region: 'us-east-1',
  tableName: '',
  bucketName: '',
  usagePlanId: '',
  logLevel: 'silent',
  endpoints: {},
  // The local CA's publication point is on loopback.
  fetch: { allowHttp: true, allowLoopback: true },
  ...(level === 'B-B' ? {} : { timestamps: { tsas: [{ url: tsaUrl }], level } }),
});

async function oursWork(level: TSealLevel, bytes: Uint8Array, w: TWorkInputs): Promise<TWork> {
  const { createEvidencePdf } = await import('#shared/adapters/pdf/evidence-pdf');
  const { readSeal } = await import('#shared/pdf/read-seal');
  const evidence = createEvidencePdf({ get: async () => w.identity }, configFor(level, w.tsaUrl));
  return {
    once: () => evidence.seal(bytes, SEAL_INFO),
    check: async (out) => {
      const seal = readSeal(out);
      if (!seal?.valid || !seal.coversWholeFile)
        throw new Error(`ours ${level}: the seal does not verify: ${seal?.problem ?? 'no seal found'}`);
      const sigs = pdfsigSignatures(pdfsig(out));
      if (!sigs[0]?.valid) throw new Error(`ours ${level}: pdfsig does not find the seal valid`);
      const said = ['readSeal valid over the whole file', 'pdfsig: seal valid'];
      if (level === 'B-T') said.push(checkSignatureTimestamp(out, w.rootPem, `ours ${level}`));
      if (level === 'B-LTA') said.push(checkArchive(out, w.rootPem, `ours ${level}`, true));
      if (level !== 'B-LTA' && !sigs[0].wholeFile)
        throw new Error(`ours ${level}: pdfsig: not the whole file`);
      return said.join('; ');
    },
    ...(level === 'B-LTA' ? { profile: (runs: number) => profileLta(bytes, w, runs) } : {}),
  };
}

/** The B-LTA seal, step by step, as createEvidencePdf wires it, each step timed. */
async function profileLta(bytes: Uint8Array, w: TWorkInputs, runs: number): Promise<TLtaSteps> {
  const { sealPdf } = await import('#shared/pdf/seal');
  const { addLongTermValidation } = await import('#shared/pdf/ltv');
  const { createTsaTimestamper } = await import('#shared/adapters/timestamps/tsa-timestamper');
  const { createValidationDataCollector } = await import(
    '#shared/adapters/validation/collect-validation-data'
  );
  const { createSafeFetcher } = await import('#shared/adapters/fetch/safe-fetch');
  const timestamper = createTsaTimestamper([{ url: w.tsaUrl }]);
  const fetchUrl = createSafeFetcher({
    allowHttp: true,
    allowLoopback: true,
    maxBytes: 20 * 1024 * 1024,
    timeoutMs: 10_000,
    maxRedirects: 3,
  });
  const collector = createValidationDataCollector(async (url) => (await fetchUrl(url)).bytes);
  const steps: Omit<TLtaSteps, 'runs'>[] = [];
  for (let i = 0; i < runs; i++) {
    const stamps: number[] = [];
    let collecting = 0;
    const stamp = async (imprint: Buffer) => {
      const t0 = performance.now();
      const token = (await timestamper.timestamp(imprint)).token;
      stamps.push(performance.now() - t0);
      return token;
    };
    const validation: TValidationDataCollector = {
      collect: async (signature) => {
        const t0 = performance.now();
        const data = await collector.collect(signature);
        collecting += performance.now() - t0;
        return data;
      },
    };
    const t0 = performance.now();
    const sealed = await sealPdf(bytes, w.identity, SEAL_INFO, stamp);
    const t1 = performance.now();
    await addLongTermValidation(Buffer.from(sealed), { validation, stamp });
    const t2 = performance.now();
    const archive = stamps.slice(1).reduce((a, b) => a + b, 0);
    steps.push({
      sealMs: t1 - t0,
      sealTimestampMs: stamps[0] ?? Number.NaN,
      validationDataMs: collecting,
      archiveTimestampMs: archive,
      updatesMs: t2 - t1 - collecting - archive,
    });
  }
  const med = (k: keyof Omit<TLtaSteps, 'runs'>) =>
    percentile(
      steps.map((s) => s[k]),
      50,
    );
  return {
    runs,
    sealMs: med('sealMs'),
    sealTimestampMs: med('sealTimestampMs'),
    validationDataMs: med('validationDataMs'),
    archiveTimestampMs: med('archiveTimestampMs'),
    updatesMs: med('updatesMs'),
  };
}

async function libpdfWork(level: TSealLevel, bytes: Uint8Array, w: TWorkInputs): Promise<TWork> {
  const { PDF, P12Signer, HttpTimestampAuthority } = await import('@libpdf/core');
  // The same PKCS #12 our seal opens (node-forge, AES-256): P12Signer reads it.
  const signer = await P12Signer.create(w.identity.p12, w.identity.passphrase);
  const timestampAuthority = new HttpTimestampAuthority(w.tsaUrl);
  return {
    once: async () => {
      const pdf = await PDF.load(bytes);
      const signed = await pdf.sign({
        signer,
        level,
        reason: SEAL_INFO.reason,
        ...(level === 'B-B' ? {} : { timestampAuthority }),
      });
      // A warning (revocation data it could not get, say) is a B-LTA it did not make.
      if (signed.warnings.length > 0)
        throw new Error(`libpdf ${level}: ${signed.warnings.map((x) => x.message).join('; ')}`);
      return signed.bytes;
    },
    check: async (out) => {
      const sigs = pdfsigSignatures(pdfsig(out));
      if (!sigs[0]?.valid) throw new Error(`libpdf ${level}: pdfsig does not find the signature valid`);
      const said = ['pdfsig: signature valid'];
      if (level !== 'B-LTA') {
        if (!sigs[0].wholeFile) throw new Error(`libpdf ${level}: pdfsig: not the whole file`);
        said.push('over the whole file');
      }
      if (level === 'B-T') said.push(checkSignatureTimestamp(out, w.rootPem, `libpdf ${level}`));
      // Its B-LTA adds the archive token's validation data in a last DSS update, after the
      // document timestamp: no signature covers the whole file.
      if (level === 'B-LTA') said.push(checkArchive(out, w.rootPem, `libpdf ${level}`, false));
      return said.join('; ');
    },
  };
}

async function cmsWork(kind: TLevelKind, bytes: Uint8Array, w: TWorkInputs): Promise<TWork> {
  const { addSealPlaceholder } = await import('#shared/pdf/seal-placeholder');
  const ours = kind === 'ours-cms:B-B';
  // The byte ranges, laid out once before the clock, as a caller of pdf-sign lays them out.
  const prepared = addSealPlaceholder(Buffer.from(bytes), {
    ...SEAL_INFO,
    signingTime: new Date(),
    signatureLength: 8192,
    // pdf-sign's CMS has no ESS signing-certificate attribute: not CAdES, a PKCS #7 signature.
    subFilter: ours ? 'ETSI.CAdES.detached' : 'adbe.pkcs7.detached',
  });
  if (!prepared) throw new Error(`${kind}: the file could not be prepared`);
  const { bytes: file, contentsAt, contentsLength } = prepared;
  const head = file.subarray(0, contentsAt);
  const tail = file.subarray(contentsAt + contentsLength);
  let sign: () => Promise<Buffer>;
  if (ours) {
    const { signDetached } = await import('#shared/pdf/cms');
    const key = createPrivateKey(w.keyPem);
    const certificate = new X509Certificate(w.identity.certificatePem).raw;
    // The same key in memory, as the PKCS #12 identity seals (seal.ts): no KMS round trip timed.
    const signer: TSealSigner = {
      commonName: w.identity.commonName,
      chain: [certificate],
      algorithm: 'RSASSA_PKCS1_V1_5_SHA_256',
      sign: async (data) => cryptoSign('sha256', data, key),
    };
    sign = () => signDetached(createHash('sha256').update(head).update(tail).digest(), signer);
  } else {
    // The binding @documenso/pdf-sign loads on this platform, taken directly: the wrapper package
    // names platform packages that are not all published, which breaks `npm ci` on its lock file.
    // A native module: loaded with require (ESM cannot import a .node file).
    const { signWithP12 } = createRequire(import.meta.url)('@documenso/pdf-sign-linux-x64-gnu') as TPdfSign;
    // Its API takes the signed bytes in one buffer: the copy is part of calling it.
    sign = async () =>
      signWithP12({ content: Buffer.concat([head, tail]), cert: w.legacyP12, password: LEGACY_PASSWORD });
  }
  let cms: Buffer = Buffer.alloc(0);
  return {
    once: async () => {
      cms = await sign();
      return cms;
    },
    check: async () => {
      if (cms.length * 2 > contentsLength - 2) throw new Error(`${kind}: the CMS does not fit`);
      const signed = Buffer.from(file);
      signed.write(cms.toString('hex'), contentsAt + 1, 'latin1');
      const sig = pdfsigSignatures(pdfsig(signed))[0];
      if (!sig?.valid || !sig.wholeFile)
        throw new Error(`${kind}: pdfsig does not find the signature valid over the whole file`);
      return `the CMS put in the field: pdfsig: signature (${sig.type}) valid over the whole file`;
    },
  };
}

function checkSignatureTimestamp(out: Uint8Array, rootPem: string, who: string): string {
  const ts = signatureTimestampOf(out);
  if (!ts) throw new Error(`${who}: no signature timestamp`);
  opensslVerifyTimestamp(ts.token, ts.imprint, rootPem);
  return 'openssl: signature timestamp verified';
}

function checkArchive(out: Uint8Array, rootPem: string, who: string, endsIt: boolean): string {
  const text = latin1(out);
  const archive = archiveTimestampOf(out);
  if (!archive) throw new Error(`${who}: no archive timestamp (/DocTimeStamp, ETSI.RFC3161)`);
  if (!/\/DSS\s+\d+\s+\d+\s+R/.test(text)) throw new Error(`${who}: no /DSS`);
  opensslVerifyTimestampOf(archive.token, archive.data, rootPem);
  if (endsIt) {
    const sigs = pdfsigSignatures(pdfsig(out));
    if (!sigs.at(-1)?.wholeFile)
      throw new Error(`${who}: the archive timestamp does not cover the whole file`);
  }
  return `a /DSS; openssl: archive timestamp verified over its byte ranges${endsIt ? ', which end the file' : ''}`;
}

// ---- the parent ----

export interface TLevelWork {
  kind: TLevelKind;
  runs: number;
  medianMs: number;
  minMs: number;
  maxMs: number;
  firstRunMs: number;
  peakRssMb: number;
  outBytes: number;
  /** Median over rounds of this kind's median / the round's load + save median. */
  ratioToLoadSave: number;
  checked: string;
}

export interface TSealLevelFigures {
  input: { pages: number; bytes: number };
  rounds: number;
  warmup: number;
  peakSource: TPeakSource;
  work: TLevelWork[];
  /** Per pair: median over rounds of ours / theirs (the two children ran back to back). */
  oursOverTheirs: { label: string; ours: TLevelKind; theirs: TLevelKind; ratio: number; byRound: number[] }[];
  ltaSteps: TLtaSteps | null;
  timedOut: boolean;
  failures: string[];
}

/**
 * Seals `input` (the rendered final document) at each level, ours and Documenso's, in fresh
 * processes, against the local TSA and publication point this process serves on loopback.
 */
export async function benchSealLevels(o: {
  input: string;
  workDir: string;
  warmup: number;
  runs: number;
  rounds: number;
  deadline: number;
}): Promise<TSealLevelFigures> {
  const { loadLocalCa } = await import('#infra/local/local-ca');
  const { startPkiStandin } = await import('#infra/local/pki-standin');
  const { startTsaStandin } = await import('#infra/local/tsa-standin');
  const { newSealIdentity } = await import('#shared/pdf/seal');
  const failures: string[] = [];
  let timedOut = false;
  const results = new Map<TLevelKind, TLevelChildResult[]>(LEVEL_KINDS.map((k) => [k, []]));

  const at = (name: string) => path.join(o.workDir, name);
  const identity = newSealIdentity('Evidence bench seal');
  writeFileSync(at(FILES.p12), identity.p12);
  writeFileSync(at(FILES.passphrase), identity.passphrase);
  writeFileSync(at(FILES.certificate), identity.certificatePem);
  // The same key and certificate out of the PKCS #12, and wrapped again for pdf-sign, by openssl.
  const keyAndCert = execFileSync(
    'openssl',
    ['pkcs12', '-in', at(FILES.p12), '-passin', `file:${at(FILES.passphrase)}`, '-nodes'],
    { encoding: 'utf8' },
  );
  writeFileSync(
    at(FILES.key),
    /-----BEGIN PRIVATE KEY-----[\s\S]+?-----END PRIVATE KEY-----\n/.exec(keyAndCert)![0],
  );
  execFileSync('openssl', [
    'pkcs12',
    '-export',
    '-in',
    at(FILES.certificate),
    '-inkey',
    at(FILES.key),
    '-keypbe',
    'PBE-SHA1-3DES',
    '-certpbe',
    'PBE-SHA1-3DES',
    '-macalg',
    'sha1',
    '-passout',
    `pass:${LEGACY_PASSWORD}`,
    '-out',
    at(FILES.legacyP12),
  ]);

  const pki = await startPkiStandin();
  const ca = await loadLocalCa(undefined, { pkiUrl: pki.url });
  pki.serve(ca);
  const tsa = await startTsaStandin({ ca });
  writeFileSync(at(FILES.root), ca.root.toString('pem'));
  try {
    rounds: for (let r = 0; r < o.rounds; r++) {
      for (const kind of LEVEL_KINDS) {
        const left = o.deadline - Date.now();
        if (left <= 0) {
          timedOut = true;
          break rounds;
        }
        try {
          const args = [kind, o.input, o.workDir, tsa.url, String(o.warmup), String(o.runs)];
          results.get(kind)!.push(await runTsxChild<TLevelChildResult>(THIS_FILE, args, left));
        } catch (err) {
          failures.push(err instanceof Error ? err.message : String(err));
          break rounds;
        }
      }
    }
  } finally {
    await tsa.stop();
    await pki.stop();
  }

  // Only whole rounds count: the nth child of each kind is of the nth round.
  const whole = Math.min(...LEVEL_KINDS.map((k) => results.get(k)!.length));
  const runsOf = (k: TLevelKind) =>
    results
      .get(k)!
      .slice(0, whole)
      .map((x) => x.runsMs);
  const work: TLevelWork[] =
    whole === 0
      ? []
      : LEVEL_KINDS.map((kind) => {
          const rs = results.get(kind)!.slice(0, whole);
          return {
            kind,
            ...spread(rs.flatMap((x) => x.runsMs)),
            firstRunMs: percentile(
              rs.map((x) => x.warmupMs[0] ?? x.runsMs[0] ?? Number.NaN),
              50,
            ),
            peakRssMb: Math.max(...rs.map((x) => x.peakRssMb)),
            outBytes: rs.at(-1)!.outBytes,
            ratioToLoadSave: roundRatios(runsOf(kind), runsOf('load-save')).median,
            checked: rs.at(-1)!.checked,
          };
        });
  const lta = results
    .get('ours:B-LTA')!
    .slice(0, whole)
    .flatMap((x) => (x.steps ? [x.steps] : []));
  const med = (k: keyof Omit<TLtaSteps, 'runs'>) =>
    percentile(
      lta.map((s) => s[k]),
      50,
    );
  return {
    input: {
      pages: (await PDFDocument.load(readFileSync(o.input), { updateMetadata: false })).getPageCount(),
      bytes: readFileSync(o.input).length,
    },
    rounds: whole,
    warmup: o.warmup,
    peakSource: results.get('load-save')![0]?.peakSource ?? 'VmHWM',
    work,
    oursOverTheirs: LEVEL_PAIRS.map((p) => {
      const r = roundRatios(runsOf(p.ours), runsOf(p.theirs));
      return { ...p, ratio: r.median, byRound: r.byRound };
    }),
    ltaSteps:
      lta.length > 0
        ? {
            runs: lta.reduce((a, s) => a + s.runs, 0),
            sealMs: med('sealMs'),
            sealTimestampMs: med('sealTimestampMs'),
            validationDataMs: med('validationDataMs'),
            archiveTimestampMs: med('archiveTimestampMs'),
            updatesMs: med('updatesMs'),
          }
        : null,
    timedOut,
    failures,
  };
}

// ---- report ----

const NAMES: Record<TLevelKind, string> = {
  'load-save': 'pdf-lib load + save (plain)',
  'ours:B-B': 'ours B-B (no authority)',
  'ours:B-T': 'ours B-T',
  'ours:B-LTA': 'ours B-LTA',
  'libpdf:B-B': '@libpdf/core B-B',
  'libpdf:B-T': '@libpdf/core B-T',
  'libpdf:B-LTA': '@libpdf/core B-LTA',
  'ours-cms:B-B': 'ours, CMS only (signDetached)',
  'pdf-sign:B-B': '@documenso/pdf-sign, CMS only',
};

const MB = (v: number) => (Number.isFinite(v) ? `${v.toFixed(0)} MB` : '—');
const x2 = (v: number) => (Number.isFinite(v) ? `${v.toFixed(2)}×` : '—');

/** The B-LTA figures the targets are about. */
export function ltaFigures(f: TSealLevelFigures) {
  const lta = f.work.find((w) => w.kind === 'ours:B-LTA');
  return {
    ltaRatio: lta?.ratioToLoadSave ?? Number.NaN,
    ltaPeakRssMb: lta?.peakRssMb ?? Number.NaN,
    ltaVsDocumenso: f.oursOverTheirs.find((p) => p.ours === 'ours:B-LTA')?.ratio ?? Number.NaN,
  };
}

/** Whether the run must fail: a wrong answer, or no figure. */
export const sealLevelsFailed = (f: TSealLevelFigures) => f.failures.length > 0 || f.work.length === 0;

export function sealLevelsReport(f: TSealLevelFigures): string {
  const t = SEAL_LEVEL_TARGETS;
  const lta = ltaFigures(f);
  const v = sealLevelVerdicts(lta);
  const verdict = (ok: boolean | undefined) => (ok === undefined ? '—' : mark(ok));
  const out = [
    '',
    `Evidence: the seal at each PAdES level, and Documenso's signing stack, on the rendered final document ` +
      `(${f.input.pages} pages, ${(f.input.bytes / (1024 * 1024)).toFixed(2)} MiB); fresh Node processes, ` +
      `${f.rounds} rounds × (${f.warmup} warm-up + runs), ours and theirs alternating`,
    table(
      [
        ['  work', 'runs', 'median', 'min', 'max', 'first run', 'peak RSS', '÷ load+save'],
        ...f.work.map((w) => [
          `  ${NAMES[w.kind]}`,
          String(w.runs),
          ms(w.medianMs),
          ms(w.minMs),
          ms(w.maxMs),
          ms(w.firstRunMs),
          MB(w.peakRssMb),
          w.kind === 'load-save' ? '' : x2(w.ratioToLoadSave),
        ]),
      ],
      ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
    ),
    table(
      [
        ['  ours ÷ Documenso', 'median of rounds', 'by round'],
        ...f.oursOverTheirs.map((p) => [
          `  ${p.label} (${NAMES[p.theirs]})`,
          x2(p.ratio),
          p.byRound.map((r) => r.toFixed(2)).join(', ') || '—',
        ]),
      ],
      ['l', 'r', 'l'],
    ),
    `  targets: B-LTA ÷ load+save ${x2(lta.ltaRatio)} ≤ ${t.ltaRatioMax} ${verdict(v.ratio)}; ` +
      `B-LTA peak ${MB(lta.ltaPeakRssMb)} < ${t.ltaPeakRssMaxMb} MB ${verdict(v.memory)}; ` +
      `B-LTA ours ÷ @libpdf/core ${x2(lta.ltaVsDocumenso)} ≤ ${t.ltaVsDocumensoMax} ${verdict(v.documenso)}`,
  ];
  const s = f.ltaSteps;
  if (s) {
    out.push(
      `  where our B-LTA's time goes (${s.runs} profiled runs after the timed ones; median of each child's medians): ` +
        `sealPdf ${ms(s.sealMs)} (of which the seal's timestamp ${ms(s.sealTimestampMs)}), ` +
        `validation data ${ms(s.validationDataMs)}, archive timestamp ${ms(s.archiveTimestampMs)}, ` +
        `DSS and document-timestamp updates ${ms(s.updatesMs)}`,
    );
  }
  out.push(
    '  The timestamp authority and the local CA (CRL, OCSP) are the local stand-ins on loopback, served by the bench process:',
    "  their network cost is loopback only; their own work (the authority's signature, the CRL) is in the figures.",
    '  Same RSA 3072 key and certificate, same authority, for every stack.',
    '  @documenso/pdf-sign signs bytes, not a PDF: its row is the CMS over the byte ranges of a field laid out before the clock;',
    "  its B-T is not measured: its timestamp client refuses the local stand-in's tokens.",
    ...f.work.map((w) => `  checked, ${NAMES[w.kind]}: ${w.checked}`),
  );
  if (f.timedOut) out.push('  cut short by the time bound');
  for (const x of f.failures) out.push(`  FAILED ${x}`);
  return out.join('\n');
}

/** results.json's `evidence.levels`: keys in a fixed order, figures rounded. */
export function sealLevelsJson(f: TSealLevelFigures) {
  const lta = ltaFigures(f);
  const v = sealLevelVerdicts(lta);
  const s = f.ltaSteps;
  return {
    input: f.input,
    method: {
      processes: 'one fresh Node process (tsx) per kind of work and round, ours and theirs alternating',
      rounds: f.rounds,
      warmupPerProcess: f.warmup,
      network: 'TSA and publication point (CRL, OCSP): local stand-ins on loopback',
      memory: `${f.peakSource} of the child (peak resident set since its exec)`,
    },
    targets: { ...SEAL_LEVEL_TARGETS },
    work: Object.fromEntries(
      f.work.map((w) => [
        w.kind,
        {
          runs: w.runs,
          medianMs: round(w.medianMs, 1),
          minMs: round(w.minMs, 1),
          maxMs: round(w.maxMs, 1),
          firstRunMs: round(w.firstRunMs, 1),
          peakRssMb: round(w.peakRssMb, 1),
          outBytes: w.outBytes,
          ratioToLoadSave: w.kind === 'load-save' ? 1 : round(w.ratioToLoadSave),
        },
      ]),
    ),
    oursOverTheirs: Object.fromEntries(
      f.oursOverTheirs.map((p) => [
        p.label,
        { theirs: p.theirs, ratio: round(p.ratio), byRound: p.byRound.map((r) => round(r)) },
      ]),
    ),
    ltaSteps: s
      ? {
          runs: s.runs,
          sealMs: round(s.sealMs, 1),
          sealTimestampMs: round(s.sealTimestampMs, 1),
          validationDataMs: round(s.validationDataMs, 1),
          archiveTimestampMs: round(s.archiveTimestampMs, 1),
          updatesMs: round(s.updatesMs, 1),
        }
      : null,
    ltaRatio: round(lta.ltaRatio),
    ltaRatioMet: v.ratio ?? false,
    ltaPeakRssMb: round(lta.ltaPeakRssMb, 1),
    ltaMemoryMet: v.memory ?? false,
    ltaVsDocumenso: round(lta.ltaVsDocumenso),
    ltaVsDocumensoMet: v.documenso ?? false,
    timedOut: f.timedOut,
    failed: sealLevelsFailed(f),
  };
}

// `node --import tsx bench/seal-levels.ts <kind> …`: one child's work (see childMain).
await runAsChild(import.meta.url, childMain);
