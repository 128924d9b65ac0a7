// An account's export: started by an admin, built by a worker, fetched by a short-lived link.
import { ZExportResponseSchema } from '#shared/schemas/responses/exports';

const queued = {
  id: '6f1d2c3b-8a4e-4f5a-9b0c-1d2e3f4a5b6c',
  status: 'queued',
  created: '2026-11-27T10:00:00.000Z',
  finished: null,
  progress: { done: 0, total: 0 },
  archive: null,
  error: null,
};

/** Typed where operations.ts lists them (TOperation): a type import back would be a cycle. */
export const EXPORT_OPERATIONS = [
  {
    route: 'POST /account/exports',
    operationId: 'startAccountExport',
    tag: 'Account',
    summary:
      "Start an export of the account's bundles, files, events, persons, templates and webhooks (account admins; one at a time)",
    response: { status: 202, schema: ZExportResponseSchema },
    conflict: true,
    examples: { response: queued },
  },
  {
    route: 'GET /account/exports/{id:uuid}',
    operationId: 'retrieveAccountExport',
    tag: 'Account',
    summary: "An export's progress and, once done, a download link valid for 15 minutes (account admins)",
    response: { status: 200, schema: ZExportResponseSchema },
  },
] as const;
