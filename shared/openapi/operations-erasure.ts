// Erasure of a person: the people the account sends to at an email or phone.
import { ZErasureRequestSchema } from '#shared/schemas/erasure';
import { ZErasureReportResponseSchema } from '#shared/schemas/responses/erasure';

/** Typed where operations.ts lists them (TOperation): a type import back would be a cycle. */
export const ERASURE_OPERATIONS = [
  {
    route: 'POST /account/erasures',
    operationId: 'erasePerson',
    tag: 'Account',
    summary:
      'Erase the people the account sends to at an email or phone (account admins): lists the bundles naming them, to act on or kept until their retention ends',
    body: { name: 'ErasureRequest', schema: ZErasureRequestSchema },
    response: { status: 200, schema: ZErasureReportResponseSchema },
    examples: {
      request: { email: 'ann.lee@example.com' },
      response: {
        address_hash: 'e3f1c0a4d2b6e8f0a1c3e5d7f9b1d3f5a7c9e1b3d5f7a9c1e3b5d7f9a1c3e5d7',
        persons_removed: ['3f8a2c1e-6b4d-4e7f-9a0b-1c2d3e4f5a6b'],
        bundles_to_act_on: [{ id: 'Xk7pQ2mN9r', status: 'se' }],
        bundles_kept: [{ id: 'Hq3vT8wL5z', status: 'co', kept_until: '2036-11-27T10:00:00.000Z' }],
      },
    },
  },
] as const;
