// POST /account/erasures/: the address whose people the account no longer keeps
// (shared/domain/persons/erase-person.ts).
import * as z from 'zod';
import { optional } from './common';
import { PERSON_LIMITS, zPhoneNumber } from './person';

const ONE_OF = 'Give either an email or a phone number, not both.';

export const ZErasureRequestSchema = z
  .strictObject({
    email: optional(z.email('Enter a valid email address.').max(PERSON_LIMITS.email)),
    phone: optional(zPhoneNumber),
  })
  .refine((b) => !b.email !== !b.phone, { message: ONE_OF });
