import type { TErasureReport } from '#shared/domain/persons/erase-person';
import type { TErasureReportResponse } from '#shared/schemas/responses/erasure';

export const toErasureReportResponse = (r: TErasureReport): TErasureReportResponse => ({
  address_hash: r.addressHash,
  persons_removed: r.personsRemoved,
  bundles_to_act_on: r.bundlesToActOn,
  bundles_kept: r.bundlesKept.map((b) => ({ id: b.id, status: b.status, kept_until: b.keptUntil })),
});
