// @ts-check
// Signing on a phone. A field placed on a letter page shown 390 px wide is a few millimetres
// tall, and zooming the page until it is usable would put a wide field half off the screen and
// change the zoom at every step. So on a small screen the field in hand is edited in a sheet at
// the bottom of the screen, with its own control at a size made for fingers (text of 16 px or
// more, so no browser zooms in on focus; targets of 44 px or more), while the page scrolls the
// field into view above it and shows what it holds. The guide (Previous, progress, Next or Go
// to finish) sits under the sheet in a dock fixed to the bottom of the screen, which follows
// the visual viewport: above the on-screen keyboard, and the same size on the screen when the
// signer pinch-zooms the page. On a wider screen nothing moves: the control stays in its field
// and the guide in the top bar.
//
// The sheet holds the field's own control, moved there and back, not a copy: one element per
// field keeps its value, its events, its name and its description in one place.
import { el, reducedMotion } from './dom.js';
import { echoContent, nameOf } from './field-render.js';
import { t } from './i18n.js';

const SMALL = window.matchMedia('(max-width: 640px)');

/** Whether the page edits fields in the sheet (a phone held upright, a narrow window). */
export const small = () => SMALL.matches;

/** @type {{ dock: HTMLElement, guide: HTMLElement, sheet: HTMLElement, title: HTMLElement, slot: HTMLElement, error: HTMLElement } | undefined} */
let ui;
/** @type {{ m: any, home: Node | null, watch: MutationObserver } | undefined} */
let held;

/**
 * The dock of the signing view: the sheet and, on a small screen, `guide`; on a wider one the
 * guide goes to `tools` (the top bar). The caller puts the dock at the end of the view, so it
 * goes with it.
 */
export function dock(guide, tools) {
  held = undefined;
  const title = el('p', { class: 'sheet-title', 'aria-hidden': 'true' });
  const slot = el('div', { class: 'sheet-slot' });
  const error = el('p', { class: 'sheet-error', 'aria-hidden': 'true', dataset: { message: '' } });
  const done = el(
    'button',
    { type: 'button', class: 'btn small sheet-done', onclick: () => closeSheet(true) },
    t('sign.sheet.done'),
  );
  // Not a landmark named after the field: the control carries the field's name, once.
  const sheet = el(
    'div',
    { class: 'field-sheet', hidden: true },
    el('div', { class: 'sheet-head' }, title, done),
    slot,
    error,
  );
  const bar = el('div', { class: 'dock', id: 'dock' }, sheet);
  ui = { dock: bar, guide, sheet, title, slot, error };
  placeGuide(tools);
  SMALL.onchange = () => {
    if (!ui?.dock.isConnected) return;
    const inHand = held?.m;
    if (!small()) closeSheet(false);
    placeGuide(tools);
    // The pages were laid out again at the new width: the field in hand goes back into view.
    if (inHand) requestAnimationFrame(() => bringIntoView(inHand.box));
  };
  // The page keeps room below its end, and scrolls focused elements clear of the dock (app.css).
  // A property set on the root restyles the whole page, so only a change of height is written:
  // on a wide screen the dock stays empty, 0px as app.css reads it unset, and is never written.
  const root = document.documentElement;
  new ResizeObserver(() => {
    if (!bar.isConnected) return;
    const height = `${bar.offsetHeight}px`;
    if ((root.style.getPropertyValue('--dock-height') || '0px') !== height)
      root.style.setProperty('--dock-height', height);
  }).observe(bar);
  followVisualViewport();
  return bar;
}

function placeGuide(tools) {
  if (!ui) return;
  if (small()) ui.dock.append(ui.guide);
  else tools.append(ui.guide);
}

