import type { TFieldRequest } from '#shared/schemas/field';
import { isIsoDate, type TFieldKind } from '#shared/schemas/vocabulary';
import { parseFormula, parseNumberFormat } from '../../text/formula.js';
import { V_PATTERN_CHECKS } from '../../text/value-rules.js';
import type { TFieldError } from '../errors';
import type { TField } from './bundle';
import { testRegex } from './safe-regex';

const TEXT_KINDS: readonly TFieldKind[] = ['inp', 'txt'];
/** Filled by the service (signer name, signing date) or by drawing: no initial value. */
export const NO_INITIAL_VALUE: readonly TFieldKind[] = ['sig', 'ini', 'snm', 'sdt', 'att', 'apr'];
const EPSILON = 1e-9;

export interface TFieldContext {
  pageCount: number;
  packetKeys: ReadonlySet<string>;
  /** `documents[0].fields[3]` */
  path: string;
}

/** The rules a field must meet beyond its shape; every broken rule is reported with its path. */
export function checkField(f: Omit<TFieldRequest, 'x' | 'y'> & { x: number; y: number }, ctx: TFieldContext) {
  const errors: TFieldError[] = [];
  const at = (field: string, message: string) => errors.push({ field: `${ctx.path}.${field}`, message });

  if (f.kind !== 'att') {
    if (f.page === undefined) at('page', 'This field is required.');
    else if (f.page > ctx.pageCount) at('page', `The document has ${ctx.pageCount} page(s).`);
    if (f.x + f.w > 100 + EPSILON)
      at('w', 'The field extends past the right edge of the page (x + w > 100).');
    if (f.y + f.h > 100 + EPSILON) at('h', 'The field extends past the bottom of the page (y + h > 100).');
  }
  (f.editors ?? []).forEach((e, i) => {
    const key = e.startsWith('-') ? e.slice(1) : e;
    if (!ctx.packetKeys.has(key)) at(`editors[${i}]`, `No signer has the key "${key}".`);
  });
  if (f.v_attachment_types && f.kind !== 'att')
    at('v_attachment_types', 'Only attachment fields take file types.');
  if (f.v_pattern && !TEXT_KINDS.includes(f.kind))
    at('v_pattern', 'Only input and text fields take a pattern.');
  if (f.v_regex !== undefined) {
    if (!TEXT_KINDS.includes(f.kind)) at('v_regex', 'Only input and text fields take a regular expression.');
    else {
      try {
        new RegExp(f.v_regex, 'u');
      } catch {
        at('v_regex', 'Not a valid regular expression.');
      }
    }
  }
  if (f.v_min !== undefined || f.v_max !== undefined) {
    if (!TEXT_KINDS.includes(f.kind) && f.kind !== 'att')
      at('v_min', 'Only input, text and attachment fields take bounds.');
    if (f.v_min !== undefined && f.v_min < 0) at('v_min', 'Must be 0 or more.');
    if (f.v_min !== undefined && f.v_max !== undefined && f.v_min > f.v_max)
      at('v_max', 'Must not be less than v_min.');
  }
  if (f.formula !== undefined) checkFormula(f, at);
  else if (f.initial_value !== undefined && f.initial_value !== '') checkInitialValue(f, f.initial_value, at);
  // Whether it has a value is checked once the bundle's data is applied (prefill.ts).
  if (f.read_only && NO_INITIAL_VALUE.includes(f.kind))
    at('read_only', `A "${f.kind}" field is filled by its signer and cannot be read-only.`);
  return errors;
}

/** A calculated field on its own: an input field with a formula that parses and a number format. */
function checkFormula(f: TFieldRequest, at: (field: string, message: string) => void) {
  if (f.kind !== 'inp') at('kind', 'Only input fields ("inp") take a formula.');
  const parsed = parseFormula(f.formula ?? '');
  if (!parsed.ok) at('formula', parsed.problem.message);
  if (f.initial_value !== undefined)
    at('initial_value', 'A calculated field takes no initial value: its formula gives it.');
  if ([f.v_pattern, f.v_regex, f.v_min, f.v_max].some((v) => v !== undefined))
    at(
      'formula',
      'A calculated field takes no v_pattern, v_regex, v_min or v_max: its formula gives its value.',
    );
  if (!parseNumberFormat(f.format ?? ''))
    at(
      'format',
      'A calculated field\'s format is "decimals:N" (N from 0 to 6) or "currency:XXX" (XXX an ISO 4217 code, such as USD).',
    );
}

/** The rules an initial value must meet for its field (also a template's field_values). */
export function checkInitialValue(
  f: Pick<TFieldRequest, 'kind' | 'v_pattern' | 'v_regex' | 'v_min' | 'v_max' | 'formula'>,
  v: string,
  at: (field: string, message: string) => void,
) {
  if (f.formula !== undefined)
    return at('initial_value', 'A calculated field takes no initial value: its formula gives it.');
  if (NO_INITIAL_VALUE.includes(f.kind))
    return at('initial_value', `A "${f.kind}" field takes no initial value.`);
  if (f.kind === 'chk' && !['true', 'false'].includes(v.toLowerCase())) {
    return at('initial_value', 'A checkbox takes "true" or "false".');
  }
  if (f.kind === 'dat' && !isIsoDate(v)) return at('initial_value', 'A date is written YYYY-MM-DD.');
  if (!TEXT_KINDS.includes(f.kind)) return;
  if (f.v_pattern && !V_PATTERN_CHECKS[f.v_pattern](v))
    at('initial_value', `Does not match the pattern "${f.v_pattern}".`);
  if (f.v_regex !== undefined) {
    try {
      const matches = testRegex(f.v_regex, v);
      if (matches === undefined) at('v_regex', 'The pattern takes too long to evaluate; simplify it.');
      else if (!matches) at('initial_value', 'Does not match v_regex.');
    } catch {
      // an invalid pattern is reported on v_regex
    }
  }
  if (f.v_min !== undefined && v.length < f.v_min) at('initial_value', `At least ${f.v_min} characters.`);
  if (f.v_max !== undefined && v.length > f.v_max) at('initial_value', `At most ${f.v_max} characters.`);
}

/** The stored form of a checked field. */
export function toField(f: TFieldRequest & { search?: string }, key: string): TField {
  return {
    key,
    kind: f.kind,
    label: f.label ?? '',
    required: f.required ?? false,
    ...(f.kind === 'att' ? {} : { page: f.page }),
    x: f.x,
    y: f.y,
    w: f.w,
    h: f.h,
    ...(f.v_pattern ? { vPattern: f.v_pattern } : {}),
    ...(f.v_min !== undefined ? { vMin: f.v_min } : {}),
    ...(f.v_max !== undefined ? { vMax: f.v_max } : {}),
    ...(f.v_attachment_types ? { vAttachmentTypes: f.v_attachment_types } : {}),
    ...(f.v_regex !== undefined ? { vRegex: f.v_regex } : {}),
    ...(f.v_regex_msg !== undefined ? { vRegexMsg: f.v_regex_msg } : {}),
    format: f.format ?? '',
    ...(f.initial_value !== undefined ? { initialValue: f.initial_value } : {}),
    ...(f.read_only ? { readOnly: true as const } : {}),
    editors: f.editors ?? [],
    ...(f.search ? { search: f.search } : {}),
    ...(f.tag ? { tag: f.tag } : {}),
    ...(f.formula !== undefined ? { formula: f.formula } : {}),
    ...(f.visible_when ? { visibleWhen: f.visible_when } : {}),
    ...(f.required_when ? { requiredWhen: f.required_when } : {}),
  };
}
