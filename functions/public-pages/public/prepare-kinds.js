// @ts-check
// The field kinds the preparation editor offers (every kind of the API: shared/schemas/vocabulary.ts)
// and which of a field's options each kind takes, as the service checks them
// (shared/domain/bundles/check-field.ts): the editor shows only the options a kind can have.
import { t } from './i18n.js';

/** The service's field kind codes and what the page calls them, in the page's language. */
export const KINDS = ['sig', 'ini', 'inp', 'txt', 'dat', 'chk', 'cbg', 'sel', 'snm', 'sdt', 'att', 'apr'].map(
  (k) => [k, t(`editor.kind.${k}`)],
);
export const KIND_NAME = Object.fromEntries(KINDS);

/** A click without a drag places a field of this size (percent of the page). */
export const DEFAULT_SIZE = {
  sig: [30, 5],
  ini: [8, 4],
  chk: [3, 2.5],
  txt: [40, 10],
  cbg: [20, 8],
  apr: [20, 4],
};

const TEXT = ['inp', 'txt'];
/** Filled by the service or drawn by the signer: no initial value. */
const NO_VALUE = ['sig', 'ini', 'snm', 'sdt', 'att', 'apr'];

/** Which options a field of `kind` takes. */
export const optionsOf = (kind) => ({
  initialValue: !NO_VALUE.includes(kind),
  choices: kind === 'sel' || kind === 'cbg',
  dateFormat: kind === 'dat' || kind === 'sdt',
  pattern: TEXT.includes(kind),
  bounds: TEXT.includes(kind) || kind === 'att',
});

/** The value patterns the service knows (shared/text/value-rules.js) and what the page calls them. */
export const PATTERNS = [
  '',
  'email',
  'phone',
  'numbers',
  'letters',
  'zip_code',
  'ssn',
  'bank_routing',
  'bank_account',
].map((k) => [k, t(`editor.pattern.${k || 'any'}`)]);

/** A field's options without those its (new) kind cannot take, so a kind change never saves a refusal. */
export function keepOptionsOf(f, valueProp) {
  const o = optionsOf(f.kind);
  if (!o.initialValue) {
    delete f[valueProp];
    delete f.read_only;
  }
  if (!o.choices && !o.dateFormat) delete f.format;
  if (!o.pattern) {
    delete f.v_pattern;
    delete f.v_regex;
    delete f.v_regex_msg;
  }
  if (!o.bounds) {
    delete f.v_min;
    delete f.v_max;
  }
  if (f.kind !== 'att') delete f.v_attachment_types;
  if (f.kind !== 'inp') delete f.formula;
}