/** Moves field `m`'s control into the sheet, on a small screen; the field on the page shows its value. */
export function openSheet(m) {
  if (!ui || !small() || held?.m === m) return;
  closeSheet(false);
  // A file to attach that has no place on a page is a row of the list, already of a usable size.
  if (!m.box?.classList.contains('field')) return;
  const check = m.f.kind === 'chk' || m.f.kind === 'apr';
  const focused = document.activeElement === m.control;
  const home = m.control.nextSibling;
  const echo = el('span', { class: 'echo', 'aria-hidden': 'true' }, echoContent(m));
  m.box.prepend(echo);
  m.echo = echo;
  m.box.classList.add('in-sheet');
  // The sender's label in its own direction, the mark of a required field after it in the page's.
  ui.title.replaceChildren(el('bdi', {}, nameOf(m)), m.f.required ? ' *' : '');
  // A checkbox's row is its label: the whole width of the sheet ticks it.
  ui.title.hidden = check;
  const control = check
    ? el(
        'label',
        { class: 'sheet-control check' },
        m.control,
        el('span', { 'aria-hidden': 'true' }, ui.title.textContent),
      )
    : el('div', { class: `sheet-control k-${m.f.kind}` }, m.control);
  ui.slot.replaceChildren(control);
  // The field's message stays in its bubble on the page, which may be out of sight above the
  // keyboard: the sheet repeats it for the eye only, as generated content (app.css), so the page
  // holds its text once; the control's description already gives it to screen readers.
  const mirror = () => {
    if (ui) ui.error.dataset.message = m.err?.textContent ?? '';
  };
  const watch = new MutationObserver(mirror);
  if (m.err) watch.observe(m.err, { childList: true, characterData: true, subtree: true });
  mirror();
  held = { m, home, watch };
  ui.sheet.hidden = false;
  // Moving an element takes its focus away: the signer who tabbed to the field keeps it.
  if (focused) m.control.focus({ preventScroll: true });
}

/** Puts the control in the sheet back in its field; with `focusGuide`, the guide's next step takes focus. */
export function closeSheet(focusGuide) {
  if (!ui || !held) return;
  const { m, home, watch } = held;
  const focused = document.activeElement === m.control;
  held = undefined;
  watch.disconnect();
  m.echo?.remove();
  m.echo = undefined;
  m.box.classList.remove('in-sheet');
  m.box.insertBefore(m.control, home && home.parentNode === m.box ? home : m.box.firstChild);
  ui.slot.replaceChildren();
  ui.error.dataset.message = '';
  ui.sheet.hidden = true;
  if (focusGuide) /** @type {HTMLElement | null} */ (ui.guide.querySelector('.next'))?.focus();
  // The screen grew wide while the signer was in the field (turned sideways): they stay in it.
  else if (focused) m.control.focus({ preventScroll: true });
}

/**
 * Scrolls `target` to the middle of what the signer sees: below the top bar and, on a small
 * screen, above the dock; one taller than that (the finish card) shows from its top.
 */
export function bringIntoView(target) {
  const behavior = reducedMotion() ? 'auto' : 'smooth';
  if (!small() || !ui?.dock.isConnected) {
    target.scrollIntoView({ block: 'center', behavior });
    return;
  }
  const top = document.getElementById('topbar')?.getBoundingClientRect().bottom ?? 0;
  const bottom = ui.dock.getBoundingClientRect().top;
  const box = target.getBoundingClientRect();
  const delta =
    box.height > bottom - top - 16 ? box.top - (top + 8) : (box.top + box.bottom) / 2 - (top + bottom) / 2;
  window.scrollBy({ top: delta, behavior });
}

/** The top of the dock on the screen, when it shows; what lies below it is covered. */
export function dockTop() {
  return ui?.dock.isConnected && small() ? ui.dock.getBoundingClientRect().top : undefined;
}

let following = false;
/**
 * Keeps the dock at the bottom of the visual viewport: the part of the page on the screen, which
 * the on-screen keyboard shortens and a pinch zoom shrinks and moves. The dock is fixed to the
 * layout viewport, so it is moved there and scaled by the inverse of the zoom.
 */
function followVisualViewport() {
  const vv = window.visualViewport;
  if (following || !vv) return;
  following = true;
  let queued = false;
  const fit = () => {
    queued = false;
    if (!ui?.dock.isConnected) return;
    const dx = vv.offsetLeft;
    const dy = vv.offsetTop + vv.height - document.documentElement.clientHeight;
    const scale = vv.scale;
    if (Math.abs(dx) < 0.5 && Math.abs(dy) < 0.5 && Math.abs(scale - 1) < 0.001)
      ui.dock.style.removeProperty('transform');
    else ui.dock.style.transform = `translate(${dx}px, ${dy}px) scale(${1 / scale})`;
  };
  const later = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(fit);
  };
  vv.addEventListener('resize', later);
  vv.addEventListener('scroll', later);
}
