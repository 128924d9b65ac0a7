import type { TExport } from '#shared/domain/exports/export';
import type { TExportResponse } from '#shared/schemas/responses/exports';

export function toExportResponse(e: TExport, link?: { url: string; expires: string }): TExportResponse {
  return {
    id: e.id,
    status: e.status,
    created: e.created,
    finished: e.finished ?? null,
    progress: e.progress,
    archive:
      e.archive && link
        ? {
            size: e.archive.size,
            sha256: e.archive.sha256,
            files: e.archive.files,
            records: e.archive.records,
            url: link.url,
            url_expires: link.expires,
          }
        : null,
    error: e.error ?? null,
  };
}
