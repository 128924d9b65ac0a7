// @ts-check
// The fields on the pages of the preparation editor (prepare.js): drawn over pdf.js's canvases,
// drawn anew by click-drag, moved by dragging, resized by their corner handle, copied, nudged and
// resized with the arrow keys (Shift: further; Alt: resize), deleted with Delete. Pointer moves
// snap to the page's other fields' edges, else to a grid (prepare-geometry.js).
import { announce, el } from './dom.js';
import { t } from './i18n.js';
import { clamp, copyPlace, MIN_SIZE, nudged, round, snapMove, snapResize } from './prepare-geometry.js';
import { DEFAULT_SIZE, KIND_NAME } from './prepare-kinds.js';
import { drawPreview } from './prepare-preview.js';
import { roleOf } from './prepare-roles.js';
import { ROLES, redraw, roleLabel, state } from './prepare-state.js';

/** The value of the form control with this id. */
const inputValue = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id)).value;

export function uniqueKey(prefix, taken) {
  let n = 1;
  while (taken.has(`${prefix}-${n}`)) n++;
  return `${prefix}-${n}`;
}

/** The page frame a field sits on (none for an attachment field, which has no page). */
export const frameOf = (f) => state.frames.find((fr) => fr.doc === f._doc && fr.page === f.page);

/** The other fields of the same page: what a moved edge snaps to. */
const othersOf = (f) => state.fields.filter((o) => o !== f && o._doc === f._doc && o.page === f.page);

function placeBox(node, f) {
  node.style.left = `${f.x}%`;
  node.style.top = `${f.y}%`;
  node.style.width = `${f.w}%`;
  node.style.height = `${f.h}%`;
}

/** The signer's (or role's) place among them: its colour on the page. */
const roleIndex = (key) => state.roles.findIndex((r) => r.key === key);

export function drawFields() {
  if (state.preview) {
    drawPreview(state.frames, state.fields, state.preview, frameOf);
    return;
  }
  for (const frame of state.frames) frame.layer.replaceChildren();
  drawUnplaced();
  for (const f of state.fields) {
    const frame = frameOf(f);
    if (!frame) continue; // attachments have no page: listed in the side panel instead
    const role = roleOf({ editor_roles: f[ROLES] });
    const shown = `${KIND_NAME[f.kind] ?? f.kind}${role ? ` · ${roleLabel(role)}` : ''}`;
    const errorId = `err-${f.key}`;
    const node = el(
      'button',
      {
        type: 'button',
        class: `prep-field role-${roleIndex(role) % 4}${state.selected === f ? ' selected' : ''}${f._error ? ' invalid' : ''}`,
        dataset: { key: f.key },
        // The name starts with what the box shows, so a person who sees it can say it (voice control).
        'aria-label': `${shown} (${f.label ? `${f.label}, ` : ''}${f.key})`,
        'aria-pressed': state.selected === f ? 'true' : 'false',
        'aria-describedby': f._error ? errorId : null,
        onpointerdown: (e) => startMove(e, f, frame),
        onkeydown: (e) => onFieldKey(e, f),
        onclick: () => select(f),
      },
      shown,
      el('span', {
        class: 'prep-handle',
        'aria-hidden': 'true',
        onpointerdown: (e) => startResize(e, f, frame),
      }),
    );
    placeBox(node, f);
    frame.layer.append(node);
    if (f._error) {
      // What the service said of the field, beside it.
      const note = el('div', { class: 'prep-field-error', id: errorId, text: f._error });
      note.style.left = `${f.x}%`;
      note.style.top = `${Math.min(f.y + f.h, 96)}%`;
      frame.layer.append(note);
    }
  }
}

/**
 * Fields with no page (attachments: the signer adds a file in a step of its own) are listed in the
 * side panel, where they are selected to be changed or deleted.
 */
function drawUnplaced() {
  const list = document.getElementById('unplaced');
  if (!list) return;
  const unplaced = state.fields.filter((f) => !frameOf(f));
  list.hidden = unplaced.length === 0;
  list.replaceChildren(
    el('h2', { text: t('editor.unplaced') }),
    el(
      'ul',
      { class: 'prep-roles' },
      ...unplaced.map((f) =>
        el(
          'li',
          {},
          el('button', {
            type: 'button',
            class: `btn small${f._error ? ' invalid' : ''}`,
            'aria-pressed': state.selected === f ? 'true' : 'false',
            text: `${KIND_NAME[f.kind] ?? f.kind} (${f.label ? `${f.label}, ` : ''}${f.key})`,
            onclick: () => select(f),
          }),
        ),
      ),
    ),
  );
}

export function select(f) {
  state.selected = f;
  drawFields();
  redraw.props();
}

const focusField = (f) =>
  frameOf(f)
    ?.layer.querySelector(`[data-key="${CSS.escape(f.key)}"]`)
    ?.focus();

/** Arrow keys move the field (Shift: further; Alt: resize), Ctrl/⌘+D copies it, Delete removes it. */
function onFieldKey(e, f) {
  if (e.key === 'Delete' || e.key === 'Backspace') {
    e.preventDefault();
    removeField(f);
    return;
  }
  if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'd') {
    e.preventDefault();
    copyField(f);
    focusField(state.selected);
    return;
  }
  const next = nudged(f, e.key, { shift: e.shiftKey, alt: e.altKey });
  if (!next) return;
  e.preventDefault();
  Object.assign(f, next);
  f._error = undefined;
  state.selected = f;
  drawFields();
  redraw.props();
  focusField(f);
}

