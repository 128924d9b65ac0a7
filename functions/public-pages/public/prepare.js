// @ts-check
// The preparation editor: one page over a Document Template (functions/public-pages/prepare-page.ts)
// or a draft bundle (bundle-editor-page.ts, `data-mode="bundle"`). The documents' pages are drawn
// by pdf.js; fields are placed by dragging on a page (or added with the form and moved with the
// arrow keys: prepare-fields.js) and changed in the side panel (prepare-props.js). A template's
// Save sends the whole template to PUT /prepare/api/template (the rules of PATCH /templates/{id}/);
// a draft's Save sends its fields to PUT /prepare/api/bundle/fields (the rules of creating a
// bundle), its Send sends it, and "Preview as signer" shows one signer's fields read-only. A framed
// bundle editor tells its parent what happened (prepare-embed.js). No inline code: the CSP forbids it.
import { announce, el } from './dom.js';
import { lang, t } from './i18n.js';
import { tellParent } from './prepare-embed.js';
import { addField, drawFields, startDraw, uniqueKey } from './prepare-fields.js';
import { KINDS } from './prepare-kinds.js';
import { isSignersField } from './prepare-preview.js';
import { drawProps, input, roleOptions } from './prepare-props.js';
import { renameRoleIn, withoutRole } from './prepare-roles.js';
import { BUNDLE, ROLES, redraw, state } from './prepare-state.js';
import { openPdf, showPage } from './viewer.js';

/** The value of the form control with this id. */
const inputValue = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id)).value;

const API = document.documentElement.dataset.api ?? '/prepare/api';
const TOKEN = decodeURIComponent(location.pathname.split('/').filter(Boolean).pop() ?? '');
const main = document.getElementById('main');

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
    throw Object.assign(new Error(data?.message ?? t('editor.serviceAnswered', { status: res.status })), {
      status: res.status,
      errors: data?.errors ?? [],
    });
  return data;
}

/* Roles (a template's, which the page edits) and signers (a bundle's, shown) ------------------ */

function drawRoles() {
  const list = document.getElementById('roles');
  if (BUNDLE)
    list.replaceChildren(
      ...state.roles.map((r, i) =>
        el(
          'li',
          { class: `prep-signer role-${i % 4}` },
          el('span', { class: 'prep-swatch', 'aria-hidden': 'true' }),
          el(
            'span',
            {},
            el('strong', { text: r.label }),
            r.email ? el('span', { text: ` ${r.email}` }) : null,
          ),
        ),
      ),
    );
  else
    list.replaceChildren(
      ...state.roles.map((r, i) =>
        el(
          'li',
          { class: 'prep-role' },
          el('input', {
            class: 'input',
            'aria-label': t('editor.roleKey', { number: i + 1 }),
            value: r.key,
            onchange: (e) => renameRole(r, e.target.value.trim()),
          }),
          el('input', {
            class: 'input',
            'aria-label': t('editor.roleName', { number: i + 1 }),
            value: r.label,
            onchange: (e) => {
              r.label = e.target.value;
              drawAll();
            },
          }),
          el('button', {
            type: 'button',
            class: 'btn small',
            text: t('editor.remove'),
            'aria-label': t('editor.removeRole', { name: r.label || r.key }),
            onclick: () => removeRole(r),
          }),
        ),
      ),
    );
  const newRole = /** @type {HTMLSelectElement} */ (document.getElementById('new-role'));
  const keep = newRole.value;
  newRole.replaceChildren(
    ...roleOptions(
      state.roles.some((r) => r.key === keep) ? keep : (state.roles[0]?.key ?? ''),
      BUNDLE ? '' : t('editor.noRole'),
    ),
  );
}

function renameRole(r, key) {
  const old = r.key;
  r.key = key;
  for (const f of state.fields) f[ROLES] = renameRoleIn(f[ROLES], old, key);
  drawAll();
}

function removeRole(r) {
  state.roles = state.roles.filter((x) => x !== r);
  for (const f of state.fields) f[ROLES] = withoutRole(f[ROLES], r.key);
  drawAll();
}

function addRole() {
  const key = uniqueKey('role', new Set(state.roles.map((x) => x.key)));
  state.roles.push({ key, label: t('editor.newRole', { number: state.roles.length + 1 }) });
  drawAll();
}

function drawAll() {
  drawRoles();
  drawFields();
  drawProps();
}

/* Saving, sending ----------------------------------------------------------------------------- */

