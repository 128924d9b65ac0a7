interface TMatrix2d {
  a: number;
  b: number;
  c: number;
  d: number;
  e: number;
  f: number;
}

/**
 * Just enough of DOMMatrix, 2-D only, for pdf.js to load and extract text in Node. Its display
 * layer builds a DOMMatrix when the module loads and expects the optional @napi-rs/canvas
 * package to provide one; that native package is not in the Lambda bundle. Text extraction
 * itself only uses it to trace Type3 glyphs made of image masks (scaleSelf, translateSelf).
 */
export class DomMatrix2d implements TMatrix2d {
  a = 1;
  b = 0;
  c = 0;
  d = 1;
  e = 0;
  f = 0;
  readonly is2D = true;

  constructor(init?: ArrayLike<number>) {
    if (init && init.length >= 6) {
      const [a, b, c, d, e, f] = Array.from(init) as [number, number, number, number, number, number];
      this.set({ a, b, c, d, e, f });
    }
  }

  get isIdentity(): boolean {
    return this.a === 1 && this.b === 0 && this.c === 0 && this.d === 1 && this.e === 0 && this.f === 0;
  }

  multiplySelf(m: TMatrix2d): this {
    return this.set(product(this, m));
  }

  preMultiplySelf(m: TMatrix2d): this {
    return this.set(product(m, this));
  }

  translateSelf(tx = 0, ty = 0): this {
    return this.multiplySelf({ a: 1, b: 0, c: 0, d: 1, e: tx, f: ty });
  }

  scaleSelf(sx = 1, sy = sx): this {
    return this.multiplySelf({ a: sx, b: 0, c: 0, d: sy, e: 0, f: 0 });
  }

  invertSelf(): this {
    const det = this.a * this.d - this.b * this.c;
    if (det === 0)
      return this.set({
        a: Number.NaN,
        b: Number.NaN,
        c: Number.NaN,
        d: Number.NaN,
        e: Number.NaN,
        f: Number.NaN,
      });
    const { a, b, c, d, e, f } = this;
    return this.set({
      a: d / det,
      b: -b / det,
      c: -c / det,
      d: a / det,
      e: (c * f - d * e) / det,
      f: (b * e - a * f) / det,
    });
  }

  multiply(m: TMatrix2d): DomMatrix2d {
    return this.copy().multiplySelf(m);
  }

  translate(tx = 0, ty = 0): DomMatrix2d {
    return this.copy().translateSelf(tx, ty);
  }

  scale(sx = 1, sy = sx): DomMatrix2d {
    return this.copy().scaleSelf(sx, sy);
  }

  inverse(): DomMatrix2d {
    return this.copy().invertSelf();
  }

  private copy(): DomMatrix2d {
    return new DomMatrix2d([this.a, this.b, this.c, this.d, this.e, this.f]);
  }

  private set(m: TMatrix2d): this {
    ({ a: this.a, b: this.b, c: this.c, d: this.d, e: this.e, f: this.f } = m);
    return this;
  }
}

/** `left × right`, in DOMMatrix's column-vector convention. */
function product(l: TMatrix2d, r: TMatrix2d): TMatrix2d {
  return {
    a: l.a * r.a + l.c * r.b,
    b: l.b * r.a + l.d * r.b,
    c: l.a * r.c + l.c * r.d,
    d: l.b * r.c + l.d * r.d,
    e: l.a * r.e + l.c * r.f + l.e,
    f: l.b * r.e + l.d * r.f + l.f,
  };
}

/**
 * Installs the shim unless the runtime has a DOMMatrix. Done before pdf.js loads, so pdf.js uses
 * it rather than @napi-rs/canvas's even where that package is installed: tests run what Lambda runs.
 */
export function installDomMatrixShim(): void {
  if (Reflect.get(globalThis, 'DOMMatrix') === undefined) Reflect.set(globalThis, 'DOMMatrix', DomMatrix2d);
}
