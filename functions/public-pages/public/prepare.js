// @ts-check
// The template preparation page (functions/public-pages/prepare-page.ts): the template's pages drawn by
// pdf.js, its roles, and its fields placed by dragging on a page (or added with the form and moved
// with the arrow keys). Save sends the whole template to PUT /prepare/api/template, which checks it
// by the same rules as PATCH /templates/{id}/. No inline code: the page's CSP forbids it.
import { announce, el } from './dom.js';
import { renameRoleIn, roleOf, withoutRole, withRole } from './prepare-roles.js';
import { openPdf, showPage } from './viewer.js';

/** The value of the form control with this id. */
const inputValue = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id)).value;

const API = document.documentElement.dataset.api ?? '/prepare/api';
const TOKEN = decodeURIComponent(location.pathname.split('/').filter(Boolean).pop() ?? '');
const main = document.getElementById('main');

/** The kinds the page offers (the service's field kind codes) and what it calls them. */
const KINDS = [
  ['sig', 'Signature'],
  ['ini', 'Initials'],
  ['inp', 'Text'],
  ['txt', 'Multi-line text'],
  ['dat', 'Date'],
  ['chk', 'Checkbox'],
  ['snm', 'Signer name'],
  ['sdt', 'Date signed'],
];
const KIND_NAME = Object.fromEntries(KINDS);
/** A click without a drag places a field of this size (percent of the page). */
const DEFAULT_SIZE = { sig: [30, 5], ini: [8, 4], chk: [3, 2.5], txt: [40, 10] };
const MIN_DRAG = 1;

const state = {
  version: 0,
  name: '',
  pages: [],
  roles: [],
  fields: [],
  allowed: null,
  selected: null,
  frames: [],
};

