// @ts-check
// The selected field's properties in the preparation editor's side panel (prepare.js): kind, who
// fills it in, label, required, and the options its kind takes (initial value, choices, date
// format, allowed input and bounds; prepare-kinds.js), its data flow tag and its position.
import { el } from './dom.js';
import { t } from './i18n.js';
import { conditionRows } from './prepare-conditions.js';
import { copyField, drawFields, removeField } from './prepare-fields.js';
import { formulaRows } from './prepare-formulas.js';
import { clamp, round } from './prepare-geometry.js';
import { KINDS, keepOptionsOf, optionsOf, PATTERNS } from './prepare-kinds.js';
import { readOnlyRow } from './prepare-prefill.js';
import { roleOf, withRole } from './prepare-roles.js';
import { BUNDLE, ROLES, state, VALUE } from './prepare-state.js';

export function input(id, label, attrs) {
  return el(
    'p',
    { class: 'prep-row' },
    el('label', { class: 'label', for: id, text: label }),
    el('input', { class: 'input', id, ...attrs }),
  );
}

function select(id, label, attrs, options) {
  return el(
    'p',
    { class: 'prep-row' },
    el('label', { class: 'label', for: id, text: label }),
    el('select', { class: 'input', id, ...attrs }, ...options),
  );
}

export function roleOptions(selected, empty) {
  return [
    ...(empty ? [el('option', { value: '', text: empty, selected: selected === '' })] : []),
    ...state.roles.map((r) =>
      el('option', { value: r.key, text: r.label || r.key, selected: r.key === selected }),
    ),
  ];
}

/** The options that only some kinds take. */
function kindOptions(f, set) {
  const o = optionsOf(f.kind);
  const rows = [];
  if (o.initialValue)
    rows.push(
      input('f-value', t(f.kind === 'chk' ? 'editor.props.checkedAtFirst' : 'editor.props.initialValue'), {
        value: f[VALUE] ?? '',
        ...(f.kind === 'dat' ? { type: 'date' } : {}),
        onchange: set(VALUE, (v) => v || undefined),
      }),
    );
  if (o.choices)
    rows.push(
      el(
        'p',
        { class: 'prep-row' },
        el('label', { class: 'label', for: 'f-choices', text: t('editor.props.choices') }),
        el('textarea', {
          class: 'input',
          id: 'f-choices',
          rows: 3,
          text: (f.format ?? '').split('|').filter(Boolean).join('\n'),
          onchange: set('format', (v) =>
            v
              .split('\n')
              .map((c) => c.trim())
              .filter(Boolean)
              .join('|'),
          ),
        }),
      ),
    );
  if (o.dateFormat)
    rows.push(
      input('f-format', t('editor.props.dateFormat'), {
        value: f.format ?? '',
        placeholder: 'YYYY-MM-DD',
        onchange: set('format', (v) => v.trim()),
      }),
    );
  if (o.pattern)
    rows.push(
      select(
        'f-pattern',
        t('editor.props.allowedInput'),
        { onchange: set('v_pattern', (v) => v || undefined) },
        PATTERNS.map(([k, n]) => el('option', { value: k, text: n, selected: (f.v_pattern ?? '') === k })),
      ),
      input('f-regex', t('editor.props.regex'), {
        value: f.v_regex ?? '',
        placeholder: '^[A-Z]{2}[0-9]{6}$',
        onchange: set('v_regex', (v) => v || undefined),
      }),
      input('f-regex-msg', t('editor.props.regexMessage'), {
        value: f.v_regex_msg ?? '',
        onchange: set('v_regex_msg', (v) => v || undefined),
      }),
      input('f-min', t('editor.props.fewest'), {
        type: 'number',
        min: 0,
        value: f.v_min ?? '',
        onchange: set('v_min', (v) => (v === '' ? undefined : Number(v))),
      }),
      input('f-max', t('editor.props.most'), {
        type: 'number',
        min: 0,
        value: f.v_max ?? '',
        onchange: set('v_max', (v) => (v === '' ? undefined : Number(v))),
      }),
    );
  return rows;
}

