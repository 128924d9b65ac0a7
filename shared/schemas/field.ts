import * as z from 'zod';
import { optional, zBoolean, zList, zText } from './common';
import { conditionProperties } from './field-conditions';
import { ATTACHMENT_TYPES, FIELD_KINDS, V_PATTERNS } from './vocabulary';

export const KEY_PATTERN = /^[-\w]+$/;
export const zKey = (min: number, max: number) =>
  z
    .string()
    .min(min, `Ensure this field has at least ${min} characters.`)
    .max(max, `Ensure this field has no more than ${max} characters.`)
    .regex(KEY_PATTERN, 'Use letters, digits, "-" and "_" only.');

/**
 * Numbers may come as strings from form bodies; DRF accepts "12.5" for a number too. They are
 * kept within what a DynamoDB number holds (38 digits, magnitudes 1e-130 to 1e125): at most
 * 1e15, rounded to a millionth, which is finer than any geometry or bound needs.
 */
const zNumber = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
  z
    .number()
    .finite()
    .min(-1e15, 'Must be between -1e15 and 1e15.')
    .max(1e15, 'Must be between -1e15 and 1e15.')
    .transform((v) => Math.round(v * 1e6) / 1e6 || 0),
);
const zInt = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
  z.number().int().min(-1e15, 'Must be between -1e15 and 1e15.').max(1e15, 'Must be between -1e15 and 1e15.'),
);
const percent = zNumber.pipe(
  z.number().min(0, 'Must be between 0 and 100.').max(100, 'Must be between 0 and 100.'),
);

/**
 * Where a field sits, as the descriptions of the API say it: in percent of the page, measured
 * from its top-left corner (y grows downwards), whatever the page's size. Text tags give their
 * sizes in points instead (TEXT_TAGS_DESCRIPTION).
 */
export const FIELD_BOX_DESCRIPTIONS = {
  x: "The field's left edge: its distance from the page's left edge, in percent of the page's width (0 to 100).",
  y: "The field's top edge: its distance from the page's top edge, in percent of the page's height (0 to 100; 0 is the top).",
  w: "The field's width, in percent of the page's width.",
  h: "The field's height, in percent of the page's height.",
} as const;

/** The document's `text_tags` flag, and the unit its tags' sizes are in. */
export const TEXT_TAGS_DESCRIPTION =
  "Place fields where the PDF's text has `{{kind|signer=…}}` tags, and hide the tags. Each tag becomes a field over its own text, or, with `w=` and `h=`, a field that many points (1/72 inch) wide and high from the tag's top-left corner: points, not the percent of the page that `fields` take.";

/** The document's `form_fields` flag and its `form_field_editors` map (place-form-fields.ts). */
export const FORM_FIELDS_DESCRIPTION =
  "This service's own: turn the PDF's own form fields (AcroForm) into fields, at their places: a text field becomes `inp` (`txt` when multi-line), a check box `chk`, a radio group or a choice list `sel` (its choices in `format`), a signature field `sig`. Each keeps the form's name as its `label` (the form's tooltip name when it has one), its required flag, its maximum length (`v_max`) and its current value (`initial_value`); its `key` is made from the name. The form's fields leave the stored document, so the signer sees the service's fields in their place and the final document carries the values drawn as for any field. Push buttons, read-only fields and signed signature fields stay in the form as they are. Which signer fills each field: its name in `form_field_editors`; else a name that starts with a signer's key and `.` or `_` (`employee.name`, `employer_ein` with signers `employee` and `employer`); else `\"*\"` in `form_field_editors`; else, with one signer, that signer. A field that none of these gives to a signer is a 400 that names it.";

export const FORM_FIELD_EDITORS_DESCRIPTION =
  'This service\'s own, with `form_fields`: the signer (packet key; a template\'s role key) who fills each form field, by the field\'s full name as the form knows it (`"topmostSubform[0].Page1[0].f1_01[0]": "employee"`). `"*"` names the signer of every field not otherwise given to one; `null` leaves that field in the form as it is (flattened into the final document with its current value). A name that is no form field of the document is a 400.';

/** `name` or `namespace:name` (more `:` parts allowed): letters, digits, `_`, `-`, `.`. */
export const DATA_FLOW_TAG = /^[A-Za-z0-9][\w.-]*(:[\w.-]+)*$/;
const zDataFlowTag = z
  .string()
  .max(100, 'Ensure this field has no more than 100 characters.')
  .regex(DATA_FLOW_TAG, 'A tag is a name or namespace:name of letters, digits, "_", "-" and ".".');

