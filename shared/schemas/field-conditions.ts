// The wire shape of a field's conditions (`visible_when`, `required_when`); what they mean is in
// shared/text/field-conditions.js, which the service and the signing page both run.
import * as z from 'zod';
import type { TConditionGroup } from '../text/field-conditions.js';
import { optional, zText } from './common';

const zConditionValue = z.union([zText(255), z.number(), z.boolean()]).transform(String);

const ZCondition = z
  .object({
    field: z
      .string('Name a field by its key.')
      .min(1, 'Name a field by its key.')
      .max(32, 'Ensure this field has no more than 32 characters.'),
    equals: zConditionValue.optional(),
    not_empty: z.literal(true, '`not_empty` takes only true.').optional(),
    one_of: z.array(zConditionValue).min(1, 'Give at least one value.').max(100).optional(),
  })
  .strict()
  .refine(
    (c) => [c.equals, c.not_empty, c.one_of].filter((v) => v !== undefined).length === 1,
    'Give exactly one of `equals`, `not_empty` or `one_of`.',
  );

const conditionList = z
  .array(ZCondition)
  .min(1, 'Give at least one condition.')
  .max(50, 'Ensure this list has at most 50 items.');

const ZConditionGroup = z
  .object({ all: conditionList.optional(), any: conditionList.optional() })
  .strict()
  .refine((g) => (g.all === undefined) !== (g.any === undefined), 'Give either `all` or `any`.')
  .transform((g) => g as TConditionGroup);

const CONDITIONS =
  'Each condition names another field by its `key` (in the same document, else the one field of that key in the bundle) and holds when that field `equals` a value, is `not_empty`, or is `one_of` a list. A check box reads "true" when ticked, "false" otherwise; a checkbox group holds each chosen option; a hidden field reads as empty. `all` needs every condition, `any` one of them.';

/** The properties conditions add to a field (fieldCommon). */
export const conditionProperties = {
  visible_when: optional(
    ZConditionGroup.describe(
      `Show the field only when these conditions hold; a hidden field is not filled, its value is dropped and never stamped. ${CONDITIONS}`,
    ),
  ),
  required_when: optional(
    ZConditionGroup.describe(
      `The field is required exactly when these conditions hold (instead of \`required\`). ${CONDITIONS}`,
    ),
  ),
};

/** A condition group as the API answers it (as it was given, values as text). */
const ZConditionAnswer = z.object({
  field: z.string(),
  equals: z.string().optional(),
  not_empty: z.literal(true).optional(),
  one_of: z.array(z.string()).optional(),
});
export const ZConditionGroupAnswer = z.object({
  all: z.array(ZConditionAnswer).optional(),
  any: z.array(ZConditionAnswer).optional(),
});
