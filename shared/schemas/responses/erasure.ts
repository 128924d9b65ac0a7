// An erasure's report, as the API answers it (the operator's `erase-person --json` holds the same).
import * as z from 'zod';

export const ZErasureReportResponseSchema = z
  .object({
    /** SHA-256 of the normalized address (`em:<email>` or `mp:<phone>`): never the address itself. */
    address_hash: z.string(),
    persons_removed: z.array(z.string()),
    /** Unfinished bundles naming them: the sender cancels them or changes the signer. */
    bundles_to_act_on: z.array(
      z.object({
        id: z.string(),
        /** null: the bundle was being created as the erasure ran. */
        status: z.string().nullable(),
      }),
    ),
    /** Ended bundles, kept as signed records until `kept_until` (null: no retention policy, kept until deleted). */
    bundles_kept: z.array(
      z.object({ id: z.string(), status: z.string(), kept_until: z.string().nullable() }),
    ),
  })
  .meta({ id: 'ErasureReport' });

export type TErasureReportResponse = z.infer<typeof ZErasureReportResponseSchema>;
