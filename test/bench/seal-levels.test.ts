import { describe, expect, it } from 'vitest';
import {
  LEVEL_KINDS,
  LEVEL_PAIRS,
  pdfsigSignatures,
  roundRatios,
  SEAL_LEVEL_TARGETS,
  sealLevelsJson,
  sealLevelsReport,
  sealLevelVerdicts,
  type TSealLevelFigures,
} from '../../bench/seal-levels';

// What pdfsig (poppler 22+) prints for a B-LTA file: the seal, then the archive timestamp.
const PDFSIG_LTA = `Digital Signature Info of: ours-B-LTA.pdf
Signature #1:
  - Signature Field Name: Seal
  - Signer Certificate Common Name: Proto seal
  - Signing Hash Algorithm: SHA-256
  - Signature Type: ETSI.CAdES.detached
  - Signed Ranges: [0 - 10546813], [10612351 - 10612788]
  - Not total document signed
  - Signature Validation: Signature is Valid.
  - Certificate Validation: Certificate issuer is unknown.
Signature #2:
  - Signature Field Name: ArchiveTimestamp2
  - Signature Type: unknown
  - Signed Ranges: [0 - 10617093], [10649863 - 10650141]
  - Total document signed
  - Signature Validation: Signature has not yet been verified.
`;

describe('pdfsigSignatures', () => {
  it('reads each signature: field, type, valid, over the whole file', () => {
    expect(pdfsigSignatures(PDFSIG_LTA)).toEqual([
      { field: 'Seal', type: 'ETSI.CAdES.detached', valid: true, wholeFile: false },
      { field: 'ArchiveTimestamp2', type: 'unknown', valid: false, wholeFile: true },
    ]);
  });

  it('finds none in a file without signatures, and an invalid one as such', () => {
    expect(
      pdfsigSignatures("Digital Signature Info of: a.pdf\nFile 'a.pdf' does not contain any signatures\n"),
    ).toEqual([]);
    const broken = PDFSIG_LTA.replace('Signature is Valid.', 'Signature is Invalid.');
    expect(pdfsigSignatures(broken)[0]).toMatchObject({ valid: false });
  });
});

describe('roundRatios', () => {
  it('divides the medians of each round, and takes the median of those', () => {
    const r = roundRatios(
      [
        [30, 10, 20],
        [40, 40],
        [90, 90, 90],
      ],
      [[10, 10, 10], [20], [30]],
    );
    expect(r.byRound).toEqual([2, 2, 3]);
    expect(r.median).toBe(2);
  });

  it('leaves out rounds one side lacks, and answers NaN with none', () => {
    expect(roundRatios([[10], [20]], [[5]]).byRound).toEqual([2]);
    expect(roundRatios([], [[5]]).median).toBeNaN();
    expect(roundRatios([[]], [[5]]).byRound).toEqual([]);
  });
});

describe('sealLevelVerdicts', () => {
  it('meets each target at its bound, misses it past, and says nothing without a figure', () => {
    const t = SEAL_LEVEL_TARGETS;
    expect(
      sealLevelVerdicts({ ltaRatio: t.ltaRatioMax, ltaPeakRssMb: t.ltaPeakRssMaxMb - 1, ltaVsDocumenso: 1 }),
    ).toEqual({ ratio: true, memory: true, documenso: true });
    expect(
      sealLevelVerdicts({ ltaRatio: 4.01, ltaPeakRssMb: t.ltaPeakRssMaxMb, ltaVsDocumenso: 1.01 }),
    ).toEqual({ ratio: false, memory: false, documenso: false });
    expect(
      sealLevelVerdicts({ ltaRatio: Number.NaN, ltaPeakRssMb: 100, ltaVsDocumenso: Number.NaN }),
    ).toEqual({
      ratio: undefined,
      memory: true,
      documenso: undefined,
    });
  });
});

describe('the kinds of work', () => {
  it('compares only kinds a round runs, each level ours against Documenso’s', () => {
    for (const p of LEVEL_PAIRS) {
      expect(LEVEL_KINDS).toContain(p.ours);
      expect(LEVEL_KINDS).toContain(p.theirs);
    }
    expect(LEVEL_PAIRS.map((p) => p.label)).toEqual(['B-B', 'B-T', 'B-LTA', 'CMS only, B-B']);
    expect(LEVEL_KINDS[0]).toBe('load-save');
  });
});

describe('sealLevelsReport and sealLevelsJson', () => {
  const work = (kind: (typeof LEVEL_KINDS)[number], medianMs: number, peakRssMb: number, ratio: number) => ({
    kind,
    runs: 5,
    medianMs,
    minMs: medianMs - 1,
    maxMs: medianMs + 1,
    firstRunMs: medianMs * 3,
    peakRssMb,
    outBytes: 10_000_000,
    ratioToLoadSave: ratio,
    checked: 'checked',
  });
  const figures: TSealLevelFigures = {
    input: { pages: 51, bytes: 10_545_535 },
    rounds: 5,
    warmup: 1,
    peakSource: 'VmHWM',
    work: [
      work('load-save', 100, 180, 1),
      work('ours:B-LTA', 450, 600, 4.5),
      work('libpdf:B-LTA', 400, 400, 4),
    ],
    oursOverTheirs: LEVEL_PAIRS.map((p) => ({ ...p, ratio: p.label === 'B-LTA' ? 1.125 : 0.5, byRound: [] })),
    ltaSteps: null,
    timedOut: false,
    failures: [],
  };

  it('prints each missed target as missed, and writes the verdicts', () => {
    const text = sealLevelsReport(figures);
    expect(text).toMatch(/B-LTA ÷ load\+save 4\.50× ≤ 4 ✗/);
    expect(text).toMatch(/B-LTA peak 600 MB < 512 MB ✗/);
    expect(text).toMatch(/B-LTA ours ÷ @libpdf\/core 1\.13× ≤ 1 ✗/);
    expect(text).toMatch(/loopback/);
    const json = sealLevelsJson(figures);
    expect(json).toMatchObject({
      ltaRatio: 4.5,
      ltaRatioMet: false,
      ltaPeakRssMb: 600,
      ltaMemoryMet: false,
      ltaVsDocumenso: 1.13,
      ltaVsDocumensoMet: false,
      failed: false,
    });
    expect(Object.keys(json.work)).toEqual(['load-save', 'ours:B-LTA', 'libpdf:B-LTA']);
    expect(json.oursOverTheirs['B-LTA']).toEqual({ theirs: 'libpdf:B-LTA', ratio: 1.13, byRound: [] });
  });
});
