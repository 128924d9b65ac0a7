// The fields of a PDF's form (ISO 32000-1, 12.7.3.1), walked on a file someone else wrote: each
// node visited once (one listed twice, as sloppy writers do, is read once; one under itself, as a
// cyclic /Kids makes it, is a damaged file, refused), at most maxFormNodes nodes, no deeper than
// MAX_DEPTH, and a /Fields or /Kids array longer than the cap refused before any of it is read.
import {
  PDFArray,
  type PDFContext,
  PDFDict,
  PDFHexString,
  PDFName,
  PDFNumber,
  type PDFObject,
  PDFString,
} from 'pdf-lib';
import { corrupt } from './pdf-rejected-error';
import { tooManyFormNodes, UNTRUSTED_PDF_LIMITS } from './untrusted-limits';

const MAX_DEPTH = 32;

/** A field that holds a value (no field under it), with what it inherits resolved. */
export interface TTerminalField {
  dict: PDFDict;
  /** The fully qualified name: the partial names (/T) from the root down, joined by ".". */
  name: string;
  /** /TU: the name the form shows people, when it has one. */
  title?: string;
  /** /FT: Tx, Btn, Ch or Sig. */
  type?: string;
  /** /Ff */
  flags: number;
  value?: PDFObject;
  maxLength?: number;
  options?: PDFArray;
  /** Its widget annotations: its kids, or the field itself when the two are merged. */
  widgets: PDFDict[];
  /** The array that lists it: its parent's /Kids or the form's /Fields. */
  listedIn: PDFArray;
}

/** A field with fields under it; it holds no value of its own. */
export interface TFieldGroup {
  dict: PDFDict;
  listedIn: PDFArray;
}

export interface TFormTree {
  form: PDFDict;
  fields: TTerminalField[];
  /** In the order met: a group comes before the groups under it. */
  groups: TFieldGroup[];
}

interface TInherited {
  name: string;
  type?: PDFObject;
  flags?: PDFObject;
  value?: PDFObject;
  maxLength?: PDFObject;
  options?: PDFObject;
}

/** The catalog's /AcroForm, when the document has one with a list of fields. */
export function formOf(context: PDFContext): PDFDict | undefined {
  const catalog = context.lookup(context.trailerInfo.Root);
  const form = catalog instanceof PDFDict ? catalog.lookup(PDFName.of('AcroForm')) : undefined;
  return form instanceof PDFDict ? form : undefined;
}

/** Every field of the form, in the order the form lists them. */
export function formTree(context: PDFContext, form: PDFDict): TFormTree {
  const tree: TFormTree = { form, fields: [], groups: [] };
  const roots = form.lookup(PDFName.of('Fields'));
  if (!(roots instanceof PDFArray)) return tree;
  const visited = new Set<PDFDict>();
  /** False for a node seen before; throws past the cap. */
  const visit = (dict: PDFDict) => {
    if (visited.has(dict)) return false;
    visited.add(dict);
    if (visited.size > UNTRUSTED_PDF_LIMITS.maxFormNodes) throw tooManyFormNodes();
    return true;
  };
  type TEntry = { dict: PDFDict; listedIn: PDFArray; inherited: TInherited; above: readonly PDFDict[] };
  const stack: TEntry[] = [];
  const pushAll = (list: PDFArray, inherited: TInherited, above: readonly PDFDict[]) => {
    if (list.size() > UNTRUSTED_PDF_LIMITS.maxFormNodes) throw tooManyFormNodes();
    if (above.length > MAX_DEPTH) throw corrupt('its form nests fields too deeply');
    for (let i = list.size() - 1; i >= 0; i--) {
      const dict = context.lookup(list.get(i));
      if (!(dict instanceof PDFDict)) continue;
      if (above.includes(dict)) throw corrupt('its form lists a field under itself');
      stack.push({ dict, listedIn: list, inherited, above });
    }
  };
  pushAll(roots, { name: '' }, []);
  while (stack.length > 0) {
    const { dict, listedIn, inherited, above } = stack.pop()!;
    if (!visit(dict)) continue;
    const partial = textOf(dict.lookup(PDFName.of('T')));
    const here: TInherited = {
      name:
        partial === undefined ? inherited.name : inherited.name ? `${inherited.name}.${partial}` : partial,
      type: dict.lookup(PDFName.of('FT')) ?? inherited.type,
      flags: dict.lookup(PDFName.of('Ff')) ?? inherited.flags,
      value: dict.lookup(PDFName.of('V')) ?? inherited.value,
      maxLength: dict.lookup(PDFName.of('MaxLen')) ?? inherited.maxLength,
      options: dict.lookup(PDFName.of('Opt')) ?? inherited.options,
    };
    const kids = dict.lookup(PDFName.of('Kids'));
    const kidDicts: PDFDict[] = [];
    if (kids instanceof PDFArray) {
      if (kids.size() > UNTRUSTED_PDF_LIMITS.maxFormNodes) throw tooManyFormNodes();
      for (let i = 0; i < kids.size(); i++) {
        const kid = context.lookup(kids.get(i));
        if (kid instanceof PDFDict) kidDicts.push(kid);
      }
    }
    // Kids with names are fields; kids without are this field's widgets.
    if (kids instanceof PDFArray && kidDicts.some((k) => k.has(PDFName.of('T')))) {
      tree.groups.push({ dict, listedIn });
      pushAll(kids, here, [...above, dict]);
      continue;
    }
    // A widget already seen (under another field, or listed twice) is not this field's again.
    const widgets = kidDicts.filter((w) => w !== dict && visit(w));
    const type = here.type instanceof PDFName ? here.type.decodeText() : undefined;
    const title = textOf(dict.lookup(PDFName.of('TU')));
    tree.fields.push({
      dict,
      name: here.name,
      ...(title?.trim() ? { title: title.trim() } : {}),
      ...(type ? { type } : {}),
      flags: numberOf(here.flags) ?? 0,
      ...(here.value !== undefined ? { value: here.value } : {}),
      ...(numberOf(here.maxLength) !== undefined ? { maxLength: numberOf(here.maxLength)! } : {}),
      ...(here.options instanceof PDFArray ? { options: here.options } : {}),
      widgets: kidDicts.length > 0 ? widgets : [dict],
      listedIn,
    });
  }
  return tree;
}

/** A text string (/T, /TU, a value), a name's text, or undefined for anything else. */
export function textOf(value: PDFObject | undefined): string | undefined {
  if (value instanceof PDFString || value instanceof PDFHexString) return value.decodeText();
  if (value instanceof PDFName) return value.decodeText();
  return undefined;
}

export function numberOf(value: PDFObject | undefined): number | undefined {
  return value instanceof PDFNumber && Number.isFinite(value.asNumber()) ? value.asNumber() : undefined;
}
