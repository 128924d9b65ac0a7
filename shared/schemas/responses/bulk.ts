// A bulk send on the wire: its progress and each row's result.
import * as z from 'zod';

const ZFieldErrorSchema = z.object({ field: z.string(), message: z.string() });

export const ZBulkRowResultSchema = z
  .object({
    row: z.number().int(),
    status: z.enum(['pending', 'created', 'failed']),
    bundle_id: z.string().optional(),
    errors: z.array(ZFieldErrorSchema).optional(),
  })
  .meta({ id: 'BulkRowResult' });

export const ZBulkBatchResponseSchema = z
  .object({
    id: z.string(),
    status: z.enum(['queued', 'running', 'completed']),
    created: z.string(),
    completed: z.string().optional(),
    counts: z.object({
      total: z.number().int(),
      pending: z.number().int(),
      created: z.number().int(),
      failed: z.number().int(),
    }),
    rows: z.array(ZBulkRowResultSchema),
  })
  .meta({ id: 'BulkBatch' });
