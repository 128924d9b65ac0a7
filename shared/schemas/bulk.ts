// The wire format of bulk send: one create body and a list of rows, each row one bundle.
import * as z from 'zod';

export const BULK_LIMITS = {
  rows: 1000,
  /** A JSON or multipart request with 1,000 rows of signers and values stays well within this. */
  requestBytes: 5 * 1024 * 1024,
  /**
   * Columns of a CSV: every signer attribute and field value of a bundle (20 packets, 300 fields a
   * document) fits many times over; a header of hundreds of thousands only costs time.
   */
  csvColumns: 1000,
} as const;

const cell = z.union([z.string(), z.number(), z.boolean()]).transform(String);

/**
 * One row: its signers by packet key (or envelope-template role), its field values by field key
 * (or, in a bundle of uploaded documents, by label), and `data` as a create's `data` takes it (by
 * key or label, over the bundle's own `data`).
 */
export const ZBulkRowSchema = z.object({
  signers: z.record(z.string().min(1), z.record(z.string(), z.unknown())).optional(),
  fields: z
    .record(z.string().min(1), cell)
    .optional()
    .describe(
      "Field values by field key; in a bundle of uploaded documents, a name no field has as its key may be a field's label.",
    ),
  data: z
    .record(z.string().min(1), cell)
    .optional()
    .describe(
      "This service's own: values by field key or label, as a create's `data` takes them; they go over the bundle's `data`, name by name.",
    ),
});

export const ZBulkRequestSchema = z.object({
  /** A create body as POST /bundles/ or POST /bundles/create_from_envelope_template/ takes it. */
  bundle: z.record(z.string(), z.unknown(), 'A bulk send needs the bundle to create for each row.'),
  rows: z
    .array(ZBulkRowSchema)
    .min(1, 'A bulk send needs at least one row.')
    .max(BULK_LIMITS.rows, `A bulk send has at most ${BULK_LIMITS.rows} rows.`),
});

export type TBulkRow = z.output<typeof ZBulkRowSchema>;
export type TBulkRequest = z.output<typeof ZBulkRequestSchema>;
