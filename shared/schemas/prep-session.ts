import * as z from 'zod';
import { optional, zList, zText } from './common';
import { DATA_FLOW_TAG, zInt } from './field';

/** An exact tag, or a namespace prefix pattern `acme:*` (also `acme:crm:*`). */
const zTagPattern = z
  .string()
  .max(100, 'Ensure this field has no more than 100 characters.')
  .refine(
    (s) => DATA_FLOW_TAG.test(s.endsWith(':*') ? s.slice(0, -2) : s),
    'Use a tag (acme:customer.email) or a namespace pattern (acme:*).',
  );

const zHttpsUrl = zText(2000).refine((s) => {
  try {
    const u = new URL(s);
    return u.protocol === 'https:' && u.hostname !== '' && u.username === '' && u.password === '';
  } catch {
    return false;
  }
}, 'Enter a valid URL starting with https://.');

/**
 * POST /templates/preparation_session/: an existing template (`template_id`), or a new one made
 * from the other keys exactly as POST /templates/ takes them (`name`, `file_url`, `file_b64`, …).
 */
export const ZPrepSessionCreateSchema = z.object({
  template_id: optional(z.uuid('Must be a valid UUID.')),
  allowed_data_flow_tags: optional(zList(zTagPattern, { max: 100 })),
  redirect_url: optional(zHttpsUrl),
});

/** PUT /prepare/api/template: the whole template as the page has it, on the version it read. */
export const ZPrepSaveSchema = z.object({
  version: zInt.pipe(z.number().min(1, 'Must be at least 1.')),
  name: optional(zText(255)),
  roles: z.array(z.unknown()),
  fields: z.array(z.record(z.string(), z.unknown())),
});
