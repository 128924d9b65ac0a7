import type { TBundle } from '#shared/domain/bundles/bundle';
import { bundleData, dataAvailable } from '#shared/domain/bundles/bundle-data';
import { bundleFiles, filesAvailable } from '#shared/domain/bundles/bundle-files';
import { ValidationError } from '#shared/domain/errors';
import type { TAccountStore } from '#shared/domain/ports/accounts';
import type { TBundleStore } from '#shared/domain/ports/bundles';
import type { TEvidenceStore } from '#shared/domain/ports/evidence';
import type { TBlobStore } from '#shared/domain/ports/files';
import type { TSigningRecordStore } from '#shared/domain/ports/signing';
import type { TClock } from '#shared/domain/ports/system';
import { toEventResponse } from '#shared/responses/bundle';

const EXTRAS = ['data', 'events', 'files'] as const;

/**
 * `?include=data,events,files`: each named extra as a top-level key. Events are always there;
 * data and files are null where the availability rules (spec rules 4 and 5) say unavailable.
 */
export async function includeExtras(
  deps: {
    bundles: TBundleStore;
    accounts: TAccountStore;
    records: TSigningRecordStore;
    blobs: TBlobStore;
    evidence: TEvidenceStore;
    clock: TClock;
  },
  b: TBundle,
  include: string | undefined,
) {
  if (include === undefined || include === '') return {};
  const names = include.split(',');
  const unknown = names.filter((n) => !(EXTRAS as readonly string[]).includes(n));
  if (unknown.length > 0 || new Set(names).size !== names.length) {
    throw new ValidationError('Invalid input.', [
      { field: 'include', message: 'A comma-separated list of data, events and files, each at most once.' },
    ]);
  }
  return {
    ...(names.includes('events') ? { events: await eventsOf(deps, b) } : {}),
    ...(names.includes('data')
      ? { data: (await dataAvailable(deps, b)) ? await bundleData(deps, b) : null }
      : {}),
    ...(names.includes('files')
      ? { files: (await filesAvailable(deps, b)) ? await bundleFiles(deps, b) : null }
      : {}),
  };
}

/** The bundle's events on the wire, as BlueInk's `related_data` gives them. */
async function eventsOf(deps: { bundles: TBundleStore }, b: TBundle) {
  return (await deps.bundles.events(b)).map((e) => toEventResponse(e));
}
