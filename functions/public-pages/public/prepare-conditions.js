// @ts-check
// "Show only when" in the preparation editor's side panel (prepare-props.js): the field is shown
// only when another field of its document is filled in (or ticked) or equals a value, and may be
// required then. The service checks what is saved (missing keys, cycles) and says so by field.
import { el, uid } from './dom.js';
import { t } from './i18n.js';
import { setCondition, simpleCondition } from './prepare-condition-rules.js';
import { state } from './prepare-state.js';

/** The side panel's rows for the selected field's conditions; `changed` redraws the panel. */
export function conditionRows(f, changed) {
  const shown = simpleCondition(f);
  const legend = el('legend', { text: t('conditions.legend') });
  if (shown === undefined)
    return [
      el(
        'fieldset',
        { class: 'prep-conditions' },
        legend,
        el('p', { class: 'prep-hint', text: t('conditions.fromApi') }),
      ),
    ];
  const c = shown ?? { field: '', test: 'filled', value: '', requiredThen: false };
  const others = state.fields.filter((o) => o !== f && o._doc === f._doc && o.key);
  const ids = {
    field: uid('cond-field'),
    test: uid('cond-test'),
    value: uid('cond-value'),
    req: uid('cond-req'),
  };
  const update = (part) => (e) => {
    const v = e.target.type === 'checkbox' ? e.target.checked : e.target.value;
    setCondition(f, { ...c, [part]: v });
    f._error = undefined;
    changed();
  };
  const row = (id, label, control) =>
    el('p', { class: 'prep-row' }, el('label', { class: 'label', for: id, text: label }), control);
  const rows = [
    row(
      ids.field,
      t('conditions.otherField'),
      el(
        'select',
        { class: 'input', id: ids.field, onchange: update('field') },
        el('option', { value: '', text: t('conditions.always'), selected: c.field === '' }),
        ...others.map((o) =>
          el('option', {
            value: o.key,
            text: o.label ? `${o.label} (${o.key})` : o.key,
            selected: o.key === c.field,
          }),
        ),
      ),
    ),
  ];
  if (c.field) {
    rows.push(
      row(
        ids.test,
        t('conditions.test'),
        el(
          'select',
          { class: 'input', id: ids.test, onchange: update('test') },
          el('option', { value: 'filled', text: t('conditions.isFilled'), selected: c.test === 'filled' }),
          el('option', { value: 'equals', text: t('conditions.equals'), selected: c.test === 'equals' }),
        ),
      ),
    );
    if (c.test === 'equals')
      rows.push(
        row(
          ids.value,
          t('conditions.value'),
          el('input', { class: 'input', id: ids.value, value: c.value, onchange: update('value') }),
        ),
      );
    rows.push(
      el(
        'p',
        { class: 'prep-row prep-check' },
        el('input', {
          type: 'checkbox',
          id: ids.req,
          checked: c.requiredThen,
          onchange: update('requiredThen'),
        }),
        el('label', { for: ids.req, text: t('conditions.requiredThen') }),
      ),
    );
  }
  return [el('fieldset', { class: 'prep-conditions' }, legend, ...rows)];
}
