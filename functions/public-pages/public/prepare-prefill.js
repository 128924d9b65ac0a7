// @ts-check
// Read-only fields in the preparation editor: the API's `read_only`, a value the signer sees as
// text and cannot change (docs/architecture/bundles.md, "Prefill"). Only kinds that take a value
// may be read-only; the value is the field's initial value here, or the bundle's `data` later.
import { el } from './dom.js';
import { t } from './i18n.js';
import { optionsOf } from './prepare-kinds.js';

/** The "read-only" row of the side panel for a kind that takes a value; none for the others. */
export function readOnlyRow(f, set) {
  if (!optionsOf(f.kind).initialValue) return [];
  return [
    el(
      'p',
      { class: 'prep-row prep-check' },
      el('input', {
        type: 'checkbox',
        id: 'f-read-only',
        checked: !!f.read_only,
        onchange: set('read_only', (v) => v || undefined),
      }),
      el('label', { for: 'f-read-only', text: t('prefill.editorReadOnly') }),
    ),
  ];
}
