// A Person as the API answers it (spec "Person"); shared/responses/person.ts is typed by it.
import * as z from 'zod';

export const ZPersonResponseSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    metadata: z.record(z.string(), z.unknown()),
    is_user: z.boolean(),
    channels: z.array(
      z.object({ id: z.string(), kind: z.enum(['em', 'mp']), email: z.string(), phone: z.string() }),
    ),
  })
  .meta({ id: 'Person' });

export type TPersonResponse = z.output<typeof ZPersonResponseSchema>;
