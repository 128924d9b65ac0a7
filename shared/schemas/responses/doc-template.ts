// A Document Template as the API answers it (spec "Document Template"); typed into its mapper.
import * as z from 'zod';
import { FIELD_BOX_DESCRIPTIONS, FORMULA_DESCRIPTION } from '../field';
import { ZConditionGroupAnswer } from '../field-conditions';
import { FIELD_KINDS, V_PATTERNS } from '../vocabulary';

const ZTemplateFieldResponseSchema = z.object({
  key: z.string(),
  kind: z.enum(FIELD_KINDS),
  label: z.string(),
  required: z.boolean(),
  page: z.number().int().nullable(),
  x: z.number().describe(FIELD_BOX_DESCRIPTIONS.x),
  y: z.number().describe(FIELD_BOX_DESCRIPTIONS.y),
  w: z.number().describe(FIELD_BOX_DESCRIPTIONS.w),
  h: z.number().describe(FIELD_BOX_DESCRIPTIONS.h),
  v_pattern: z.enum(V_PATTERNS).nullable(),
  v_min: z.number().nullable(),
  v_max: z.number().nullable(),
  v_attachment_types: z.array(z.string()),
  v_regex: z.string().nullable(),
  v_regex_msg: z.string().nullable(),
  format: z.string(),
  default_value: z.string().nullable(),
  editor_roles: z.array(z.string()),
  tag: z.string().nullable(),
  read_only: z.literal(true).optional().describe('Present, and true, on a read-only field only.'),
  formula: z.string().optional().describe(FORMULA_DESCRIPTION),
  visible_when: ZConditionGroupAnswer.optional(),
  required_when: ZConditionGroupAnswer.optional(),
});

export const ZDocTemplateResponseSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    is_shared: z.boolean(),
    file_url: z.string(),
    team: z.string().nullable(),
    owner: z.string(),
    page_count: z.number().int(),
    roles: z.array(z.object({ key: z.string(), label: z.string() })),
    fields: z.array(ZTemplateFieldResponseSchema),
    created: z.string(),
    updated: z.string(),
  })
  .meta({ id: 'DocumentTemplate' });

/** POST templates/preparation_session: the page to send the preparer to. */
export const ZPrepSessionCreatedSchema = z
  .object({ url: z.string(), expires: z.string(), template_id: z.string() })
  .meta({ id: 'PreparationSession' });

export type TDocTemplateResponse = z.output<typeof ZDocTemplateResponseSchema>;
