// The bundle editor's operation: a link to the field editor over a draft bundle, to open in a
// browser or in an iframe of one of the account's embed origins (docs/architecture/bundle-editor.md).
import { ZEmbedUrlResponseSchema } from '#shared/schemas/responses/bundle';

// Typed where operations.ts lists it (importing the type here would make an import cycle).
export const editorOperations = [
  {
    route: 'POST /bundles/{id:slug}/prepare_url',
    operationId: 'createBundlePrepareUrl',
    tag: 'Bundles',
    summary:
      "A one-hour link to the editor that places a draft's fields, previews them as a signer and sends the draft (409 unless a draft)",
    response: { status: 201 as const, schema: ZEmbedUrlResponseSchema },
    conflict: true,
    examples: {
      response: {
        url: 'https://esign.example.com/prepare/bundle/4fQ2hX9tLmP0aZr7cVb1nK3sYw8eDu6gJi5oTq2RxEz',
        expires: '2026-05-04T15:30:00.000Z',
      },
    },
  },
];
