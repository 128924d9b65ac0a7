// @ts-check
// The documents as real pages: pdf.js renders each page onto a canvas when it comes near the
// screen, at the width it is shown (times the screen's pixel ratio), again when that grows.

const PDFJS = './pdf.min.mjs';
/** @type {Promise<any> | undefined} */
let lib;
/** @type {Promise<any> | undefined} */
let worker;
/** Whether pdf.js is loaded (openEarly waits for nothing else). */
let ready = false;

function pdfjs() {
  lib ??= (async () => {
    // Served beside this file from pdfjs-dist; a specifier in a variable keeps the type checker
    // from looking for it here.
    const loaded = await import(PDFJS);
    loaded.GlobalWorkerOptions.workerSrc = new URL('./pdf.worker.min.mjs', import.meta.url).href;
    ready = true;
    return loaded;
  })();
  return lib;
}

/**
 * One pdf.js worker for every document of the page, started by warmUp or the first document; on
 * `port` when the page started the worker itself (a Worker of pdf.worker.min.mjs).
 * @param {Worker} [port]
 */
function pdfWorker(port) {
  worker ??= pdfjs().then((pdf) => (port ? new pdf.PDFWorker({ port }) : new pdf.PDFWorker()));
  return worker;
}

/**
 * Loads pdf.js and starts its worker (fetching and compiling the worker's megabyte of code) while
 * the page opens its session and reads its state, rather than after: the first page is drawn that
 * much sooner. `port`: the worker the page's head already started (early-start.js). A failure
 * here is left for openPdf to meet and report.
 * @param {Worker} [port]
 */
export function warmUp(port) {
  pdfWorker(port).catch(() => undefined);
}

const OPTIONS = () => ({
  // The page's CSP has no 'unsafe-eval': pdf.js must not try.
  isEvalSupported: false,
  enableXfa: false,
  standardFontDataUrl: new URL('./standard_fonts/', import.meta.url).href,
  cMapUrl: new URL('./cmaps/', import.meta.url).href,
  cMapPacked: true,
});

/** Opens a document from its bytes, or from its URL when the bytes are null. */
export async function openPdf(bytes, url) {
  const [{ getDocument }, shared] = await Promise.all([pdfjs(), pdfWorker()]);
  const options = { ...OPTIONS(), worker: shared };
  return getDocument(bytes ? { ...options, data: bytes } : { ...options, url }).promise;
}

/** Documents opened before the view that shows them was built (openEarly), by key. */
const early = new Map();

/** What openEarly was asked to open, by key: each document is opened once, however often asked. */
const asked = new Map();

/**
 * Hands document `key`'s bytes to pdf.js now, with a request for its first page, so that its
 * worker reads them while the page builds the view (which takes the document with
 * takeOpened): the first page's round trips to the worker are then done when the view asks to
 * draw it, not started. Resolves once pdf.js has the bytes, so that the caller's building comes
 * after; without delay when the bytes cannot be had (the view asks for them itself) or pdf.js is
 * still loading (then it takes them when loaded). Asked again for the same document, it answers
 * as it did the first time: the page's script asks as soon as it runs (warm-up.js) and again once
 * the session is open (navigation.js).
 * @param {string} key
 * @param {Promise<Uint8Array | null>} bytes
 * @returns {Promise<void>}
 */
export function openEarly(key, bytes) {
  let opening = asked.get(key);
  if (!opening) {
    opening = open(key, bytes);
    asked.set(key, opening);
  }
  return opening;
}

/**
 * @param {string} key
 * @param {Promise<Uint8Array | null>} bytes
 */
async function open(key, bytes) {
  let data;
  try {
    data = await bytes;
  } catch {
    return;
  }
  if (!data) return;
  /** @type {(v?: unknown) => void} */
  let handed = () => undefined;
  const given = new Promise((resolve) => {
    handed = resolve;
  });
  const pdf = (async () => {
    const [{ getDocument }, shared] = await Promise.all([pdfjs(), pdfWorker()]);
    const task = getDocument({ ...OPTIONS(), worker: shared, data });
    handed();
    const doc = await task.promise;
    doc.getPage(1).catch(() => undefined);
    return doc;
  })();
  pdf.catch(() => undefined);
  early.set(key, pdf);
  if (ready) await given;
}

/**
 * The document openEarly opened under `key`, once; undefined when it did not.
 * @param {string} key
 */
export function takeOpened(key) {
  const pdf = early.get(key);
  early.delete(key);
  return pdf;
}

