import { isIsoDate, type TVPattern } from '#shared/schemas/vocabulary';
import { V_PATTERN_CHECKS } from '../../text/value-rules.js';
import type { TField } from '../bundles/bundle';
import { testRegex } from '../bundles/safe-regex';
import type { TMessageRef } from '../errors';
import { hasVisibleContent, optionsOf } from './field-access';

const TEXT_KINDS = new Set(['inp', 'txt']);
const MAX_TEXT = 10_000;

/** What is wrong with a value: the API's words, and the page's message for the signer's language. */
export interface TValueProblem {
  message: string;
  /** Absent for the sender's own words (a regex message), which are shown as written. */
  said?: TMessageRef;
}

/**
 * What a value of each v_pattern should be, in the API's English: the en catalog's
 * `sign.rules.<pattern>`, which an English signing page shows as it is
 * (test/unit/check-value-messages.test.ts keeps them equal).
 */
export const PATTERN_MESSAGES: Record<TVPattern, string> = {
  email: 'Enter a valid email address.',
  bank_routing: 'Enter a valid bank routing number (9 digits).',
  bank_account: 'Enter a valid bank account number (4 to 17 digits).',
  letters: 'Enter a value of letters only.',
  numbers: 'Enter a valid number.',
  phone: 'Enter a valid phone number.',
  ssn: 'Enter a valid social security number (123-45-6789).',
  zip_code: 'Enter a valid ZIP code (12345 or 12345-6789).',
};

const problem = (message: string, key?: string, values?: TMessageRef['values']): TValueProblem =>
  key
    ? { message, said: values ? { key: `sign.rules.${key}`, values } : { key: `sign.rules.${key}` } }
    : { message };

/**
 * What is wrong with a value a signer gives a field, or undefined when it fits. An empty value
 * always fits here (it clears the field); required fields are checked when the signer finishes.
 * The page's catalogs say the same (sign.rules), so a signer reads it in their language.
 */
export function valueProblem(field: TField, value: string): TValueProblem | undefined {
  if (value === '') return undefined;
  if (value.length > MAX_TEXT) return problem(`At most ${MAX_TEXT} characters.`, 'tooLong');
  switch (field.kind) {
    case 'chk':
    case 'apr':
      return value === 'true' || value === 'false'
        ? undefined
        : problem('Choose "true" or "false".', 'oneOption');
    case 'dat':
      return isIsoDate(value) ? undefined : problem('Enter a date as YYYY-MM-DD.', 'date');
    case 'sel': {
      const options = optionsOf(field);
      return options.length === 0 || options.includes(value)
        ? undefined
        : problem(`Choose one of: ${options.join(', ')}.`, 'oneOption');
    }
    case 'cbg': {
      const options = optionsOf(field);
      const chosen = value.split('|');
      if (new Set(chosen).size !== chosen.length)
        return problem('An option is chosen twice.', 'amongOptions');
      const unknown = chosen.find((c) => !options.includes(c));
      return unknown === undefined
        ? undefined
        : problem(`"${unknown}" is not one of: ${options.join(', ')}.`, 'amongOptions');
    }
    case 'sig':
    case 'ini':
      if (value === 'drawn') return undefined;
      if (!value.startsWith('typed:') || !hasVisibleContent(value.slice(6))) {
        return problem('Draw your mark, or type it as "typed:<text>".', 'form');
      }
      return value.length > 206 ? problem('At most 200 characters.', 'maxChars', { count: 200 }) : undefined;
    case 'att':
      return problem('Upload the file instead.', 'form');
    case 'snm':
    case 'sdt':
      return problem('This field is filled in for you when you finish.', 'form');
    default:
      break;
  }
  if (!TEXT_KINDS.has(field.kind)) return undefined;
  if (field.kind === 'inp' && /[\r\n]/.test(value))
    return problem('A single line is expected.', 'singleLine');
  if (field.vPattern && !V_PATTERN_CHECKS[field.vPattern](value))
    return problem(PATTERN_MESSAGES[field.vPattern], field.vPattern);
  if (field.vMin !== undefined && value.length < field.vMin)
    return problem(`At least ${field.vMin} characters.`, 'minChars', { count: field.vMin });
  if (field.vMax !== undefined && value.length > field.vMax)
    return problem(`At most ${field.vMax} characters.`, 'maxChars', { count: field.vMax });
  if (field.vRegex !== undefined) {
    const ok = testRegex(field.vRegex, value);
    if (ok === false)
      return field.vRegexMsg
        ? problem(field.vRegexMsg)
        : problem('This value is not in the expected form.', 'form');
    if (ok === undefined) return problem('This value could not be checked; try a shorter one.', 'form');
  }
  return undefined;
}
