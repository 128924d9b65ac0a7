// @ts-check
// Calculated fields on the signing page: each shows its formula's result as the signer types,
// computed by the same module the service computes and stamps it with (text/formula.js). The
// service has the last word: it computes the value again when the signer finishes, and the page
// never sends one.
import { el } from './dom.js';
import { t } from './i18n.js';
import { form, page } from './state.js';
import { calculatedValues, formatNumber } from './text/formula.js';

/** @param {any} f a field of the state */
export const isCalculated = (f) => typeof f.formula === 'string';

/** A calculated field's value as the document will show it: in its format, the bundle language. */
export function calculatedText(m) {
  return formatNumber(m.value, m.f.format ?? '', page.state?.bundle?.language ?? 'en');
}

/** What a calculated field's box holds: the result (or the label while there is none). */
export function calculatedContent(m) {
  const f = m.f;
  const text = calculatedText(m);
  return el(
    'span',
    { class: text ? 'value calculated' : 'placeholder calculated', dir: 'auto' },
    el('span', { class: 'sr-only' }, t('formulas.calculatedField', { field: f.label || f.key })),
    text || f.label || '',
  );
}

/**
 * Computes every calculated field again from the values on the page (another signer's value in
 * progress is not shown, so it counts as 0 here as it does for the service) and redraws those
 * that changed. Called whenever the signer changes a value.
 */
export function recalculate() {
  const byDoc = new Map();
  for (const m of form.models) byDoc.set(m.f.doc_key, [...(byDoc.get(m.f.doc_key) ?? []), m]);
  for (const models of byDoc.values()) {
    if (!models.some((m) => isCalculated(m.f))) continue;
    const byKey = new Map(models.map((m) => [m.f.key, m]));
    // A field its conditions hide holds nothing, so counts as 0, as for the service.
    const results = calculatedValues(
      models.map((m) => m.f),
      (key) => (byKey.get(key)?.hidden ? '' : byKey.get(key)?.value),
    );
    for (const [key, value] of results) {
      const m = byKey.get(key);
      if (!m || m.value === value) continue;
      m.value = value;
      m.box?.querySelector('.calculated')?.replaceWith(calculatedContent(m));
    }
  }
}
