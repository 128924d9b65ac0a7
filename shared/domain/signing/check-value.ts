import { isIsoDate } from '../../schemas/vocabulary';
import type { TField } from '../bundles/bundle';
import { testRegex } from '../bundles/safe-regex';
import { V_PATTERN_CHECKS } from '../bundles/value-patterns';
import { hasVisibleContent, optionsOf } from './field-access';

const TEXT_KINDS = new Set(['inp', 'txt']);
const MAX_TEXT = 10_000;

/**
 * What is wrong with a value a signer gives a field, or undefined when it fits. An empty value
 * always fits here (it clears the field); required fields are checked when the signer finishes.
 */
export function valueProblem(field: TField, value: string): string | undefined {
  if (value === '') return undefined;
  if (value.length > MAX_TEXT) return `At most ${MAX_TEXT} characters.`;
  switch (field.kind) {
    case 'chk':
    case 'apr':
      return value === 'true' || value === 'false' ? undefined : 'Choose "true" or "false".';
    case 'dat':
      return isIsoDate(value) ? undefined : 'Enter a date as YYYY-MM-DD.';
    case 'sel': {
      const options = optionsOf(field);
      return options.length === 0 || options.includes(value)
        ? undefined
        : `Choose one of: ${options.join(', ')}.`;
    }
    case 'cbg': {
      const options = optionsOf(field);
      const chosen = value.split('|');
      if (new Set(chosen).size !== chosen.length) return 'An option is chosen twice.';
      const unknown = chosen.find((c) => !options.includes(c));
      return unknown === undefined ? undefined : `"${unknown}" is not one of: ${options.join(', ')}.`;
    }
    case 'sig':
    case 'ini':
      if (value === 'drawn') return undefined;
      if (!value.startsWith('typed:') || !hasVisibleContent(value.slice(6))) {
        return 'Draw your mark, or type it as "typed:<text>".';
      }
      return value.length > 206 ? 'At most 200 characters.' : undefined;
    case 'att':
      return 'Upload the file instead.';
    case 'snm':
    case 'sdt':
      return 'This field is filled in for you when you finish.';
    default:
      break;
  }
  if (!TEXT_KINDS.has(field.kind)) return undefined;
  if (field.kind === 'inp' && /[\r\n]/.test(value)) return 'A single line is expected.';
  if (field.vPattern && !V_PATTERN_CHECKS[field.vPattern](value))
    return `Enter a valid ${field.vPattern.replace('_', ' ')}.`;
  if (field.vMin !== undefined && value.length < field.vMin) return `At least ${field.vMin} characters.`;
  if (field.vMax !== undefined && value.length > field.vMax) return `At most ${field.vMax} characters.`;
  if (field.vRegex !== undefined) {
    const ok = testRegex(field.vRegex, value);
    if (ok === false) return field.vRegexMsg || 'This value is not in the expected form.';
    if (ok === undefined) return 'This value could not be checked; try a shorter one.';
  }
  return undefined;
}