/** A field as the API takes it: without the page's own parts and empty values (null, "", []). */
function wireField(f) {
  return Object.fromEntries(
    Object.entries(f).filter(
      ([k, v]) =>
        !k.startsWith('_') &&
        v !== null &&
        v !== undefined &&
        v !== '' &&
        !(Array.isArray(v) && v.length === 0),
    ),
  );
}

/** The fields as sent, in the order the service's error paths count them. */
function sentFields() {
  return BUNDLE
    ? state.docs.map((d) => state.fields.filter((f) => f._doc === d.key))
    : [state.fields.filter(() => true)];
}

/** `documents[0].fields[2].editors[0]` (or `fields[2]…`) → the field it names and the rest. */
function fieldAt(path, sent) {
  const m = BUNDLE
    ? /^documents\[(\d+)\]\.fields\[(\d+)\]\.?(.*)$/.exec(path)
    : /^()fields\[(\d+)\]\.?(.*)$/.exec(path);
  if (!m) return undefined;
  const f = sent[Number(m[1] || 0)]?.[Number(m[2])];
  return f ? { f, rest: m[3] } : undefined;
}

function showErrors(err, sent) {
  const out = document.getElementById('save-errors');
  for (const f of state.fields) f._error = undefined;
  const items = (err.errors ?? []).map((e) => {
    const at = fieldAt(e.field, sent);
    if (!at) return el('li', { text: `${e.field}: ${e.message}` });
    at.f._error = at.f._error ? `${at.f._error} ${e.message}` : e.message;
    const words = { key: at.f.key, part: at.rest, message: e.message };
    return el('li', { text: t(at.rest ? 'editor.fieldError' : 'editor.fieldErrorWhole', words) });
  });
  out.replaceChildren(el('p', { text: err.message }), items.length ? el('ul', {}, ...items) : null);
  drawFields();
  out.focus();
}

function clearErrors() {
  document.getElementById('save-errors').replaceChildren();
  for (const f of state.fields) f._error = undefined;
}

/** The page after its work is done: a message, and a word to the parent window. */
function finished(title, text) {
  main.replaceChildren(
    el(
      'section',
      { class: 'card message', 'aria-labelledby': 'done-title' },
      el('h1', { id: 'done-title', text: title }),
      el('p', { text }),
    ),
  );
  main.focus();
}

async function saveTemplate(button) {
  clearErrors();
  button.disabled = true;
  const sent = sentFields();
  try {
    const body = {
      version: state.version,
      name: inputValue('prep-name'),
      roles: state.roles.map((r) => ({ key: r.key, label: r.label })),
      fields: sent[0].map(wireField),
    };
    const saved = await api('PUT', '/template', body);
    if (saved.redirect_url) {
      location.assign(saved.redirect_url);
      return;
    }
    finished(t('editor.templateSaved'), t('editor.templateSavedText', { name: saved.template.name }));
  } catch (err) {
    showErrors(err, sent);
    button.disabled = false;
  }
}

/** Saves the draft's fields; true when the service took them. */
async function saveDraft() {
  clearErrors();
  const sent = sentFields();
  const status = document.getElementById('save-status');
  try {
    const body = {
      version: state.version,
      documents: state.docs.map((d, i) => ({ key: d.key, fields: sent[i].map(wireField) })),
    };
    const saved = await api('PUT', '/fields', body);
    state.version = saved.version;
    drawFields();
    status.textContent = t('editor.savedAt', { time: new Date().toLocaleTimeString(lang) });
    announce(t('editor.savedAnnounce'));
    tellParent('saved', state.bundleId);
    return true;
  } catch (err) {
    status.textContent = '';
    showErrors(err, sent);
    return false;
  }
}

async function withButton(button, work) {
  button.disabled = true;
  try {
    await work();
  } finally {
    button.disabled = false;
  }
}

async function sendDraft(button) {
  await withButton(button, async () => {
    if (!(await saveDraft())) return;
    try {
      await api('POST', '/send');
      tellParent('sent', state.bundleId);
      finished(
        t('editor.sent'),
        state.name ? t('editor.sentText', { name: state.name }) : t('editor.sentTextUnnamed'),
      );
    } catch (err) {
      showErrors(err, sentFields());
    }
  });
}

function close() {
  const told = tellParent('closed', state.bundleId);
  if (!told) finished(t('editor.closed'), t('editor.closedText'));
}

/* Preview as signer --------------------------------------------------------------------------- */

