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
    documents_deleted: z
      .object({
        deleted_at: z.string(),
        sha256: z.array(z.string()),
      })
      .optional()
      .describe(
        "Set once the retention policy has erased the batch's shared documents and the rows' data, with their last bundle's originals: when, and the SHA-256 of each shared document.",
      ),
  })
  .meta({ id: 'BulkBatch' });
