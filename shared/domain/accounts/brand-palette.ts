// A signing brand's primary colour made readable (WCAG 2.2 AA, 1.4.3): the button text on the
// brand colour, and the brand colour as text on the page, each reach 4.5:1. A colour that falls
// short is moved in lightness only, keeping its hue and saturation, until it passes. Pure: the
// signing page's shell (functions/public-pages/pages.ts) hands the result to the page as its
// colour properties; the console's brand preview (the API's `palette`) shows the same colours.

/** The page's background (app.css `--bg`), the darkest surface brand-coloured text sits on. */
const PAGE_BACKGROUND = '#eef0f4';
const WHITE = '#ffffff';
/** The page's dark ink for text on a light brand colour. */
const DARK = '#111827';
/** WCAG 1.4.3 (AA) for normal-size text. */
export const MIN_TEXT_CONTRAST = 4.5;

export interface TBrandPalette {
  /** The buttons' fill: the brand colour, or the nearest one in its hue its text can be read on. */
  brand: string;
  /** The buttons' text: white or the page's ink, whichever reads better on `brand`. */
  onBrand: string;
  /** Links and accents on the page: the brand colour, darkened when too light to read on it. */
  brandText: string;
}

type TRgb = [number, number, number];

const isHex = (c: string) => /^#[0-9a-f]{6}$/i.test(c);
const rgbOf = (hex: string): TRgb => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as TRgb;
const hexOf = (rgb: TRgb) => `#${rgb.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;

/** WCAG's relative luminance of an sRGB colour, 0 (black) to 1 (white). */
export function relativeLuminance(hex: string): number {
  const [r, g, b] = rgbOf(hex).map((v) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as TRgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG's contrast ratio of two colours, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

function hslOf([r, g, b]: TRgb): TRgb {
  const [rn, gn, bn] = [r / 255, g / 255, b / 255];
  const max = Math.max(rn, gn, bn);
  const min = Math.min(rn, gn, bn);
  const l = (max + min) / 2;
  if (max === min) return [0, 0, l];
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  const h =
    max === rn ? (gn - bn) / d + (gn < bn ? 6 : 0) : max === gn ? (bn - rn) / d + 2 : (rn - gn) / d + 4;
  return [h * 60, s, l];
}

function rgbOfHsl([h, s, l]: TRgb): TRgb {
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1));
  return [f(0) * 255, f(8) * 255, f(4) * 255];
}

/**
 * `color` made darker (or lighter) in small steps of lightness, hue and saturation kept, until
 * it reaches `min` against `other`. Black and white are the ends, so it always gets there.
 */
export function adjustToContrast(
  color: string,
  other: string,
  direction: 'darker' | 'lighter',
  min = MIN_TEXT_CONTRAST,
): string {
  const [h, s, l0] = hslOf(rgbOf(color));
  let candidate = color;
  for (let l = l0; contrastRatio(candidate, other) < min; ) {
    l = direction === 'darker' ? Math.max(0, l - 0.005) : Math.min(1, l + 0.005);
    candidate = hexOf(rgbOfHsl([h, s, l]));
    if (l === 0 || l === 1) break;
  }
  return candidate;
}

/** The colours a signing page uses for `primaryColor`; undefined when it is not `#rrggbb`. */
export function brandPalette(primaryColor: string | undefined): TBrandPalette | undefined {
  if (!primaryColor || !isHex(primaryColor)) return undefined;
  const color = primaryColor.toLowerCase();
  // The text that reads better on the brand colour as given; the colour moves only when neither does.
  const onBrand = contrastRatio(WHITE, color) >= contrastRatio(DARK, color) ? WHITE : DARK;
  const brand = adjustToContrast(color, onBrand, onBrand === WHITE ? 'darker' : 'lighter');
  const brandText = adjustToContrast(color, PAGE_BACKGROUND, 'darker');
  return { brand, onBrand, brandText };
}