function togglePreview() {
  const button = document.getElementById('preview');
  const layout = main.querySelector('.prep-layout');
  if (state.preview) {
    state.preview = null;
    layout.classList.remove('previewing');
    button.textContent = t('editor.previewAs');
    button.setAttribute('aria-pressed', 'false');
    drawFields();
    announce(t('editor.backAnnounce'));
    return;
  }
  const signer = state.roles.find((r) => r.key === inputValue('preview-signer'));
  if (!signer) return;
  state.preview = signer;
  state.selected = null;
  drawProps();
  layout.classList.add('previewing');
  button.textContent = t('editor.backToEditing');
  button.setAttribute('aria-pressed', 'true');
  drawFields();
  const n = state.fields.filter((f) => isSignersField(f, signer.key)).length;
  announce(t('editor.previewAnnounce', { name: signer.label, number: n }));
}

/* Layout --------------------------------------------------------------------------------------- */

function bundleActions() {
  const save = el('button', { type: 'button', class: 'btn', id: 'save', text: t('editor.saveDraft') });
  save.addEventListener('click', () => withButton(save, saveDraft));
  const send = el('button', { type: 'button', class: 'btn primary', id: 'send', text: t('editor.send') });
  send.addEventListener('click', () => sendDraft(send));
  return [
    el('h2', { text: t('editor.preview') }),
    el(
      'p',
      { class: 'prep-row' },
      el('label', { class: 'label', for: 'preview-signer', text: t('editor.previewSigner') }),
      el('select', { class: 'input', id: 'preview-signer' }, ...roleOptions('', '')),
    ),
    el('button', {
      type: 'button',
      class: 'btn small',
      id: 'preview',
      'aria-pressed': 'false',
      text: t('editor.previewAs'),
      onclick: togglePreview,
    }),
    el('div', { id: 'save-errors', class: 'prep-errors', role: 'alert', tabindex: '-1' }),
    el('p', { id: 'save-status', class: 'prep-hint', role: 'status' }),
    el('p', { class: 'prep-actions' }, save, send),
    el('button', {
      type: 'button',
      class: 'btn small',
      id: 'close',
      text: t('editor.close'),
      onclick: close,
    }),
  ];
}

function templateActions(template) {
  const save = el('button', {
    type: 'button',
    class: 'btn primary',
    id: 'save',
    text: t('editor.saveTemplate'),
  });
  save.addEventListener('click', () => saveTemplate(save));
  return {
    top: [
      input('prep-name', t('editor.templateName'), { value: template.name, maxlength: 255 }),
      el('h2', { text: t('editor.roles') }),
      el('ul', { class: 'prep-roles', id: 'roles' }),
      el('button', {
        type: 'button',
        class: 'btn small',
        id: 'add-role',
        text: t('editor.addRole'),
        onclick: addRole,
      }),
    ],
    bottom: [el('div', { id: 'save-errors', class: 'prep-errors', role: 'alert', tabindex: '-1' }), save],
  };
}

/** Where "Add field" puts a draft's field: every page of every document, for the keyboard. */
function pagePicker() {
  return el(
    'p',
    { class: 'prep-row' },
    el('label', { class: 'label', for: 'new-page', text: t('editor.pageForNew') }),
    el(
      'select',
      { class: 'input', id: 'new-page' },
      ...state.docs.flatMap((d) =>
        d.pages.map((_, i) =>
          el('option', {
            value: `${d.key}\n${i + 1}`,
            text: t('editor.docPage', { document: d.name, page: i + 1 }),
          }),
        ),
      ),
    ),
  );
}

