import { describe, expect, it } from 'vitest';
// @ts-expect-error the page's bubble placing is plain JavaScript served to the browser as it is
import { besideError, placement } from '../../functions/public-pages/public/bubbles.js';

// Where the bubbles beside a field go (pure geometry of bubbles.js): boxes in px, the visible
// screen of a 390 × 844 phone below a 60 px top bar, less its margins.

const area = { left: 8, right: 382, top: 68, bottom: 836 };
const box = (left: number, top: number, width: number, height: number) => ({
  left,
  top,
  right: left + width,
  bottom: top + height,
});

describe('a bubble beside a field', () => {
  it('is shifted left by as much as it overflows the right edge, and never past the left one', () => {
    const field = box(330, 400, 50, 20);
    expect(placement(box(329, 423, 140, 20), field, area, 'below')).toMatchObject({ dx: -87, flip: false });
    expect(placement(box(-20, 423, 140, 20), box(-19, 400, 50, 20), area, 'below').dx).toBe(28);
    // Wider than the screen (a zoomed-in phone): its left edge wins.
    expect(placement(box(100, 423, 500, 20), field, area, 'below').dx).toBe(-92);
    expect(placement(box(40, 423, 140, 20), field, area, 'below').dx).toBe(0);
  });

  it('goes to the other side of its field only when its own side has no room and the other has', () => {
    const atBottom = box(40, 810, 150, 20);
    expect(placement(box(39, 833, 140, 20), atBottom, area, 'below')).toMatchObject({ flip: true });
    const underBar = box(40, 70, 150, 20);
    expect(placement(box(39, 44, 140, 22), underBar, area, 'above')).toMatchObject({ flip: true });
    expect(placement(box(39, 423, 140, 20), box(40, 400, 150, 20), area, 'below').flip).toBe(false);
    // A field as tall as the screen: no side has room, the bubble stays on its own.
    expect(placement(box(39, 843, 140, 20), box(40, 60, 150, 780), area, 'below').flip).toBe(false);
    // A field out of sight does not move its bubble.
    expect(placement(box(39, 1223, 140, 20), box(40, 1200, 150, 20), area, 'below').flip).toBe(false);
  });

  it('with an error shown, the name takes the free side, else goes beyond the error', () => {
    const atBottom = box(40, 810, 150, 20);
    const error = placement(box(39, 833, 140, 20), atBottom, area, 'below');
    const tip = besideError(error, placement(box(39, 784, 120, 22), atBottom, area, 'above'), 20);
    // The error took the room above, there is none below: the name goes above the error.
    expect(tip).toMatchObject({ flip: false, dy: -24 });
    const middle = box(40, 400, 150, 20);
    const below = placement(box(39, 423, 140, 20), middle, area, 'below');
    expect(besideError(below, placement(box(39, 374, 120, 22), middle, area, 'above'), 20)).toMatchObject({
      flip: false,
      dy: 0,
    });
    // Under the top bar: the error is below, so the name goes below it.
    const top = box(40, 72, 150, 20);
    const under = placement(box(39, 95, 140, 20), top, area, 'below');
    expect(besideError(under, placement(box(39, 46, 120, 22), top, area, 'above'), 20)).toMatchObject({
      flip: true,
      dy: 24,
    });
  });
});
