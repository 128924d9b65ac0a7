import { describe, expect, it } from 'vitest';
import {
  adjustToContrast,
  brandPalette,
  contrastRatio,
  MIN_TEXT_CONTRAST,
  relativeLuminance,
} from '#shared/domain/accounts/brand-palette';

/** Hue in degrees, to check an adjusted colour kept the brand's own. */
function hueOf(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16) / 255) as [
    number,
    number,
    number,
  ];
  const max = Math.max(r, g, b);
  const d = max - Math.min(r, g, b);
  if (d === 0) return 0;
  const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return (h * 60 + 360) % 360;
}

describe('WCAG contrast', () => {
  it('computes relative luminance and the contrast ratio as WCAG defines them', () => {
    expect(relativeLuminance('#000000')).toBe(0);
    expect(relativeLuminance('#ffffff')).toBe(1);
    expect(contrastRatio('#000000', '#ffffff')).toBe(21);
    expect(contrastRatio('#ffffff', '#ffffff')).toBe(1);
    // Known pairs (WebAIM's checker): #767676 on white is the lightest grey that passes.
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
    expect(contrastRatio('#777777', '#ffffff')).toBeLessThan(4.5);
    expect(contrastRatio('#2450c8', '#ffffff')).toBeCloseTo(contrastRatio('#ffffff', '#2450c8'), 10);
  });
});

describe('a brand colour made readable', () => {
  it('keeps a dark brand colour as it is, with white text', () => {
    expect(brandPalette('#0F766E')).toEqual({ brand: '#0f766e', onBrand: '#ffffff', brandText: '#0f766e' });
  });

  it('gives a light yellow dark text and darkens it, in its own hue, for text on the page', () => {
    const p = brandPalette('#ffe066')!;
    expect(p.brand).toBe('#ffe066');
    expect(p.onBrand).toBe('#111827');
    expect(contrastRatio(p.onBrand, p.brand)).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
    expect(p.brandText).not.toBe('#ffe066');
    expect(contrastRatio(p.brandText, '#eef0f4')).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
    expect(Math.abs(hueOf(p.brandText) - hueOf('#ffe066'))).toBeLessThan(3);
  });

  it('moves a mid-tone that neither white nor dark text can be read on, keeping its hue', () => {
    // Grey-blue #6a7fa0: white reaches about 4.1:1 and the dark ink less than 4.5:1.
    expect(contrastRatio('#ffffff', '#6a7fa0')).toBeLessThan(MIN_TEXT_CONTRAST);
    expect(contrastRatio('#111827', '#6a7fa0')).toBeLessThan(MIN_TEXT_CONTRAST);
    const p = brandPalette('#6a7fa0')!;
    expect(p.brand).not.toBe('#6a7fa0');
    expect(contrastRatio(p.onBrand, p.brand)).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
    expect(Math.abs(hueOf(p.brand) - hueOf('#6a7fa0'))).toBeLessThan(3);
  });

  it('every colour of a sweep ends readable on both sides', () => {
    for (let r = 0; r <= 255; r += 51)
      for (let g = 0; g <= 255; g += 51)
        for (let b = 0; b <= 255; b += 51) {
          const hex = `#${[r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
          const p = brandPalette(hex)!;
          expect(contrastRatio(p.onBrand, p.brand), hex).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
          expect(contrastRatio(p.brandText, '#eef0f4'), hex).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
        }
  });

  it('stops at black or white rather than looping', () => {
    expect(adjustToContrast('#ffffff', '#ffffff', 'darker')).toMatch(/^#[0-9a-f]{6}$/);
    expect(contrastRatio(adjustToContrast('#ffffff', '#ffffff', 'darker'), '#ffffff')).toBeGreaterThanOrEqual(
      4.5,
    );
  });

  it('answers nothing for what is not #rrggbb', () => {
    expect(brandPalette(undefined)).toBeUndefined();
    expect(brandPalette('red')).toBeUndefined();
    expect(brandPalette('#fff')).toBeUndefined();
  });
});
