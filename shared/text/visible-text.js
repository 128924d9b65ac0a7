// @ts-check
// Whether a value shows anything a reader can see: the one rule for a required field, used by
// the service (shared/domain/signing) and by the signing page, which is served this very file
// (functions/public-pages/assets.ts), so the two cannot drift apart.
//
// Visible means a letter, number, punctuation or symbol (Unicode categories L, N, P, S) that is
// not a default-ignorable code point. That leaves out spaces, controls and format characters
// (zero-width space, joiners, direction marks), fillers that are letters by category but drawn
// as nothing (Hangul fillers U+115F, U+3164, U+FFA0), variation selectors, invisible vowel
// signs such as U+17B4, and a combining mark with no letter to sit on. The braille pattern
// blank (U+2800) is a symbol by category but an empty cell on screen: invisible too.

const VISIBLE = /(?![\p{Default_Ignorable_Code_Point}\u2800])[\p{L}\p{N}\p{P}\p{S}]/u;

/**
 * Whether `value` has at least one character a reader can see: "   ", "\u3164" or a lone
 * combining accent fill nothing.
 * @param {string} value
 * @returns {boolean}
 */
export function hasVisibleContent(value) {
  return VISIBLE.test(value);
}
