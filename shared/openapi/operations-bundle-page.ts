// What the console's bundle page added to the API, for every client: the sender hands a signer's
// part to another person.
import { ZHandOverSchema } from '#shared/domain/signing/hand-over-packet';
import { ZPacketResponseSchema } from '#shared/schemas/responses/bundle';

// Typed where operations.ts spreads it into OPERATIONS: importing TOperation here would make an
// import cycle, which the dependency rules refuse even for types.
export const BUNDLE_PAGE_OPERATIONS = [
  {
    route: 'POST /packets/{id:slug}/reassign',
    operationId: 'reassignPacket',
    tag: 'Packets',
    summary:
      "Hand a signer's part to another person (this service's own): the earlier signer's links stop working and the new one is sent the request",
    body: { name: 'PacketReassign', schema: ZHandOverSchema },
    response: { status: 200 as const, schema: ZPacketResponseSchema },
    conflict: true,
  },
];
