// Two faults of @pdf-lib/fontkit (the fontkit fork pdf-lib embeds fonts with) that the Noto fonts
// run into, mended where the library is loaded (fonts.ts) and nowhere else:
//
// 1. Its build calls `regeneratorRuntime` (Babel's generator runtime) without shipping it; the
//    state machine that finds Devanagari syllables (and other Indic and universal shapers) is the
//    one generator that needs it. The shim below runs exactly the code Babel emitted for it: a
//    `wrap`ped step function called until it stops, each `return`ed value one `yield`.
// 2. Its TrueType subsetter writes a short `loca` table (offsets halved) whenever the subset is
//    small, while copying glyphs of odd byte length as they are, so every glyph after an odd one
//    starts half a byte-pair off: Noto Sans JP and SC then render as nothing. Each subset glyph is
//    padded to an even length, as the TrueType specification asks for short offsets.

interface TBabelContext {
  prev: number;
  next: number;
  done: boolean;
  stop(): void;
}
type TStep = (context: TBabelContext) => unknown;

const generatorRuntime = {
  mark: <T>(generator: T): T => generator,
  wrap(step: TStep): IterableIterator<unknown> {
    const context: TBabelContext = {
      prev: 0,
      next: 0,
      done: false,
      stop() {
        context.done = true;
      },
    };
    const iterator: IterableIterator<unknown> = {
      next() {
        if (context.done) return { done: true, value: undefined };
        const value = step(context);
        return context.done ? { done: true, value: undefined } : { done: false, value };
      },
      [Symbol.iterator]: () => iterator,
    };
    return iterator;
  },
};

/** The byte buffer class fontkit encodes with (its own Buffer polyfill in the UMD build). */
interface TFontkitBuffer {
  length: number;
  copy(target: TFontkitBuffer): number;
  constructor: { alloc(size: number): TFontkitBuffer };
}

interface TTrueTypeSubset {
  glyf: TFontkitBuffer[];
  offset: number;
  _addGlyph(gid: number): number;
}

const mended = new WeakSet<object>();

export function installGeneratorRuntime(): void {
  const scope = globalThis as { regeneratorRuntime?: unknown };
  scope.regeneratorRuntime ??= generatorRuntime;
}

/** Pads each glyph a TrueType subset copies to an even length (once per subset class). */
export function mendTrueTypeSubsets(parsed: { createSubset(): unknown }): void {
  const subset = parsed.createSubset() as TTrueTypeSubset;
  const proto = Object.getPrototypeOf(subset) as TTrueTypeSubset;
  if (mended.has(proto) || typeof proto._addGlyph !== 'function') return;
  mended.add(proto);
  const addGlyph = proto._addGlyph;
  proto._addGlyph = function (this: TTrueTypeSubset, gid: number): number {
    const index = addGlyph.call(this, gid);
    const glyph = this.glyf[index]!;
    if (glyph.length % 2 === 1) {
      const padded = glyph.constructor.alloc(glyph.length + 1);
      glyph.copy(padded);
      this.glyf[index] = padded;
      this.offset += 1;
    }
    return index;
  };
}