function layout() {
  const first = state.docs[0];
  const template = BUNDLE ? undefined : templateActions({ name: state.name });
  const side = el(
    'aside',
    { class: 'card prep-side', 'aria-label': t(BUNDLE ? 'editor.side.bundle' : 'editor.side.template') },
    el('h1', { text: t(BUNDLE ? 'editor.heading.bundle' : 'editor.heading.template') }),
    ...(BUNDLE
      ? [
          state.name ? el('p', { class: 'prep-hint', text: state.name }) : null,
          el('h2', { text: t('editor.signers') }),
          el('ul', { class: 'prep-roles', id: 'roles' }),
        ]
      : template.top),
    el('h2', { text: t('editor.newField') }),
    el(
      'p',
      { class: 'prep-row' },
      el('label', { class: 'label', for: 'new-kind', text: t('editor.kindLabel') }),
      el(
        'select',
        { class: 'input', id: 'new-kind' },
        ...KINDS.map(([k, n]) => el('option', { value: k, text: n })),
      ),
    ),
    el(
      'p',
      { class: 'prep-row' },
      el('label', { class: 'label', for: 'new-role', text: t(BUNDLE ? 'editor.signer' : 'editor.role') }),
      el('select', { class: 'input', id: 'new-role' }),
    ),
    el('p', {
      class: 'prep-hint',
      text: t(BUNDLE ? 'editor.hint.bundle' : 'editor.hint.template'),
    }),
    ...(BUNDLE ? [pagePicker()] : []),
    el('button', {
      type: 'button',
      class: 'btn small',
      id: 'add-field',
      text: t(BUNDLE ? 'editor.addField' : 'editor.addFieldPage1'),
      onclick: () => {
        // A bundle's field goes to the page picked (any page of any document), a template's to page 1.
        const [doc, page] = BUNDLE ? inputValue('new-page').split('\n') : [first.key, '1'];
        addField(doc, Number(page), { x: 10, y: 10, w: 20, h: 4 });
      },
    }),
    el(
      'p',
      { class: 'prep-row prep-check' },
      el('input', {
        type: 'checkbox',
        id: 'snap',
        checked: state.snap,
        onchange: (e) => {
          state.snap = e.target.checked;
        },
      }),
      el('label', { for: 'snap', text: t('editor.snap') }),
    ),
    el('section', { id: 'unplaced', 'aria-label': t('editor.unplaced'), hidden: true }),
    el('section', { id: 'field-props', class: 'prep-props', 'aria-live': 'polite' }),
    ...(BUNDLE ? bundleActions() : template.bottom),
  );
  const pages = el('div', { class: 'prep-pages', id: 'pages' });
  state.frames = state.docs.flatMap((d) => {
    if (BUNDLE) pages.append(el('h2', { class: 'prep-doc-name', text: d.name }));
    return d.pages.map((p, i) => {
      const canvas = el('canvas', { class: 'page-canvas', 'aria-hidden': 'true' });
      const layer = el('div', { class: 'prep-layer', dataset: { doc: d.key, page: String(i + 1) } });
      const name = BUNDLE
        ? t('editor.docPage', { document: d.name, page: i + 1 })
        : t('editor.pageLabel', { page: i + 1 });
      const frame = el(
        'div',
        { class: 'page prep-page', role: 'group', 'aria-label': name },
        canvas,
        el('div', { class: 'page-loading', text: t('editor.pageLoading') }),
        layer,
      );
      frame.style.aspectRatio = `${p.width} / ${p.height}`;
      const entry = { doc: d.key, page: i + 1, frame, canvas, layer };
      layer.addEventListener('pointerdown', (e) => startDraw(e, entry));
      pages.append(
        frame,
        el('p', { class: 'page-number', text: t('editor.pageOf', { page: i + 1, pages: d.pages.length }) }),
      );
      return entry;
    });
  });
  main.replaceChildren(el('div', { class: 'prep-layout' }, side, pages));
}

/* Start ---------------------------------------------------------------------------------------- */

/** What the session answers, as the editor holds it. */
function load(session) {
  if (BUNDLE) {
    const b = session.bundle;
    Object.assign(state, {
      version: b.version,
      name: b.label,
      bundleId: b.id,
      docs: b.documents.map((d) => ({ key: d.key, name: d.name, pages: d.pages, fileUrl: d.file_url })),
      roles: b.packets.map((p) => ({ key: p.key, label: p.name, email: p.email })),
      fields: b.documents.flatMap((d) => d.fields.map((f) => ({ ...f, _doc: d.key }))),
    });
    return;
  }
  const tpl = session.template;
  Object.assign(state, {
    version: tpl.version,
    name: tpl.name,
    docs: [{ key: '', name: tpl.name, pages: tpl.pages, fileUrl: session.file_url }],
    roles: tpl.roles.map((r) => ({ ...r })),
    fields: tpl.fields.map((f) => ({ ...f, _doc: '' })),
    allowed: session.allowed_data_flow_tags,
  });
}

function pdfOf(doc) {
  if (doc.fileUrl) return openPdf(null, doc.fileUrl);
  const path = BUNDLE ? `/documents/${encodeURIComponent(doc.key)}` : '/document';
  return api('GET', path).then((bytes) => openPdf(new Uint8Array(bytes)));
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
        el('h1', { text: t('editor.linkBroken') }),
        el('p', { text: err.message }),
      ),
    );
    return;
  }
  load(session);
  Object.assign(redraw, { fields: drawFields, props: drawProps, roles: drawRoles });
  layout();
  drawAll();
  for (const doc of state.docs) {
    const pdf = pdfOf(doc);
    for (const f of state.frames.filter((fr) => fr.doc === doc.key))
      showPage(pdf, f.page, f.frame, f.canvas, () => f.frame.classList.add('failed'));
  }
  document.documentElement.dataset.ready = 'true';
  if (BUNDLE) tellParent('ready', state.bundleId);
}

start();
