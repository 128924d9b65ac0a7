import { describe, expect, it } from 'vitest';
import { isFilled } from '#shared/domain/signing/field-access';
import type { TFieldKind } from '#shared/schemas/vocabulary';
// @ts-expect-error the page's rules are plain JavaScript served to the browser as they are
import { isFilled as pageIsFilled } from '../../functions/public-pages/public/rules.js';
import { hasVisibleContent } from '../../shared/text/visible-text.js';

// Characters a reader cannot see, though some are letters or symbols by category: Hangul fillers
// (Lo, default-ignorable), the braille blank (So), an invisible Khmer vowel (Mn), a variation
// selector, combining marks with nothing to sit on, and the usual spaces and format characters.
const INVISIBLE: [string, string][] = [
  ['U+3164 Hangul filler', '\u3164'],
  ['U+2800 braille pattern blank', '\u2800'],
  ['U+115F Hangul choseong filler', '\u115F'],
  ['U+1160 Hangul jungseong filler', '\u1160'],
  ['U+FFA0 halfwidth Hangul filler', '\uFFA0'],
  ['U+17B4 Khmer vowel inherent aq', '\u17B4'],
  ['U+FE0F variation selector-16', '\uFE0F'],
  ['U+0301 a lone combining acute', '\u0301'],
  ['U+0E31 a lone Thai vowel sign', '\u0E31'],
  ['U+034F combining grapheme joiner', '\u034F'],
  ['U+200B zero-width space', '\u200B'],
  ['U+2060 word joiner', '\u2060'],
  ['U+FEFF byte order mark', '\uFEFF'],
  ['U+00AD soft hyphen', '\u00AD'],
  ['U+3000 ideographic space', '\u3000'],
  ['a mix of them', ' \u3164\u2800\u200D\uFE0F\u0301 '],
];

const VISIBLE: [string, string][] = [
  ['a Latin letter', 'a'],
  ['a letter with a combining accent', 'e\u0301'],
  ['a Han character', '名'],
  ['Arabic', 'آن'],
  ['a digit', '7'],
  ['punctuation', '.'],
  ['a symbol', '$'],
  ['an emoji with its variation selector', '\u2764\uFE0F'],
  ['a Hangul syllable after a filler', '\u3164한'],
  ['a braille letter (dots, not blank)', '\u2801'],
];

describe('the visible-character rule', () => {
  it.each(INVISIBLE)('%s shows nothing', (_name, value) => {
    expect(hasVisibleContent(value)).toBe(false);
  });

  it.each(VISIBLE)('%s shows something', (_name, value) => {
    expect(hasVisibleContent(value)).toBe(true);
  });

  it('leaves a required text field and a typed mark unfilled, in the service and in the page alike', () => {
    for (const [name, value] of INVISIBLE) {
      for (const [kind, v] of <[TFieldKind, string][]>[
        ['inp', value],
        ['txt', value],
        ['sig', `typed:${value}`],
        ['ini', `typed:${value}`],
      ]) {
        expect(isFilled({ kind }, v), `${kind} ${name}`).toBe(false);
        expect(pageIsFilled({ kind }, v), `page ${kind} ${name}`).toBe(false);
      }
    }
    expect(isFilled({ kind: 'sig' }, 'typed:\u3164한')).toBe(true);
    expect(pageIsFilled({ kind: 'sig' }, 'typed:\u3164한')).toBe(true);
  });
});
