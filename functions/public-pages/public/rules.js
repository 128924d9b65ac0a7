// @ts-check
// The field rules, checked in the page as the service checks them (shared/domain/signing/
// check-value.ts): the signer hears about a mistake at once, and the service has the last word.
// The messages come from the page's catalog through `t` (i18n.js), passed in so that the rules
// stay plain functions that run anywhere (the unit tests run them under Node).

import { ATTACHMENT_TYPES, MAX_ATTACHMENT_BYTES, V_PATTERN_CHECKS } from './text/value-rules.js';
import { hasVisibleContent } from './text/visible-text.js';

/** Input hints for the phone's keyboard and the browser's autofill, by v_pattern. */
export function inputHints(field) {
  switch (field.v_pattern) {
    case 'email':
      return { type: 'email', inputmode: 'email', autocomplete: 'email' };
    case 'phone':
      return { type: 'tel', inputmode: 'tel', autocomplete: 'tel' };
    case 'numbers':
      return { type: 'text', inputmode: 'decimal' };
    case 'bank_routing':
    case 'bank_account':
    case 'ssn':
    case 'zip_code':
      return { type: 'text', inputmode: 'numeric' };
    default:
      return { type: 'text' };
  }
}

export function isIsoDate(v) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(v);
}

/**
 * What is wrong with a value (not its absence: see isFilled), or undefined.
 * @param {(key: string, values?: Record<string, unknown>) => string} t the catalog's messages
 */
export function valueProblem(field, value, t) {
  if (value === '') return undefined;
  switch (field.kind) {
    case 'dat':
      // The page holds what was typed while it reads as no date; the message says how to write one.
      return isIsoDate(value) ? undefined : t('sign.rules.dateAs', { pattern: t('sign.fields.datePattern') });
    case 'sel':
      return field.options.length === 0 || field.options.includes(value)
        ? undefined
        : t('sign.rules.oneOption');
    case 'cbg':
      return value.split('|').every((o) => field.options.includes(o))
        ? undefined
        : t('sign.rules.amongOptions');
    case 'inp':
    case 'txt':
      break;
    default:
      return undefined;
  }
  if (value.length > 10_000) return t('sign.rules.tooLong');
  if (field.kind === 'inp' && /[\r\n]/.test(value)) return t('sign.rules.singleLine');
  const pattern = field.v_pattern ? V_PATTERN_CHECKS[field.v_pattern] : undefined;
  if (pattern && !pattern(value)) return t(`sign.rules.${field.v_pattern}`);
  if (field.v_min != null && value.length < field.v_min)
    return t('sign.rules.minChars', { count: field.v_min });
  if (field.v_max != null && value.length > field.v_max)
    return t('sign.rules.maxChars', { count: field.v_max });
  if (field.v_regex) {
    let ok = true;
    try {
      ok = new RegExp(field.v_regex, 'u').test(value);
    } catch {
      ok = true; // the service checks it
    }
    if (!ok) return field.v_regex_msg || t('sign.rules.form');
  }
  return undefined;
}

/**
 * Whether a value fills a required field, as the service decides when the signer finishes: a
 * checkbox or approval only when ticked, a typed mark only with visible text after `typed:`,
 * anything else only with visible content ("   " fills nothing).
 */
export function isFilled(field, value) {
  if (field.kind === 'chk' || field.kind === 'apr') return value === 'true';
  if ((field.kind === 'sig' || field.kind === 'ini') && value.startsWith('typed:'))
    return hasVisibleContent(value.slice(6));
  return hasVisibleContent(value);
}

export const attachmentTypes = (field) =>
  field.v_attachment_types?.length ? field.v_attachment_types : ATTACHMENT_TYPES;

/** The file input's `accept`, from the allowed extensions. */
export const acceptOf = (field) =>
  attachmentTypes(field)
    .map((t) => `.${t}`)
    .join(',');

/**
 * What is wrong with a file for an attachment field (type by extension, size in KB), or undefined.
 * @param {(key: string, values?: Record<string, unknown>) => string} t the catalog's messages
 */
export function attachmentProblem(field, file, t) {
  const ext = /\.([A-Za-z0-9]{1,5})$/.exec(file.name)?.[1]?.toLowerCase() ?? '';
  const types = attachmentTypes(field);
  if (!types.includes(ext)) return t('sign.rules.fileType', { types: types.map((x) => `.${x}`).join(', ') });
  if (file.size === 0) return t('sign.rules.fileEmpty');
  if (file.size > MAX_ATTACHMENT_BYTES) return t('sign.rules.fileSize');
  const kb = file.size / 1024;
  if (field.v_min != null && kb < field.v_min) return t('sign.rules.fileMin', { kb: field.v_min });
  if (field.v_max != null && kb > field.v_max) return t('sign.rules.fileMax', { kb: field.v_max });
  return undefined;
}

/**
 * Limits to tell the signer before they choose a file.
 * @param {(key: string, values?: Record<string, unknown>) => string} t the catalog's messages
 */
export function attachmentHint(field, t) {
  const parts = [`${attachmentTypes(field).join(', ').toUpperCase()}`];
  if (field.v_min != null && field.v_max != null)
    parts.push(t('sign.rules.hintRange', { min: field.v_min, max: field.v_max }));
  else if (field.v_max != null) parts.push(t('sign.rules.hintMax', { kb: field.v_max }));
  else parts.push(t('sign.rules.hintDefault'));
  if (field.v_min != null && field.v_max == null) parts.push(t('sign.rules.hintMin', { kb: field.v_min }));
  return parts.join(' · ');
}
