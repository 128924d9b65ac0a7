import fc from 'fast-check';
import { PDFDict, PDFDocument, PDFName, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { parseTextTag, tagEnd } from '#shared/domain/bundles/text-tag';
import { findTextTags } from '#shared/pdf/find-text';
import { hideTextTags } from '#shared/pdf/hide-text-tags';
import { pageTexts, wordBoxes } from '../helpers/poppler';

describe('the text tag grammar', () => {
  it('reads a kind, flags and valued options', () => {
    expect(parseTextTag('{{sig|signer=emp|required}}')).toEqual({
      tag: { kind: 'sig', signer: 'emp', required: true },
    });
    expect(
      parseTextTag('{{ inp | signer = hr | label = Job title | key=title | w=150 | h=18.5 | req }}'),
    ).toEqual({
      tag: { kind: 'inp', signer: 'hr', label: 'Job title', key: 'title', w: 150, h: 18.5, required: true },
    });
    expect(parseTextTag('{{dat|signer=emp|format=YYYY-MM-DD|optional}}')).toEqual({
      tag: { kind: 'dat', signer: 'emp', format: 'YYYY-MM-DD', required: false },
    });
    expect(parseTextTag('{{txt|pattern=email}}')).toEqual({
      tag: { kind: 'txt', pattern: 'email', required: false },
    });
  });

  it('takes the choices of a dropdown or checkbox group as options', () => {
    expect(parseTextTag('{{sel|signer=emp|options=Red, Green ,Blue\\, dark}}')).toEqual({
      tag: { kind: 'sel', signer: 'emp', options: ['Red', 'Green', 'Blue, dark'], required: false },
    });
    expect(parseTextTag('{{cbg|options=A,B}}')).toEqual({
      tag: { kind: 'cbg', options: ['A', 'B'], required: false },
    });
  });

  it('takes "|", "}" and "\\" in a value when "\\" escapes them', () => {
    expect(parseTextTag('{{inp|label=Yes \\| No \\}\\} \\\\ end}}')).toEqual({
      tag: { kind: 'inp', label: 'Yes | No }} \\ end', required: false },
    });
    expect(tagEnd('{{inp|label=a\\}}}', 0)).toBe(17);
    expect(tagEnd('x {{inp|label=a', 2)).toBe(-1);
  });

  it.each([
    ['{{foo|signer=emp}}', '"foo" is not a field kind'],
    ['{{|signer=emp}}', 'names no field kind'],
    ['{{sig|colour=red}}', '"colour" is not an option'],
    ['{{sig|required=yes}}', '"required" takes no value'],
    ['{{sig|signer}}', '"signer" needs a value'],
    ['{{sig|signer=}}', '"signer" has an empty value'],
    ['{{sig|signer=a|signer=b}}', '"signer" is given twice'],
    ['{{sig||required}}', 'is empty'],
    ['{{sig|w=-3}}', 'size in points'],
    ['{{sig|w=1e3}}', 'size in points'],
    ['{{sig|h=99999}}', 'size in points'],
    ['{{inp|pattern=zip}}', '"zip" is not a pattern'],
    ['{{inp|key=a}}', 'A key is 2 to 32'],
    ['{{inp|key=no spaces}}', 'A key is 2 to 32'],
    ['{{sig|signer=emp', 'not closed'],
    ['{{sig}} {{ini}}', 'one tag'],
    ['sig}}', 'starts with "{{"'],
    ['{{inp|options=A,B}}', 'Only a dropdown'],
    ['{{sel|options=A,,B}}', 'An option between "," is empty'],
    ['{{sel|options=A,A}}', 'given twice'],
    ['{{sel|options=A\\|B}}', 'may not hold "|"'],
    ['{{sel|options=A,B|format=A\\|B}}', 'not both'],
  ])('refuses %s, saying what is wrong', (text, problem) => {
    const parsed = parseTextTag(text);
    expect('error' in parsed && parsed.error).toContain(problem);
  });

  it('answers every string with a tag or a sentence, never a throw', () => {
    const tagish = fc.oneof(
      fc.string(),
      fc.string({ unit: fc.constantFrom('{', '}', '|', '=', '\\', 's', 'i', 'g', ' ', 'w', '1') }),
      fc.string().map((s) => `{{${s}}}`),
    );
    fc.assert(
      fc.property(tagish, (text) => {
        const parsed = parseTextTag(text);
        if ('tag' in parsed) expect(text.startsWith('{{') && text.endsWith('}}')).toBe(true);
        else expect(parsed.error.length).toBeGreaterThan(0);
        const end = tagEnd(text, 0);
        expect(end === -1 || (end >= 4 && end <= text.length)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

/** A Letter page with a tag split over three runs in two fonts, and a whole one in a sentence. */
async function aTaggedPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  let x = 72;
  for (const [text, font] of [
    ['Employee: ', regular],
    ['{{s', regular],
    ['ig|signer=ann', bold],
    ['|required}}', regular],
  ] as const) {
    page.drawText(text, { x, y: 700, size: 12, font });
    x += font.widthOfTextAtSize(text, 12);
  }
  page.drawText('Title: {{inp|signer=bob|label=Job title}} thanks', {
    x: 72,
    y: 600,
    size: 12,
    font: regular,
  });
  return doc.save();
}

describe('text tags in a PDF', () => {
  it('are found in reading order, across runs, with the box of their text', async () => {
    const pdf = await aTaggedPdf();
    const tags = await findTextTags(pdf, tagEnd);
    expect(tags.map((t) => [t.page, t.text, t.closed])).toEqual([
      [1, '{{sig|signer=ann|required}}', true],
      [1, '{{inp|signer=bob|label=Job title}}', true],
    ]);
    const [split] = tags;
    // Where poppler sees the tag's word start and end, in points of the 612 pt wide page.
    const word = wordBoxes(pdf).find((w) => w.word.startsWith('{{sig'))!;
    expect(word.word).toBe('{{sig|signer=ann|required}}');
    expect((split!.box.x / 100) * 612).toBeCloseTo(word.xMin, 0);
    expect(((split!.box.x + split!.box.w) / 100) * 612).toBeCloseTo(word.xMax, 0);
    // The baseline at 700 pt of 792 lies 11.6 % from the top; the box ends just below it.
    expect(split!.box.y + split!.box.h).toBeCloseTo(((792 - 700) / 792) * 100, 0);
  });

  it('report a tag the line does not close', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    page.drawText('Sign {{sig|signer=ann here', { x: 72, y: 700, size: 12 });
    const tags = await findTextTags(await doc.save(), tagEnd);
    expect(tags).toEqual([
      expect.objectContaining({ page: 1, text: '{{sig|signer=ann here', closed: false }),
    ]);
  });

  it('are taken out of the text and covered, the rest of the line kept', async () => {
    const pdf = await aTaggedPdf();
    const hidden = await hideTextTags(pdf, await findTextTags(pdf, tagEnd));
    const [text] = pageTexts(hidden);
    expect(pageTexts(pdf)[0]).toContain('{{inp|signer=bob|label=Job title}}');
    expect(text).not.toMatch(/[{}|]/);
    expect(text).toMatch(/Employee:/);
    expect(text).toMatch(/Title:\s+thanks/);
    // The tag's width is given back: the text after it, in the same run, stays in place.
    const box = (pdfBytes: Uint8Array, word: string) => wordBoxes(pdfBytes).find((w) => w.word === word);
    for (const word of ['Title:', 'thanks', 'Employee:']) {
      const [before, after] = [box(pdf, word)!, box(hidden, word)!];
      expect(after.xMin).toBeCloseTo(before.xMin, 1);
      expect(after.xMax).toBeCloseTo(before.xMax, 1);
      expect(after.yMax).toBeCloseTo(before.yMax, 1);
    }
    expect(await findTextTags(hidden, tagEnd)).toEqual([]);
  });

  it('are taken out of TJ arrays and literal strings too, what follows kept in place', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    page.drawText(' ', { x: 0, y: 0, size: 1, font: await doc.embedFont(StandardFonts.Helvetica) });
    const font = page.node.Resources()!.lookup(PDFName.of('Font'), PDFDict).keys()[0]!.asString();
    const content = [
      'BT',
      `${font} 12 Tf 72 700 Td`,
      '[(Pay: {{s) -20 (ig|signer=ann|label=Fee \\(EUR\\)}}) 10 ( done)] TJ',
      'ET',
      'BT',
      `${font} 12 Tf 72 650 Td`,
      '(Also {{ini|signer=ann}} here) Tj',
      'ET',
    ].join('\n');
    page.node.set(PDFName.of('Contents'), doc.context.register(doc.context.flateStream(content)));
    const pdf = await doc.save();
    const tags = await findTextTags(pdf, tagEnd);
    expect(tags.map((t) => t.text)).toEqual(['{{sig|signer=ann|label=Fee (EUR)}}', '{{ini|signer=ann}}']);
    const hidden = await hideTextTags(pdf, tags);
    expect(pageTexts(hidden)[0]).not.toMatch(/[{}|]/);
    for (const word of ['Pay:', 'done', 'Also', 'here']) {
      const [before, after] = [wordBoxes(pdf), wordBoxes(hidden)].map((b) => b.find((w) => w.word === word)!);
      expect(after!.xMin).toBeCloseTo(before!.xMin, 1);
    }
  });

  it('are hidden whatever they hold, and the text around them kept', async () => {
    const body = fc.string({
      unit: fc.constantFrom(...'abcz019 |=\\{}()<>%/[]-.'.split('')),
      maxLength: 40,
    });
    await fc.assert(
      fc.asyncProperty(body, async (inside) => {
        const doc = await PDFDocument.create();
        const page = doc.addPage([612, 792]);
        page.drawText(`Before {{${inside}}} after`, { x: 72, y: 700, size: 12 });
        const pdf = await doc.save();
        const tags = await findTextTags(pdf, tagEnd);
        expect(tags.length).toBeGreaterThan(0);
        const text = pageTexts(await hideTextTags(pdf, tags))[0]!;
        expect(text).not.toContain('{{');
        expect(text).toMatch(/^Before\b/);
      }),
      { numRuns: 25 },
    );
  });
});
