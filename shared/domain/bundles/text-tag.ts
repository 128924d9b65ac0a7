// The text tag grammar: a field written into a document's own text, as Dropbox Sign's and
// DocuSeal's tags are, in DocuSeal's braces (which no ordinary sentence contains):
//
//   tag    = "{{" kind *( "|" option ) "}}"
//   kind   = sig / ini / snm / sdt / inp / txt / dat / chk / cbg / sel / att / apr
//   option = "required" / "req" / "optional"
//          / ( "signer" / "label" / "key" / "w" / "h" / "format" / "pattern" ) "=" value
//          / "options=" value *( "," value )        ; sel and cbg only
//   value  = any characters; "\" takes the next one literally ("\|", "\}", "\,", "\\")
//
// Spaces around the kind, names and values are ignored. w and h are in points, the unit an
// author sees in a word processor; without them the field takes the box of the tag's own text.
import { KEY_PATTERN } from '#shared/schemas/field';
import { FIELD_KINDS, type TFieldKind, type TVPattern, V_PATTERNS } from '#shared/schemas/vocabulary';

export interface TTextTag {
  kind: TFieldKind;
  signer?: string;
  required: boolean;
  label?: string;
  key?: string;
  /** Points. */
  w?: number;
  h?: number;
  format?: string;
  pattern?: TVPattern;
  /** The choices of a dropdown (sel) or checkbox group (cbg). */
  options?: string[];
}

export type TTextTagParse = { tag: TTextTag } | { error: string };

const OPEN = '{{';
const CLOSE = '}}';
const VALUED = new Set(['signer', 'label', 'key', 'w', 'h', 'format', 'pattern', 'options']);
const WITH_OPTIONS: readonly TFieldKind[] = ['sel', 'cbg'];
// A Map, not an object: a name every object has ("__proto__", "constructor", "toString") is no
// flag, and `in` on an object would take it for one.
const FLAGS = new Map<string, boolean>([
  ['required', true],
  ['req', true],
  ['optional', false],
]);
// As a field's label and format are held in the API (schemas/field.ts).
const MAX_TEXT = { label: 255, format: 100 } as const;
/** Larger than any page a document may have (page-tree.ts caps sizes at 14,400 points). */
const MAX_POINTS = 14_400;

/**
 * Where the tag that opens at `from` (the index of its "{{") closes: the index just past its
 * "}}", or -1 when the text ends first. A "}" after "\" does not close it.
 */
export function tagEnd(text: string, from: number): number {
  for (let i = from + OPEN.length; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text.startsWith(CLOSE, i)) return i + CLOSE.length;
  }
  return -1;
}

/** Reads one whole tag, "{{" to "}}"; says in a sentence what is wrong with a bad one. */
export function parseTextTag(text: string): TTextTagParse {
  if (!text.startsWith(OPEN)) return { error: 'A tag starts with "{{".' };
  const end = tagEnd(text, 0);
  if (end < 0) return { error: 'The tag is not closed with "}}".' };
  if (end !== text.length) return { error: 'Only one tag is read at a time.' };
  const [head = '', ...options] = splitUnescaped(text.slice(OPEN.length, -CLOSE.length));
  const kind = unescaped(head).trim();
  if (!(FIELD_KINDS as readonly string[]).includes(kind)) {
    return {
      error: kind
        ? `"${kind}" is not a field kind (${FIELD_KINDS.join(', ')}).`
        : `The tag names no field kind (${FIELD_KINDS.join(', ')}).`,
    };
  }
  const tag: TTextTag = { kind: kind as TFieldKind, required: false };
  const seen = new Set<string>();
  for (const option of options) {
    const eq = option.indexOf('=');
    const name = (eq < 0 ? option : option.slice(0, eq)).trim();
    if (!name) return { error: 'An option between "|" is empty.' };
    if (seen.has(name)) return { error: `The option "${name}" is given twice.` };
    seen.add(name);
    if (eq < 0) {
      const flag = FLAGS.get(name);
      if (flag !== undefined) tag.required = flag;
      else if (VALUED.has(name)) return { error: `The option "${name}" needs a value (${name}=…).` };
      else return { error: `"${name}" is not an option of a tag.` };
      continue;
    }
    const raw = option.slice(eq + 1);
    const value = unescaped(raw).trim();
    if (FLAGS.has(name)) return { error: `The option "${name}" takes no value.` };
    if (!VALUED.has(name)) return { error: `"${name}" is not an option of a tag.` };
    if (!value) return { error: `The option "${name}" has an empty value.` };
    const problem = name === 'options' ? setChoices(tag, raw) : setOption(tag, name, value);
    if (problem) return { error: problem };
  }
  if (tag.options && tag.format !== undefined)
    return { error: 'A dropdown or checkbox group takes its choices from options or format, not both.' };
  return { tag };
}

function setOption(tag: TTextTag, name: string, value: string): string | undefined {
  switch (name) {
    case 'w':
    case 'h': {
      const points = /^\d+(\.\d+)?$/.test(value) ? Number(value) : Number.NaN;
      if (!(points > 0 && points <= MAX_POINTS))
        return `The option "${name}" is a size in points, a number above 0 (${name}=120).`;
      tag[name] = points;
      return;
    }
    case 'pattern':
      if (!(V_PATTERNS as readonly string[]).includes(value))
        return `"${value}" is not a pattern (${V_PATTERNS.join(', ')}).`;
      tag.pattern = value as TVPattern;
      return;
    case 'key':
      if (!(KEY_PATTERN.test(value) && value.length >= 2 && value.length <= 32))
        return 'A key is 2 to 32 letters, digits, "-" and "_".';
      tag.key = value;
      return;
    case 'label':
    case 'format':
      if (value.length > MAX_TEXT[name]) return `The ${name} has more than ${MAX_TEXT[name]} characters.`;
      tag[name] = value;
      return;
    case 'signer':
      tag.signer = value;
      return;
  }
}

/** options=Red,Green,Blue: what the field's format holds as "Red|Green|Blue" (signer-api.md). */
function setChoices(tag: TTextTag, raw: string): string | undefined {
  if (!WITH_OPTIONS.includes(tag.kind))
    return 'Only a dropdown (sel) or a checkbox group (cbg) takes options.';
  const choices = splitUnescaped(raw, ',').map((c) => unescaped(c).trim());
  if (choices.some((c) => c === '')) return 'An option between "," is empty.';
  if (choices.some((c) => c.includes('|'))) return 'An option may not hold "|".';
  if (new Set(choices).size !== choices.length) return 'An option is given twice.';
  if (choices.join('|').length > MAX_TEXT.format)
    return `The options have more than ${MAX_TEXT.format} characters together.`;
  tag.options = choices;
  return;
}

/** Splits on `separator` where no "\" escapes it, keeping the escapes for unescaped. */
function splitUnescaped(body: string, separator = '|'): string[] {
  const parts: string[] = [];
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '\\') i++;
    else if (body[i] === separator) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(body.slice(start));
  return parts;
}

const unescaped = (s: string) => s.replace(/\\(.)/gsu, '$1');