/** A calculated field's `formula` (shared/text/formula.js), as the API describes it. */
export const FORMULA_DESCRIPTION =
  'This service\'s own: makes an `inp` field calculated. The signer does not fill it; the page shows its value as they type, and the service computes it again when they finish and stamps its own result. Over the same document\'s number fields (`inp`/`txt` with `v_pattern` `numbers`, or calculated) named by key (`{unit-price}` in braces for a key with `-`): numbers, `+ - * /` (or `× ÷`), parentheses, `sum(...)`, `min(...)`, `max(...)`, `round(x)` and `round(x, digits)`. An empty field counts as 0; dividing by zero leaves the field empty. Its `format`: `decimals:N` (0 to 6) or `currency:XXX` (ISO 4217), written in the bundle language; none writes the number as it is. Example: `"round(qty * price * 1.2, 2)"`.';

/** What a field and an auto placement share. */
const fieldCommon = {
  kind: z.enum(FIELD_KINDS),
  key: optional(zKey(2, 32)),
  label: optional(zText(255)),
  required: optional(zBoolean),
  v_pattern: optional(z.enum(V_PATTERNS)),
  v_min: optional(zNumber),
  v_max: optional(zNumber),
  v_attachment_types: optional(zList(z.enum(ATTACHMENT_TYPES))),
  v_regex: optional(zText(500)),
  v_regex_msg: optional(zText(255)),
  format: optional(
    zText(100).describe(
      'For `sel` and `cbg`: the choices, separated by `|`. For `dat` and `sdt`: how the date is written on the document, with the tokens `YYYY` `YY` (year), `MMMM` `MMM` (month name, in the bundle language), `MM` `M` (month number), `DD` `D` (day); other characters as they are, `[text]` as text. Without a token (or none given), the full date in the bundle language.',
    ),
  ),
  initial_value: optional(z.union([zText(10_000), z.number(), z.boolean()]).transform(String)),
  read_only: optional(
    zBoolean.describe(
      "This service's own: the signer sees the field's value (its `initial_value`, or the bundle's `data`) as text and cannot change it; it counts as filled and is stamped on the final document. A read-only field needs a value when the bundle is created, and takes no `sig`, `ini`, `snm`, `sdt`, `att` or `apr` kind.",
    ),
  ),
  editors: optional(zList(zKey(2, 21))),
  /** A data flow tag (`acme:customer.email`): names the data the field carries. */
  tag: optional(zDataFlowTag),
  formula: optional(zText(500).describe(FORMULA_DESCRIPTION)),
  ...conditionProperties,
};

export const ZFieldRequestSchema = z.object({
  ...fieldCommon,
  page: optional(zInt.pipe(z.number().min(1, 'Pages are numbered from 1.'))),
  x: percent.describe(FIELD_BOX_DESCRIPTIONS.x),
  y: percent.describe(FIELD_BOX_DESCRIPTIONS.y),
  w: percent.pipe(z.number().positive('Must be greater than 0.')).describe(FIELD_BOX_DESCRIPTIONS.w),
  h: percent.pipe(z.number().positive('Must be greater than 0.')).describe(FIELD_BOX_DESCRIPTIONS.h),
});

export const ZAutoPlacementRequestSchema = z.object({
  ...fieldCommon,
  search: zText(200).min(1, 'This field may not be blank.'),
  w: percent.pipe(z.number().positive('Must be greater than 0.')).describe(FIELD_BOX_DESCRIPTIONS.w),
  h: percent.pipe(z.number().positive('Must be greater than 0.')).describe(FIELD_BOX_DESCRIPTIONS.h),
  offset_x: optional(
    zNumber
      .pipe(z.number().min(-100).max(100))
      .describe(
        "Moves the field right (or left, below 0) from the found text, in percent of the page's width.",
      ),
  ),
  offset_y: optional(
    zNumber
      .pipe(z.number().min(-100).max(100))
      .describe(
        "Moves the field down (or up, below 0) from the found text, in percent of the page's height.",
      ),
  ),
});

export type TFieldRequest = z.output<typeof ZFieldRequestSchema>;
export type TAutoPlacementRequest = z.output<typeof ZAutoPlacementRequestSchema>;
export { zInt, zNumber };