function geometry(f, set) {
  const doc = state.docs.find((d) => d.key === f._doc);
  const num = (v) => round(Number(v));
  const box = (id, label, prop, min) =>
    input(id, label, { type: 'number', step: 0.5, min, max: 100, value: f[prop], onchange: set(prop, num) });
  return el(
    'fieldset',
    { class: 'prep-geometry' },
    el('legend', { text: t('editor.props.position') }),
    input('f-page', t('editor.props.page'), {
      type: 'number',
      min: 1,
      max: doc?.pages.length ?? 1,
      value: f.page,
      onchange: (e) => {
        f.page = clamp(Math.round(Number(e.target.value)) || 1, 1, doc?.pages.length ?? 1);
        drawFields();
      },
    }),
    box('f-x', t('editor.props.left'), 'x', 0),
    box('f-y', t('editor.props.top'), 'y', 0),
    box('f-w', t('editor.props.width'), 'w', 0.5),
    box('f-h', t('editor.props.height'), 'h', 0.5),
  );
}

export function drawProps() {
  const panel = document.getElementById('field-props');
  if (!panel) return;
  const f = state.selected;
  if (!f) {
    panel.replaceChildren(el('p', { class: 'prep-hint', text: t('editor.props.selectHint') }));
    return;
  }
  const set =
    (prop, parse = (v) => v) =>
    (e) => {
      const v = parse(e.target.type === 'checkbox' ? e.target.checked : e.target.value);
      if (v === undefined) delete f[prop];
      else f[prop] = v;
      f._error = undefined;
      drawFields();
    };
  const tagsOff = Array.isArray(state.allowed) && state.allowed.length === 0;
  const exact = (state.allowed ?? []).filter((tag) => !tag.endsWith(':*'));
  panel.replaceChildren(
    el('h2', { text: t('editor.props.field', { key: f.key }) }),
    select(
      'f-kind',
      t('editor.kindLabel'),
      {
        onchange: (e) => {
          f.kind = e.target.value;
          keepOptionsOf(f, VALUE);
          drawFields();
          drawProps();
        },
      },
      KINDS.map(([k, n]) => el('option', { value: k, text: n, selected: f.kind === k })),
    ),
    select(
      'f-role',
      t(BUNDLE ? 'editor.signer' : 'editor.role'),
      {
        onchange: (e) => {
          // Only the role shown changes: its `-` prefix and the field's other roles stay.
          f[ROLES] = withRole(f[ROLES], e.target.value);
          drawFields();
        },
      },
      roleOptions(roleOf({ editor_roles: f[ROLES] }), t(BUNDLE ? 'editor.props.nobody' : 'editor.noRole')),
    ),
    input('f-label', t('editor.props.label'), { value: f.label ?? '', onchange: set('label') }),
    el(
      'p',
      { class: 'prep-row prep-check' },
      el('input', { type: 'checkbox', id: 'f-required', checked: !!f.required, onchange: set('required') }),
      el('label', { for: 'f-required', text: t('editor.props.required') }),
    ),
    ...kindOptions(f, set),
    ...readOnlyRow(f, set),
    ...formulaRows(f, set),
    ...conditionRows(f, () => {
      drawFields();
      drawProps();
    }),
    input('f-tag', t('editor.props.tag'), {
      value: f.tag ?? '',
      disabled: tagsOff,
      placeholder: tagsOff ? t('editor.props.noTags') : 'namespace:name',
      list: 'allowed-tags',
      onchange: set('tag', (v) => v.trim() || undefined),
    }),
    el('datalist', { id: 'allowed-tags' }, ...exact.map((tag) => el('option', { value: tag }))),
    geometry(f, set),
    el(
      'p',
      { class: 'prep-actions' },
      el('button', {
        type: 'button',
        class: 'btn small',
        id: 'f-copy',
        text: t('editor.props.copy'),
        onclick: () => copyField(f),
      }),
      el('button', {
        type: 'button',
        class: 'btn danger',
        id: 'f-delete',
        text: t('editor.props.delete'),
        onclick: () => removeField(f),
      }),
    ),
  );
}
