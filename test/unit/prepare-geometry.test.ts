import { describe, expect, it } from 'vitest';
// @ts-expect-error the page's helpers are plain JavaScript served to the browser as they are
import * as embed from '../../functions/public-pages/public/prepare-embed.js';
// @ts-expect-error the page's helpers are plain JavaScript served to the browser as they are
import * as geometry from '../../functions/public-pages/public/prepare-geometry.js';

const { copyPlace, nudged, snapMove, snapResize, snapValue } = geometry;
const { allowedParent } = embed;

// Where the preparation editor puts a field (prepare-geometry.js), and whom a framed bundle
// editor tells what happened (prepare-embed.js): pure logic of the page's modules.

describe("the editor's geometry", () => {
  const other = { x: 40, y: 20, w: 10, h: 5 };

  it('snaps to another field edge within reach, else to the half-percent grid', () => {
    expect(snapValue(40.8, [40, 50])).toBe(40);
    expect(snapValue(49.3, [40, 50])).toBe(50);
    expect(snapValue(12.3, [40, 50])).toBe(12.5);
  });

  it('moves a box by whichever edge comes nearer to another field, and keeps it on the page', () => {
    const box = { x: 0, y: 0, w: 20, h: 4 };
    // Its right edge (19.6 + 20) comes within reach of the other field's left edge (40).
    expect(snapMove(box, 19.6, 3.2, [other])).toEqual({ x: 20, y: 3 });
    // Its left edge meets the other field's right edge.
    expect(snapMove(box, 50.4, 20.3, [other])).toEqual({ x: 50, y: 20 });
    expect(snapMove(box, 95, -3, [])).toEqual({ x: 80, y: 0 });
    expect(snapMove(box, 12.34, 7.77, [other], false)).toEqual({ x: 12.34, y: 7.77 });
  });

  it('resizes from the right and bottom edges, never below the smallest size nor off the page', () => {
    const box = { x: 10, y: 10, w: 20, h: 4 };
    expect(snapResize(box, 39.7, 15.2, [other])).toEqual({ w: 30, h: 5 });
    expect(snapResize(box, 5, 5, [])).toEqual({ w: 1, h: 1 });
    expect(snapResize(box, 130, 130, [])).toEqual({ w: 90, h: 90 });
  });

  it('nudges by half a percent, five with Shift, resizes with Alt, and stays on the page', () => {
    const box = { x: 10, y: 10, w: 20, h: 4 };
    expect(nudged(box, 'ArrowRight')).toEqual({ x: 10.5, y: 10 });
    expect(nudged(box, 'ArrowUp', { shift: true })).toEqual({ x: 10, y: 5 });
    expect(nudged(box, 'ArrowDown', { alt: true })).toEqual({ w: 20, h: 4.5 });
    expect(nudged({ ...box, x: 79.8 }, 'ArrowRight', { shift: true })).toEqual({ x: 80, y: 10 });
    expect(nudged(box, 'Enter')).toBeUndefined();
  });

  it('puts a copy beside the original, inside the page', () => {
    expect(copyPlace({ x: 10, y: 10, w: 20, h: 4 })).toEqual({ x: 12, y: 12 });
    expect(copyPlace({ x: 80, y: 96, w: 20, h: 4 })).toEqual({ x: 78, y: 94 });
  });
});

describe('whom the framed editor tells what happened', () => {
  const allowed = ['https://esign.example.com', 'https://app.partner.example'];

  it('only a parent of an allowed origin, never an opaque one', () => {
    expect(allowedParent('https://app.partner.example', allowed)).toBe('https://app.partner.example');
    expect(allowedParent('https://evil.example', allowed)).toBeUndefined();
    expect(allowedParent('null', [...allowed, 'null'])).toBeUndefined();
    expect(allowedParent(undefined, allowed)).toBeUndefined();
  });
});
