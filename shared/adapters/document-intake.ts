import type { TConfig } from '#shared/config';
import type { TPdfTools, TUrlFetcher } from '#shared/domain/ports/files';
import { BUNDLE_LIMITS } from '#shared/schemas/bundle-request';
import { createUrlFetcher } from './fetch/url-fetcher';
import { createPdfTools } from './pdf/pdf-tools';

/**
 * How every function that takes documents in reads them: PDF tools at the bundle page limit, and
 * the URL fetcher for `file_url`, public addresses only over https unless the config says
 * otherwise (the local runtime allows loopback). One place for that default.
 */
export function createDocumentIntake(config: TConfig): { pdf: TPdfTools; fetcher: TUrlFetcher } {
  return {
    pdf: createPdfTools({ maxPages: BUNDLE_LIMITS.pagesPerDocument }),
    fetcher: createUrlFetcher(config.fetch ?? { allowHttp: false, allowLoopback: false }),
  };
}
