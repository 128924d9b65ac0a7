// An account's export as the API answers it (shared/domain/exports/).
import * as z from 'zod';

export const ZExportResponseSchema = z
  .object({
    id: z.string(),
    status: z.enum(['queued', 'running', 'done', 'failed']),
    created: z.string(),
    finished: z.string().nullable(),
    /** Stored files written into the archive so far, of `total`. */
    progress: z.object({ done: z.number(), total: z.number() }),
    archive: z
      .object({
        size: z.number(),
        sha256: z.string(),
        files: z.number(),
        records: z.number(),
        /** A presigned GET link, valid until `url_expires` (15 minutes). */
        url: z.string(),
        url_expires: z.string(),
      })
      .nullable(),
    error: z.string().nullable(),
  })
  .meta({ id: 'AccountExport' });

export type TExportResponse = z.output<typeof ZExportResponseSchema>;
