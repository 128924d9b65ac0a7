import * as z from 'zod';
import { zInt, zKey } from './field';

/**
 * The bundle editor's Save (PUT /prepare/api/bundle/fields): every document's fields as the page
 * has them, on the bundle version the page read. Each field is then checked one by one against
 * ZFieldRequestSchema, as creating a bundle checks them.
 */
export const ZDraftFieldsSchema = z.object({
  version: zInt.pipe(z.number().min(1, 'Must be at least 1.')),
  documents: z
    .array(
      z.object({
        key: zKey(1, 100),
        fields: z.array(z.unknown()),
      }),
    )
    .max(100, 'Ensure this list has no more than 100 items.'),
});