function pointIn(layer, e) {
  const r = layer.getBoundingClientRect();
  return { x: ((e.clientX - r.left) / r.width) * 100, y: ((e.clientY - r.top) / r.height) * 100 };
}

/** Follows the pointer from `e` until it is released, calling `step` with each point on the layer. */
function follow(e, node, layer, step, done) {
  node.setPointerCapture(e.pointerId);
  let moved = false;
  const onMove = (ev) => {
    moved = true;
    step(pointIn(layer, ev));
  };
  const onUp = () => {
    node.removeEventListener('pointermove', onMove);
    node.removeEventListener('pointerup', onUp);
    done(moved);
  };
  node.addEventListener('pointermove', onMove);
  node.addEventListener('pointerup', onUp);
}

function startMove(e, f, frame) {
  if (e.button !== 0) return;
  e.stopPropagation();
  const start = pointIn(frame.layer, e);
  const origin = { x: f.x, y: f.y };
  const node = e.currentTarget;
  const others = othersOf(f);
  follow(
    e,
    node,
    frame.layer,
    (p) => {
      Object.assign(f, snapMove(f, origin.x + p.x - start.x, origin.y + p.y - start.y, others, state.snap));
      placeBox(node, f);
    },
    (moved) => {
      if (!moved) return;
      f._error = undefined;
      select(f);
    },
  );
}

function startResize(e, f, frame) {
  if (e.button !== 0) return;
  e.stopPropagation();
  e.preventDefault();
  const node = /** @type {HTMLElement} */ (e.currentTarget).parentElement;
  const others = othersOf(f);
  // The corner follows the pointer as it was grabbed, wherever on the handle that was.
  const start = pointIn(frame.layer, e);
  const grab = { x: f.x + f.w - start.x, y: f.y + f.h - start.y };
  follow(
    e,
    /** @type {HTMLElement} */ (e.currentTarget),
    frame.layer,
    (p) => {
      Object.assign(f, snapResize(f, p.x + grab.x, p.y + grab.y, others, state.snap));
      placeBox(node, f);
    },
    (moved) => {
      if (!moved) return;
      f._error = undefined;
      select(f);
    },
  );
}

/** Click-drag on a page draws a new field of the kind and role chosen in the side panel. */
export function startDraw(e, frame) {
  if (e.button !== 0 || e.target !== frame.layer || state.preview) return;
  e.preventDefault();
  const start = pointIn(frame.layer, e);
  const ghost = el('div', { class: 'prep-ghost' });
  frame.layer.append(ghost);
  const boxOf = (p) => ({
    x: clamp(Math.min(start.x, p.x), 0, 100),
    y: clamp(Math.min(start.y, p.y), 0, 100),
    w: Math.abs(p.x - start.x),
    h: Math.abs(p.y - start.y),
  });
  let last = start;
  follow(
    e,
    frame.layer,
    frame.layer,
    (p) => {
      last = p;
      placeBox(ghost, boxOf(p));
    },
    () => {
      ghost.remove();
      const box = boxOf(last);
      const kind = inputValue('new-kind');
      if (box.w < MIN_SIZE && box.h < MIN_SIZE) {
        const [w, h] = DEFAULT_SIZE[kind] ?? [20, 4];
        Object.assign(box, { w, h });
      }
      box.w = Math.max(box.w, MIN_SIZE);
      box.h = Math.max(box.h, MIN_SIZE);
      addField(frame.doc, frame.page, box);
    },
  );
}

export function addField(doc, page, box) {
  const kind = inputValue('new-kind');
  const role = inputValue('new-role');
  const w = round(Math.min(box.w, 100));
  const h = round(Math.min(box.h, 100));
  const f = {
    key: uniqueKey(kind, new Set(state.fields.map((x) => x.key))),
    kind,
    label: KIND_NAME[kind] ?? '',
    required: kind === 'sig' || kind === 'ini',
    page,
    x: round(clamp(box.x, 0, 100 - w)),
    y: round(clamp(box.y, 0, 100 - h)),
    w,
    h,
    [ROLES]: role ? [role] : [],
    _doc: doc,
  };
  state.fields.push(f);
  select(f);
  announce(t('editor.fieldAdded', { kind: KIND_NAME[kind], page }));
}

/** A copy of the field, with a key of its own, a little beside it. */
export function copyField(f) {
  const { _error, ...rest } = f;
  const copy = {
    ...structuredClone(rest),
    key: uniqueKey(f.kind, new Set(state.fields.map((x) => x.key))),
    ...copyPlace(f),
  };
  state.fields.push(copy);
  select(copy);
  announce(t('editor.fieldCopied', { key: copy.key }));
}

export function removeField(f) {
  state.fields = state.fields.filter((x) => x !== f);
  if (state.selected === f) state.selected = null;
  drawFields();
  redraw.props();
  announce(t('editor.fieldRemoved'));
}
