// @ts-check
// Where the preparation editor (prepare.js) puts a field as it is drawn, moved, resized or nudged:
// positions in percent of the page, kept on the page, snapped to the edges of the page's other
// fields or else to a grid. Pure arithmetic, so it is the same for the mouse and the keyboard.

/** The grid a dragged edge snaps to, in percent of the page. */
export const GRID = 0.5;
/** How near (percent of the page) an edge must come to another field's edge to snap to it. */
export const SNAP_DISTANCE = 1;
/** The smallest width or height a field may have, in percent of the page. */
export const MIN_SIZE = 1;
/** An arrow key moves (or, with Alt, resizes) a field this far; with Shift, `BIG_STEP`. */
export const STEP = 0.5;
export const BIG_STEP = 5;

export const round = (n) => Math.round(n * 100) / 100;
export const clamp = (n, lo, hi) => Math.min(Math.max(n, lo), hi);

/** The edge of `edges` nearest `value` within SNAP_DISTANCE, or undefined. */
function nearestEdge(value, edges) {
  let best;
  for (const e of edges) {
    if (
      Math.abs(e - value) <= SNAP_DISTANCE &&
      (best === undefined || Math.abs(e - value) < Math.abs(best - value))
    )
      best = e;
  }
  return best;
}

/** `value` snapped: to the nearest of `edges` (other fields' edges) within SNAP_DISTANCE, else to the grid. */
export const snapValue = (value, edges) =>
  round(nearestEdge(value, edges) ?? Math.round(value / GRID) * GRID);

/** The edges of `others` along each axis: left and right (x), top and bottom (y). */
export function edgesOf(others) {
  return {
    x: others.flatMap((o) => [o.x, o.x + o.w]),
    y: others.flatMap((o) => [o.y, o.y + o.h]),
  };
}

/** Where a box starting at `start` and `size` long goes: its nearer edge to another field's, else the grid. */
function snapSpan(start, size, edges) {
  const a = nearestEdge(start, edges);
  const b = nearestEdge(start + size, edges);
  if (a === undefined && b === undefined) return Math.round(start / GRID) * GRID;
  if (b === undefined || (a !== undefined && Math.abs(a - start) <= Math.abs(b - start - size))) return a;
  return b - size;
}

/** A box moved to (x, y), snapped (unless `snap` is false) and kept on the page. */
export function snapMove(box, x, y, others, snap = true) {
  const edges = edgesOf(others);
  const sx = snap ? snapSpan(x, box.w, edges.x) : x;
  const sy = snap ? snapSpan(y, box.h, edges.y) : y;
  return { x: round(clamp(sx, 0, 100 - box.w)), y: round(clamp(sy, 0, 100 - box.h)) };
}

/** A box's right and bottom edges dragged to (right, bottom), snapped, at least MIN_SIZE, on the page. */
export function snapResize(box, right, bottom, others, snap = true) {
  const edges = edgesOf(others);
  const r = snap ? snapValue(right, edges.x) : right;
  const b = snap ? snapValue(bottom, edges.y) : bottom;
  return {
    w: round(clamp(r - box.x, MIN_SIZE, 100 - box.x)),
    h: round(clamp(b - box.y, MIN_SIZE, 100 - box.y)),
  };
}

/**
 * What an arrow key does to a box: moves it by STEP (Shift: BIG_STEP), or with Alt grows or
 * shrinks it from its right and bottom edges; always within the page. Undefined for other keys.
 */
export function nudged(box, key, { shift = false, alt = false } = {}) {
  const step = shift ? BIG_STEP : STEP;
  const d = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] }[key];
  if (!d) return undefined;
  if (alt)
    return {
      w: round(clamp(box.w + d[0], MIN_SIZE, 100 - box.x)),
      h: round(clamp(box.h + d[1], MIN_SIZE, 100 - box.y)),
    };
  return { x: round(clamp(box.x + d[0], 0, 100 - box.w)), y: round(clamp(box.y + d[1], 0, 100 - box.h)) };
}

/** A copy's place: a little below and right of the original, or above-left when that leaves the page. */
export function copyPlace(box) {
  const off = 2;
  const x = box.x + box.w + off <= 100 ? box.x + off : box.x - off;
  const y = box.y + box.h + off <= 100 ? box.y + off : box.y - off;
  return { x: round(clamp(x, 0, 100 - box.w)), y: round(clamp(y, 0, 100 - box.h)) };
}
