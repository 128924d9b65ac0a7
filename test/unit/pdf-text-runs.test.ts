// Text in any script: which face draws each run (text-runs.ts), the order right-to-left lines are
// seen in (bidi.ts), and that the Noto faces are shaped as their scripts ask. Real fonts, no PDF
// reader: the files as readers see them are checked in pdf-certificate.test.ts and the HTTP test.
import { PDFDocument } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { directionOfText, visualRuns } from '#shared/pdf/bidi';
import { piecesOf } from '#shared/pdf/draw-text';
import { embedFonts, type TFontSet } from '#shared/pdf/fonts';
import { drawable, wrapText } from '#shared/pdf/text';
import { fallbackScriptsOf, runsOf } from '#shared/pdf/text-runs';

const faces = (runs: { text: string; font: { face: string } }[]) => runs.map((r) => [r.text, r.font.face]);

describe('the Noto faces a document embeds', () => {
  it('are those of the scripts its texts use, Han as Japanese when kana is near or the language is', () => {
    expect([...fallbackScriptsOf(['Ann Lee', 'Zoë Ørsted', 'דנה לוי'], 'chinese')]).toEqual([]);
    expect([...fallbackScriptsOf(['ليلى حداد', 'अनीता'], 'chinese')].sort()).toEqual([
      'arabic',
      'devanagari',
    ]);
    expect([...fallbackScriptsOf(['王小明'], 'chinese')]).toEqual(['chinese']);
    expect([...fallbackScriptsOf(['王小明'], 'japanese')]).toEqual(['japanese']);
    expect([...fallbackScriptsOf(['山田 はなこ'], 'chinese')]).toEqual(['japanese']);
  });
});

describe('runs of one face', () => {
  let fonts: TFontSet;
  beforeAll(async () => {
    fonts = await embedFonts(await PDFDocument.create(), {
      texts: ['ليلى', 'अनीता', '山田 はなこ', '王小明'],
      language: 'zh-CN',
    });
  });

  it('give each script its face and keep spaces, digits and marks with the run they are in', () => {
    expect(faces(runsOf(fonts.regular, 'Ann ليلى حداد 2'))).toEqual([
      ['Ann ', 'regular'],
      ['ليلى حداد 2', 'arabic-regular'],
    ]);
    expect(faces(runsOf(fonts.regular, 'अनीता शर्मा, Delhi'))).toEqual([
      ['अनीता शर्मा, ', 'devanagari-regular'],
      ['Delhi', 'regular'],
    ]);
    expect(faces(runsOf(fonts.bold, 'Zoë אבג'))).toEqual([['Zoë אבג', 'bold']]);
  });

  it('draw bold text with the bold Noto faces', () => {
    expect(faces(runsOf(fonts.bold, 'ليلى'))).toEqual([['ليلى', 'arabic-bold']]);
  });

  it('draw Han with the Japanese face beside kana, else with the face of the document’s language', () => {
    expect(faces(runsOf(fonts.regular, '山田 はなこ'))).toEqual([['山田 はなこ', 'japanese-regular']]);
    expect(faces(runsOf(fonts.regular, '王小明'))).toEqual([['王小明', 'chinese-regular']]);
  });

  it('leave as "?" only what no face has, and count it', () => {
    const missing = new Set<string>();
    expect(drawable(fonts.regular, 'ليلى 王 สยาม', missing)).toBe('ليلى 王 ????');
    expect([...missing].sort()).toEqual(['ม', 'ย', 'ส', 'า'].sort());
  });

  it('wrap Chinese and Japanese where the line is full, not at the last space', () => {
    const text = '本人確認 この証明書はサービスが収集した証拠を記録したものです';
    const lines = wrapText(fonts.regular, text, 10, 150);
    expect(lines[0]!.startsWith('本人確認 この')).toBe(true);
    expect(lines.join('')).toBe(text);
  });
});