const maxRatio = () => Math.min(window.devicePixelRatio || 1, 2);

/**
 * Per document (its promise): the drawings waiting for their turn, and whether one is under
 * way. A document draws one page at a time: its worker reads one page at a time anyway, and two
 * drawings at once would each take as long as both, the first page on the screen among them.
 * @type {WeakMap<Promise<any>, { busy: boolean, waiting: Set<{ number: number, frame: Element, draw: () => Promise<void>, done: () => void }> }>}
 */
const turns = new WeakMap();

/** How far `frame` is from the screen, in pixels: 0 when any of it is on the screen. */
function distanceFromScreen(frame) {
  const box = frame.getBoundingClientRect();
  if (box.bottom < 0) return -box.bottom;
  return Math.max(0, box.top - window.innerHeight);
}

/** Draws the waiting page nearest the screen (the lower page first when several are on it), then the next. */
async function nextTurn(turn) {
  if (turn.busy || turn.waiting.size === 0) return;
  let next;
  let nearest = Number.POSITIVE_INFINITY;
  for (const job of turn.waiting) {
    const d = distanceFromScreen(job.frame);
    if (d < nearest || (d === nearest && job.number < next.number)) [next, nearest] = [job, d];
  }
  turn.waiting.delete(next);
  turn.busy = true;
  try {
    await next.draw();
  } finally {
    turn.busy = false;
    next.done();
    nextTurn(turn);
  }
}

/** Runs `draw` for page `number` of the document `pdfPromise` when it is that page's turn. */
function inTurn(pdfPromise, number, frame, draw) {
  let turn = turns.get(pdfPromise);
  if (!turn) {
    turn = { busy: false, waiting: new Set() };
    turns.set(pdfPromise, turn);
  }
  const queued = turn;
  return new Promise((done) => {
    queued.waiting.add({ number, frame, draw, done: () => done(undefined) });
    // Not at once: each page has its observer, and the others' callbacks, due in this same
    // moment, are to be heard before the nearest is picked.
    setTimeout(() => nextTurn(queued));
  });
}

/**
 * Renders page `number` of `pdf` (a promise) into `canvas` whenever `frame` is near the viewport
 * and shown wider than last rendered. `onError` hears of a document that cannot be shown,
 * `onDrawn` of each drawing, in the same task as the frame is classed `rendered`.
 */
export function showPage(pdfPromise, number, frame, canvas, onError, onDrawn) {
  let renderedWidth = 0;
  let busy = false;
  let visible = false;

  /** Whether the page must be drawn (again): near the screen and wider than last drawn. */
  const wanted = () => {
    const cssWidth = frame.clientWidth;
    return visible && cssWidth > 0 && cssWidth > renderedWidth * 1.15;
  };

  function render() {
    if (busy || !wanted()) return;
    busy = true;
    inTurn(pdfPromise, number, frame, draw).then(() => {
      busy = false;
    });
  }

  async function draw() {
    // Its turn may come after the signer scrolled on: then it waits to be near the screen again.
    if (!wanted()) return;
    const cssWidth = frame.clientWidth;
    try {
      const pdf = await pdfPromise;
      const page = await pdf.getPage(number);
      const base = page.getViewport({ scale: 1 });
      const viewport = page.getViewport({ scale: (cssWidth * maxRatio()) / base.width });
      // Re-rendering draws off screen, then swaps: the page never flashes blank. The first
      // rendering has nothing to hide and draws in place, a canvas and a copy less.
      const scratch = renderedWidth === 0 ? canvas : document.createElement('canvas');
      scratch.width = Math.floor(viewport.width);
      scratch.height = Math.floor(viewport.height);
      await page.render({ canvas: scratch, canvasContext: scratch.getContext('2d'), viewport }).promise;
      if (scratch !== canvas) {
        canvas.width = scratch.width;
        canvas.height = scratch.height;
        canvas.getContext('2d').drawImage(scratch, 0, 0);
      }
      frame.classList.add('rendered');
      renderedWidth = cssWidth;
      onDrawn?.();
    } catch (err) {
      onError?.(err);
    }
  }

  const seen = new IntersectionObserver(
    (entries) => {
      visible = entries.some((e) => e.isIntersecting);
      render();
    },
    { rootMargin: '800px 0px' },
  );
  seen.observe(frame);
  const resized = new ResizeObserver(() => render());
  resized.observe(frame);
}
