// @ts-check
// The bubbles shown beside a field (its error below it, its name above it), kept wholly inside
// the part of the screen the signer sees: below the sticky top bar, above a phone's dock, and
// inside the visual viewport, which a pinch zoom or a phone's keyboard makes smaller than the
// window. The style sheet puts a
// bubble at the field's left edge on its usual side; near the right edge of a phone that cuts it
// off, at the bottom of the screen it hangs below it. So a bubble is shifted sideways by as much
// as it overflows, and shown on the other side of its field when only that side has room.
// Sideways a bubble also stays within its page, which clips what reaches past it (app.css).

/** Space kept between a bubble and the edge of the screen. */
export const EDGE = 8;

/**
 * Where a bubble goes: `dx`, its sideways shift in px, and `flip`, true to show it on the other
 * side of its field; with `fits`, whether it has room above and below the field. `bubble` is its
 * box where the style sheet puts it (on `side`: 'below' or 'above' the field), `field` the field's
 * box, `area` the visible screen; all in one coordinate system (top, right, bottom, left). A field
 * out of sight keeps its bubble on the usual side, and so does one with room on neither side.
 */
export function placement(bubble, field, area, side) {
  let dx = 0;
  if (bubble.right > area.right) dx = area.right - bubble.right;
  if (bubble.left + dx < area.left) dx = area.left - bubble.left;
  const height = bubble.bottom - bubble.top;
  const gap = side === 'below' ? bubble.top - field.bottom : field.top - bubble.bottom;
  const fits = {
    below: field.bottom + gap + height <= area.bottom,
    above: field.top - gap - height >= area.top,
  };
  const inSight = field.bottom > area.top && field.top < area.bottom;
  const other = side === 'below' ? 'above' : 'below';
  return { dx: Math.round(dx), dy: 0, flip: inSight && !fits[side] && fits[other], fits };
}

/**
 * A field showing both its error and its name: the name takes the side the error leaves free
 * when it fits there, else it goes beyond the error on the error's side (moved by `errorHeight`
 * and the gap between them). `error` and `tip` are their placements; the tip's is changed.
 */
export function besideError(error, tip, errorHeight) {
  const free = error.flip ? 'below' : 'above';
  const taken = error.flip ? 'above' : 'below';
  const side = tip.fits[free] || !tip.fits[taken] ? free : taken;
  tip.flip = side === 'below';
  if (side === taken) tip.dy = Math.round((errorHeight + 4) * (side === 'below' ? 1 : -1));
  return tip;
}

/** The part of the window the signer sees, less EDGE on each side, in viewport coordinates. */
function visibleArea() {
  const width = document.documentElement.clientWidth;
  const vv = window.visualViewport;
  const left = Math.max(0, vv?.offsetLeft ?? 0);
  const right = Math.min(width, vv ? vv.offsetLeft + vv.width : width);
  const bar = document.getElementById('topbar')?.getBoundingClientRect().bottom ?? 0;
  const top = Math.max(vv?.offsetTop ?? 0, bar);
  // On a phone the dock (field-sheet.js) covers the bottom of the screen.
  const dock = document.getElementById('dock');
  const docked = dock && getComputedStyle(dock).position === 'fixed';
  const bottom = Math.min(
    vv ? vv.offsetTop + vv.height : window.innerHeight,
    docked ? dock.getBoundingClientRect().top : Number.POSITIVE_INFINITY,
  );
  return { left: left + EDGE, right: right - EDGE, top: top + EDGE, bottom: bottom - EDGE };
}

/** `area` narrowed sideways to the page `box` is on, less EDGE inside it where it is narrower. */
function withinPage(area, box) {
  const page = box.closest('.page')?.getBoundingClientRect();
  if (!page) return area;
  return {
    ...area,
    left: Math.max(area.left, page.left + EDGE),
    right: Math.min(area.right, page.right - EDGE),
  };
}

const shown = (bubble) => bubble !== null && bubble.getClientRects().length > 0;

/**
 * Places the bubbles of these field boxes. All bubbles go back to where the style sheet puts them
 * first, then every box is read, then every bubble is moved: the page lays out twice, however many
 * fields show an error. When a field shows both, its error has the first choice of side.
 */
export function placeBubbles(boxes) {
  const fields = boxes.filter((box) => box?.isConnected && box.classList.contains('field'));
  const bubbles = (box) => [
    box.querySelector(':scope > .field-error'),
    box.querySelector(':scope > .field-tip'),
  ];
  for (const box of fields) {
    for (const b of bubbles(box)) {
      b?.classList.remove('flip');
      b?.style.removeProperty('translate');
    }
  }
  const screen = visibleArea();
  const plans = fields.map((box) => {
    const field = box.getBoundingClientRect();
    const area = withinPage(screen, box);
    const [error, tip] = bubbles(box);
    const e = shown(error) ? placement(error.getBoundingClientRect(), field, area, 'below') : undefined;
    const t = shown(tip) ? placement(tip.getBoundingClientRect(), field, area, 'above') : undefined;
    if (e && t) besideError(e, t, error.getBoundingClientRect().height);
    return [
      [error, e],
      [tip, t],
    ];
  });
  for (const [bubble, plan] of plans.flat()) {
    if (!plan) continue;
    if (plan.dx !== 0 || plan.dy !== 0) bubble.style.translate = `${plan.dx}px ${plan.dy}px`;
    bubble.classList.toggle('flip', plan.flip);
  }
}

/**
 * Places the bubbles of the fields `boxes()` names now, and again whenever the screen changes
 * under them (scrolling, resizing, zooming, a keyboard opening), once a frame at most.
 */
export function keepBubblesInView(boxes) {
  let queued = false;
  const later = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      placeBubbles(boxes());
    });
  };
  window.addEventListener('resize', later);
  window.addEventListener('scroll', later, { passive: true });
  window.visualViewport?.addEventListener('resize', later);
  window.visualViewport?.addEventListener('scroll', later);
}
