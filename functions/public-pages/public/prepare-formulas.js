// @ts-check
// A calculated field in the preparation editor's side panel (prepare-props.js): an input field's
// formula and the format its result is written in. The formula is checked as it is typed with
// the service's own parser (text/formula.js), so a mistake shows with the character it is at
// before saving; the service checks it again, with the fields it names, when the editor saves.
import { el } from './dom.js';
import { t } from './i18n.js';
import { parseFormula } from './text/formula.js';

/** The rows for field `f` (none unless it is an input field); `set` is the panel's setter. */
export function formulaRows(f, set) {
  if (f.kind !== 'inp') return [];
  const hint = el('span', { class: 'prep-hint', id: 'f-formula-hint' });
  const explain = (text) => {
    const parsed = text.trim() === '' ? undefined : parseFormula(text);
    hint.textContent =
      parsed && 'problem' in parsed ? parsed.problem.message : t('formulas.editor.formulaHint');
  };
  const formula = el('input', {
    class: 'input',
    id: 'f-formula',
    value: f.formula ?? '',
    placeholder: 'round(qty * price, 2)',
    'aria-describedby': 'f-formula-hint',
    autocomplete: 'off',
    spellcheck: 'false',
    oninput: (e) => explain(e.target.value),
    onchange: set('formula', (v) => v.trim() || undefined),
  });
  explain(f.formula ?? '');
  return [
    el(
      'p',
      { class: 'prep-row' },
      el('label', { class: 'label', for: 'f-formula', text: t('formulas.editor.formula') }),
      formula,
      hint,
    ),
    el(
      'p',
      { class: 'prep-row' },
      el('label', { class: 'label', for: 'f-number-format', text: t('formulas.editor.format') }),
      el('input', {
        class: 'input',
        id: 'f-number-format',
        value: f.formula !== undefined ? (f.format ?? '') : '',
        placeholder: 'currency:USD',
        list: 'number-formats',
        onchange: set('format', (v) => v.trim() || undefined),
      }),
      el(
        'datalist',
        { id: 'number-formats' },
        ...['currency:USD', 'currency:EUR', 'decimals:0', 'decimals:2'].map((v) =>
          el('option', { value: v }),
        ),
      ),
    ),
  ];
}