describe('shaping by the Noto faces', () => {
  let fonts: TFontSet;
  beforeAll(async () => {
    fonts = await embedFonts(await PDFDocument.create(), { texts: ['لا', 'कि'] });
  });

  it('joins Arabic letters and places their dots as marks, which is why they are drawn glyph by glyph', () => {
    const arabic = fonts.regular.fallbacks.arabic!;
    const names = (text: string) =>
      (arabic.layout(text).glyphs as unknown as { name: string }[]).map((g) => g.name);
    // Laid out right to left: the final form first.
    expect(names('بيت').filter((n) => n.startsWith('uni'))).toEqual([
      'uni066E.fina',
      'uni066E.medi.wide',
      'uni066E.init',
    ]);
    expect(names('لا')).toEqual(['uni0627.fina.rlig', 'uni0644.init.rlig']);
    // The dots are glyphs of their own, moved onto their letters by the font's positioning rules.
    const { glyphs, positions } = arabic.layout('بيت');
    const marks = glyphs.flatMap((g, i) =>
      (g as unknown as { codePoints: number[] }).codePoints.length === 0 ? [positions[i]!] : [],
    );
    expect(marks).toHaveLength(3);
    expect(marks.every((p) => p.xOffset !== 0 || p.yOffset !== 0)).toBe(true);
  });

  it('puts the Devanagari vowel sign i before its consonant and forms conjuncts', () => {
    const devanagari = fonts.regular.fallbacks.devanagari!;
    const ki = devanagari.layout('कि').glyphs as unknown as { codePoints: number[] }[];
    expect(ki.map((g) => g.codePoints)).toEqual([[0x093f], [0x0915]]);
    // क्ष: ka, virama, ssa shape into fewer glyphs than characters.
    expect(devanagari.layout('क्ष').glyphs.length).toBeLessThan(3);
  });
});

describe('lines with right-to-left text', () => {
  it('are left to right when they hold no right-to-left letter, whatever the page', () => {
    expect(visualRuns('ann@example.com (UTC)', 'rtl')).toEqual([
      { text: 'ann@example.com (UTC)', rtl: false },
    ]);
  });

  it('put runs in the order they are seen: numbers and Latin stay left to right inside Arabic', () => {
    expect(visualRuns('مرحبا 2025 abc', 'auto')).toEqual([
      { text: 'abc', rtl: false },
      { text: ' ', rtl: true },
      { text: '2025', rtl: false },
      { text: 'مرحبا ', rtl: true },
    ]);
    expect(visualRuns('Contract עם דנה v2', 'ltr')).toEqual([
      { text: 'Contract ', rtl: false },
      { text: 'עם דנה', rtl: true },
      { text: ' v2', rtl: false },
    ]);
  });

  it('mirror brackets inside right-to-left runs', () => {
    expect(visualRuns('(نسخة)', 'rtl')).toEqual([{ text: ')نسخة(', rtl: true }]);
  });

  it('take their direction from their first letter', () => {
    expect(directionOfText('2025 שלום')).toBe('rtl');
    expect(directionOfText('Ann شكرا')).toBe('ltr');
    expect(directionOfText('123')).toBe('ltr');
  });

  it('hand Arabic to its face in logical order (it lays it out itself) and reverse only neutral pieces', async () => {
    const fonts = await embedFonts(await PDFDocument.create(), { texts: ['ليلى'] });
    const pieces = piecesOf(fonts.regular, 'ليلى - 2 «x»', 'rtl').map((p) => [p.text, p.font.face]);
    // Levels: «ليلى - » 1, «2» 2, « «» 1, «x» 2, «»» 1; the guillemets mirrored in the runs at 1.
    expect(pieces).toEqual([
      ['«', 'regular'],
      ['x', 'regular'],
      ['» ', 'regular'],
      ['2', 'regular'],
      ['ليلى - ', 'arabic-regular'],
    ]);
  });
});