async function api(method, path, body) {
  const res = await fetch(API + path, {
    method,
    headers: {
      'X-Preparation-Token': TOKEN,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const type = res.headers.get('content-type') ?? '';
  const data = type.includes('json')
    ? await res.json()
    : type.includes('pdf')
      ? await res.arrayBuffer()
      : null;
  if (!res.ok)
    throw Object.assign(new Error(data?.message ?? `The service answered ${res.status}.`), {
      status: res.status,
      errors: data?.errors ?? [],
    });
  return data;
}

const round = (n) => Math.round(n * 100) / 100;
const clamp = (n, lo, hi) => Math.min(Math.max(n, lo), hi);

function uniqueKey(prefix, taken) {
  let n = 1;
  while (taken.has(`${prefix}-${n}`)) n++;
  return `${prefix}-${n}`;
}

const roleLabel = (key) => state.roles.find((r) => r.key === key)?.label || key;

/* Fields on the pages ------------------------------------------------------------------------ */

function placeBox(node, f) {
  node.style.left = `${f.x}%`;
  node.style.top = `${f.y}%`;
  node.style.width = `${f.w}%`;
  node.style.height = `${f.h}%`;
}

function drawFields() {
  for (const frame of state.frames) frame.layer.replaceChildren();
  for (const f of state.fields) {
    const frame = state.frames[(f.page ?? 0) - 1];
    if (!frame) continue; // attachments have no page; they are kept as they are
    const role = roleOf(f);
    const shown = `${KIND_NAME[f.kind] ?? f.kind}${role ? ` · ${roleLabel(role)}` : ''}`;
    const node = el('button', {
      type: 'button',
      class: `prep-field${state.selected === f ? ' selected' : ''}`,
      dataset: { key: f.key },
      // The name starts with what the box shows, so a person who sees it can say it (voice control).
      'aria-label': `${shown} (${f.label ? `${f.label}, ` : ''}${f.key})`,
      'aria-pressed': state.selected === f ? 'true' : 'false',
      text: shown,
      onpointerdown: (e) => startMove(e, f, frame),
      onkeydown: (e) => nudge(e, f),
      onclick: () => select(f),
    });
    placeBox(node, f);
    frame.layer.append(node);
  }
}

function select(f) {
  state.selected = f;
  drawFields();
  drawProps();
}

/** Arrow keys move the selected field (Shift: further); Delete removes it. */
function nudge(e, f) {
  const step = e.shiftKey ? 5 : 0.5;
  const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
  if (e.key === 'Delete' || e.key === 'Backspace') {
    e.preventDefault();
    removeField(f);
    return;
  }
  const m = moves[e.key];
  if (!m) return;
  e.preventDefault();
  f.x = round(clamp(f.x + m[0], 0, 100 - f.w));
  f.y = round(clamp(f.y + m[1], 0, 100 - f.h));
  state.selected = f;
  drawFields();
  drawProps();
  state.frames[f.page - 1]?.layer.querySelector(`[data-key="${CSS.escape(f.key)}"]`)?.focus();
}

function pointIn(layer, e) {
  const r = layer.getBoundingClientRect();
  return { x: ((e.clientX - r.left) / r.width) * 100, y: ((e.clientY - r.top) / r.height) * 100 };
}

function startMove(e, f, frame) {
  if (e.button !== 0) return;
  e.stopPropagation();
  const start = pointIn(frame.layer, e);
  const origin = { x: f.x, y: f.y };
  const node = e.currentTarget;
  node.setPointerCapture(e.pointerId);
  let moved = false;
  const onMove = (ev) => {
    const p = pointIn(frame.layer, ev);
    f.x = round(clamp(origin.x + p.x - start.x, 0, 100 - f.w));
    f.y = round(clamp(origin.y + p.y - start.y, 0, 100 - f.h));
    moved = true;
    placeBox(node, f);
  };
  const onUp = () => {
    node.removeEventListener('pointermove', onMove);
    node.removeEventListener('pointerup', onUp);
    if (moved) select(f);
  };
  node.addEventListener('pointermove', onMove);
  node.addEventListener('pointerup', onUp);
}

/** Click-drag on a page draws a new field of the kind and role chosen in the side panel. */
function startDraw(e, frame, pageNumber) {
  if (e.button !== 0 || e.target !== frame.layer) return;
  e.preventDefault();
  const start = pointIn(frame.layer, e);
  const ghost = el('div', { class: 'prep-ghost' });
  frame.layer.append(ghost);
  frame.layer.setPointerCapture(e.pointerId);
  const boxOf = (p) => ({
    x: clamp(Math.min(start.x, p.x), 0, 100),
    y: clamp(Math.min(start.y, p.y), 0, 100),
    w: Math.abs(p.x - start.x),
    h: Math.abs(p.y - start.y),
  });
  let last = start;
  const onMove = (ev) => {
    last = pointIn(frame.layer, ev);
    placeBox(ghost, boxOf(last));
  };
  const onUp = () => {
    frame.layer.removeEventListener('pointermove', onMove);
    frame.layer.removeEventListener('pointerup', onUp);
    ghost.remove();
    const box = boxOf(last);
    const kind = inputValue('new-kind');
    if (box.w < MIN_DRAG && box.h < MIN_DRAG) {
      const [w, h] = DEFAULT_SIZE[kind] ?? [20, 4];
      Object.assign(box, { w, h });
    }
    box.w = Math.max(box.w, MIN_DRAG);
    box.h = Math.max(box.h, MIN_DRAG);
    addField(pageNumber, box);
  };
  frame.layer.addEventListener('pointermove', onMove);
  frame.layer.addEventListener('pointerup', onUp);
}

function addField(page, box) {
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
    editor_roles: role ? [role] : [],
  };
  state.fields.push(f);
  select(f);
  announce(`${KIND_NAME[kind]} field added on page ${page}.`);
}

function removeField(f) {
  state.fields = state.fields.filter((x) => x !== f);
  if (state.selected === f) state.selected = null;
  drawFields();
  drawProps();
  announce('Field removed.');
}

/* The side panel ----------------------------------------------------------------------------- */

function input(id, label, attrs) {
  return el(
    'p',
    { class: 'prep-row' },
    el('label', { class: 'label', for: id, text: label }),
    el('input', { class: 'input', id, ...attrs }),
  );
}

function roleOptions(selected, empty) {
  return [
    el('option', { value: '', text: empty, selected: selected === '' }),
    ...state.roles.map((r) =>
      el('option', { value: r.key, text: r.label || r.key, selected: r.key === selected }),
    ),
  ];
}

function drawRoles() {
  const list = document.getElementById('roles');
  list.replaceChildren(
    ...state.roles.map((r, i) =>
      el(
        'li',
        { class: 'prep-role' },
        el('input', {
          class: 'input',
          'aria-label': `Role ${i + 1} key`,
          value: r.key,
          onchange: (e) => renameRole(r, e.target.value.trim()),
        }),
        el('input', {
          class: 'input',
          'aria-label': `Role ${i + 1} name`,
          value: r.label,
          onchange: (e) => {
            r.label = e.target.value;
            drawAll();
          },
        }),
        el('button', {
          type: 'button',
          class: 'btn small',
          text: 'Remove',
          'aria-label': `Remove role ${r.label || r.key}`,
          onclick: () => removeRole(r),
        }),
      ),
    ),
  );
  const newRole = /** @type {HTMLSelectElement} */ (document.getElementById('new-role'));
  const keep = newRole.value;
  newRole.replaceChildren(
    ...roleOptions(state.roles.some((r) => r.key === keep) ? keep : (state.roles[0]?.key ?? ''), 'No role'),
  );
}

function renameRole(r, key) {
  const old = r.key;
  r.key = key;
  for (const f of state.fields) f.editor_roles = renameRoleIn(f.editor_roles, old, key);
  drawAll();
}

function removeRole(r) {
  state.roles = state.roles.filter((x) => x !== r);
  for (const f of state.fields) f.editor_roles = withoutRole(f.editor_roles, r.key);
  drawAll();
}

function addRole() {
  const key = uniqueKey('role', new Set(state.roles.map((r) => r.key)));
  state.roles.push({ key, label: `Role ${state.roles.length + 1}` });
  drawAll();
}

function drawProps() {
  const box = document.getElementById('field-props');
  const f = state.selected;
  if (!f) {
    box.replaceChildren(el('p', { class: 'prep-hint', text: 'Select a field on a page to change it.' }));
    return;
  }
  const set =
    (prop, parse = (v) => v) =>
    (e) => {
      f[prop] = parse(e.target.type === 'checkbox' ? e.target.checked : e.target.value);
      drawFields();
    };
  const num = (v) => round(Number(v));
  const tagsOff = Array.isArray(state.allowed) && state.allowed.length === 0;
  const exact = (state.allowed ?? []).filter((t) => !t.endsWith(':*'));
  box.replaceChildren(
    el('h2', { text: `Field ${f.key}` }),
    el(
      'p',
      { class: 'prep-row' },
      el('label', { class: 'label', for: 'f-kind', text: 'Kind' }),
      el(
        'select',
        { class: 'input', id: 'f-kind', onchange: set('kind') },
        ...KINDS.map(([k, n]) => el('option', { value: k, text: n, selected: f.kind === k })),
      ),
    ),
    el(
      'p',
      { class: 'prep-row' },
      el('label', { class: 'label', for: 'f-role', text: 'Role' }),
      el(
        'select',
        {
          class: 'input',
          id: 'f-role',
          onchange: (e) => {
            // Only the role shown changes: its `-` prefix and the field's other roles stay.
            f.editor_roles = withRole(f.editor_roles, e.target.value);
            drawFields();
          },
        },
        ...roleOptions(roleOf(f), 'No role'),
      ),
    ),
    input('f-label', 'Label', { value: f.label ?? '', onchange: set('label') }),
    el(
      'p',
      { class: 'prep-row prep-check' },
      el('input', { type: 'checkbox', id: 'f-required', checked: !!f.required, onchange: set('required') }),
      el('label', { for: 'f-required', text: 'Required' }),
    ),
    input('f-tag', 'Data flow tag', {
      value: f.tag ?? '',
      disabled: tagsOff,
      placeholder: tagsOff ? 'No tags in this session' : 'namespace:name',
      list: 'allowed-tags',
      onchange: set('tag', (v) => v.trim() || null),
    }),
    el('datalist', { id: 'allowed-tags' }, ...exact.map((t) => el('option', { value: t }))),
    el(
      'fieldset',
      { class: 'prep-geometry' },
      el('legend', { text: 'Position (percent of the page)' }),
      input('f-page', 'Page', {
        type: 'number',
        min: 1,
        max: state.pages.length,
        value: f.page,
        onchange: (e) => {
          f.page = clamp(Math.round(Number(e.target.value)) || 1, 1, state.pages.length);
          drawFields();
        },
      }),
      input('f-x', 'Left', {
        type: 'number',
        step: 0.5,
        min: 0,
        max: 100,
        value: f.x,
        onchange: set('x', num),
      }),
      input('f-y', 'Top', {
        type: 'number',
        step: 0.5,
        min: 0,
        max: 100,
        value: f.y,
        onchange: set('y', num),
      }),
      input('f-w', 'Width', {
        type: 'number',
        step: 0.5,
        min: 0.5,
        max: 100,
        value: f.w,
        onchange: set('w', num),
      }),
      input('f-h', 'Height', {
        type: 'number',
        step: 0.5,
        min: 0.5,
        max: 100,
        value: f.h,
        onchange: set('h', num),
      }),
    ),
    el('button', {
      type: 'button',
      class: 'btn danger',
      id: 'f-delete',
      text: 'Delete field',
      onclick: () => removeField(f),
    }),
  );
}

function drawAll() {
  drawRoles();
  drawFields();
  drawProps();
}

/* Saving ------------------------------------------------------------------------------------- */

/** A field as the API takes it: what the page read, without empty values (null, "", []). */
function wireField(f) {
  return Object.fromEntries(
    Object.entries(f).filter(([, v]) => v !== null && v !== '' && !(Array.isArray(v) && v.length === 0)),
  );
}

/** `fields[2].editor_roles[0]` → `Field sig-1 (editor_roles[0])`, for people. */
function where(path) {
  const m = /^fields\[(\d+)\]\.?(.*)$/.exec(path);
  if (!m) return path;
  const f = state.fields[Number(m[1])];
  return `Field ${f?.key ?? m[1]}${m[2] ? ` (${m[2]})` : ''}`;
}

async function save(button) {
  const out = document.getElementById('save-errors');
  out.replaceChildren();
  button.disabled = true;
  try {
    const body = {
      version: state.version,
      name: inputValue('prep-name'),
      roles: state.roles.map((r) => ({ key: r.key, label: r.label })),
      fields: state.fields.map(wireField),
    };
    const saved = await api('PUT', '/template', body);
    if (saved.redirect_url) {
      location.assign(saved.redirect_url);
      return;
    }
    main.replaceChildren(
      el(
        'section',
        { class: 'card message', 'aria-labelledby': 'done-title' },
        el('h1', { id: 'done-title', text: 'Template saved' }),
        el('p', {
          text: `“${saved.template.name}” has ${saved.template.fields.length} field(s) and ${saved.template.roles.length} role(s). You can close this page.`,
        }),
      ),
    );
    main.focus();
  } catch (err) {
    out.append(
      el('p', { text: err.message }),
      el('ul', {}, ...(err.errors ?? []).map((e) => el('li', { text: `${where(e.field)}: ${e.message}` }))),
    );
    out.focus();
    button.disabled = false;
  }
}

/* Start -------------------------------------------------------------------------------------- */

function layout(session) {
  const t = session.template;
  const save$ = el('button', { type: 'button', class: 'btn primary', id: 'save', text: 'Save template' });
  save$.addEventListener('click', () => save(save$));
  const side = el(
    'aside',
    { class: 'card prep-side', 'aria-label': 'Template' },
    el('h1', { text: 'Prepare the template' }),
    input('prep-name', 'Template name', { value: t.name, maxlength: 255 }),
    el('h2', { text: 'Roles' }),
    el('ul', { class: 'prep-roles', id: 'roles' }),
    el('button', { type: 'button', class: 'btn small', id: 'add-role', text: 'Add role', onclick: addRole }),
    el('h2', { text: 'New field' }),
    el(
      'p',
      { class: 'prep-row' },
      el('label', { class: 'label', for: 'new-kind', text: 'Kind' }),
      el(
        'select',
        { class: 'input', id: 'new-kind' },
        ...KINDS.map(([k, n]) => el('option', { value: k, text: n })),
      ),
    ),
    el(
      'p',
      { class: 'prep-row' },
      el('label', { class: 'label', for: 'new-role', text: 'Role' }),
      el('select', { class: 'input', id: 'new-role' }),
    ),
    el('p', {
      class: 'prep-hint',
      text: 'Drag on a page to place the field, or add it to page 1 and set its position below.',
    }),
    el('button', {
      type: 'button',
      class: 'btn small',
      id: 'add-field',
      text: 'Add field to page 1',
      onclick: () => addField(1, { x: 10, y: 10, w: 20, h: 4 }),
    }),
    el('section', { id: 'field-props', class: 'prep-props', 'aria-live': 'polite' }),
    el('div', { id: 'save-errors', class: 'prep-errors', role: 'alert', tabindex: '-1' }),
    save$,
  );
  const pages = el('div', { class: 'prep-pages', id: 'pages' });
  state.frames = state.pages.map((p, i) => {
    const canvas = el('canvas', { class: 'page-canvas', 'aria-hidden': 'true' });
    const layer = el('div', { class: 'prep-layer', dataset: { page: String(i + 1) } });
    const frame = el(
      'div',
      { class: 'page prep-page', role: 'group', 'aria-label': `Page ${i + 1}` },
      canvas,
      el('div', { class: 'page-loading', text: 'Loading page…' }),
      layer,
    );
    frame.style.aspectRatio = `${p.width} / ${p.height}`;
    layer.addEventListener('pointerdown', (e) => startDraw(e, { layer }, i + 1));
    pages.append(frame, el('p', { class: 'page-number', text: `Page ${i + 1} of ${state.pages.length}` }));
    return { frame, canvas, layer };
  });
  main.replaceChildren(el('div', { class: 'prep-layout' }, side, pages));
}

async function start() {
  let session;
  try {
    session = await api('GET', '/session');
  } catch (err) {
    main.replaceChildren(
      el(
        'section',
        { class: 'card message' },
        el('h1', { text: 'This link does not work' }),
        el('p', { text: err.message }),
      ),
    );
    return;
  }
  const t = session.template;
  Object.assign(state, {
    version: t.version,
    name: t.name,
    pages: t.pages,
    roles: t.roles.map((r) => ({ ...r })),
    fields: t.fields.map((f) => ({ ...f })),
    allowed: session.allowed_data_flow_tags,
  });
  layout(session);
  drawAll();
  const pdf = session.file_url
    ? openPdf(null, session.file_url)
    : api('GET', '/document').then((bytes) => openPdf(new Uint8Array(bytes)));
  state.frames.forEach((f, i) => {
    showPage(pdf, i + 1, f.frame, f.canvas, () => f.frame.classList.add('failed'));
  });
  document.documentElement.dataset.ready = 'true';
}

start();
