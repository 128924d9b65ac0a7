// @ts-check
// The signing page paints nothing while it opens on its documents, until their first page is
// drawn: the head's inline script (early-start.js) classes the root `opening` when the page names
// its first document, and the style sheet hides the body meanwhile. The reader then sees the
// documents at once, with their first page drawn, not a loading line, then empty page frames,
// then the page. It is also cheaper: a hidden body paints nothing, and each frame of a page being
// built (the step, its fields, the page's fonts arriving through pdf.js, which lays the whole page
// out again) otherwise costs raster and compositing that pdf.js alone does not spend
// (docs/architecture/signing.md, where the first page's time goes).
//
// The hold never outlasts the inline script's cap (a second): a slow network or device sees the
// loading line then, as before. Anything else the page shows (a message, the identity checks, an
// outcome) ends it before it is built, so it is shown as soon as it is ready.
const root = document.documentElement;

/** Whether the page is still held unpainted. */
const opening = () => root.classList.contains('opening');

/** Ends the hold: the page is painted from the next frame on. Idempotent. */
export function endOpening() {
  root.classList.remove('opening');
}

/**
 * Runs `fn` once the page is shown: at once when it is, else when the hold ends (whoever ends
 * it). For what cannot happen on a hidden page: an element hidden by `visibility` takes no focus.
 */
export function whenShown(fn) {
  if (!opening()) return fn();
  const seen = new MutationObserver(() => {
    if (opening()) return;
    seen.disconnect();
    fn();
  });
  seen.observe(root, { attributes: true, attributeFilter: ['class'] });
}
