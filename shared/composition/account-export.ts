// What building and restoring an account's export take, wired once for the document worker
// (which builds the API's exports) and the operator's export-account and import-account.
import type { S3Client } from '@aws-sdk/client-s3';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { tarGzArchiver } from '#shared/adapters/archive/archiver';
import { createAccountRecords } from '#shared/adapters/dynamodb/account-records';
import { accountOfRequest, createAccountStore } from '#shared/adapters/dynamodb/account-store';
import { createBundleStore } from '#shared/adapters/dynamodb/bundle-store';
import { createEvidenceStore } from '#shared/adapters/dynamodb/evidence-store';
import { createExportStore } from '#shared/adapters/dynamodb/export-store';
import { createBlobLister } from '#shared/adapters/s3/blob-lister';
import { createBlobStreams } from '#shared/adapters/s3/blob-streams';
import { systemClock } from '#shared/adapters/system';
import type { TBuildExportDeps } from '#shared/domain/exports/build-export';
import type { TImportDeps } from '#shared/domain/exports/import-account';

export interface TExportWiring {
  db: DynamoDBDocumentClient;
  tableName: string;
  s3: S3Client;
  bucketName: string;
  documentsKeyId?: string;
  /** The upload's part size: what an export or import holds of the files (blob-streams.ts). */
  partBytes?: number;
}

/** `bucketName` names the documents bucket in the operator's messages. */
export function exportDeps(w: TExportWiring): TBuildExportDeps & TImportDeps & { bucketName: string } {
  const accounts = createAccountStore(w.db, w.tableName);
  // Archives and restored files are keyed as the account's documents: its own key when it has one.
  const streams = createBlobStreams(
    w.s3,
    w.bucketName,
    {
      ...(w.documentsKeyId ? { defaultKeyId: w.documentsKeyId } : {}),
      accountKeyOf: async (accountId, options) =>
        (await accountOfRequest(accounts, accountId, options))?.documentsKey,
    },
    w.partBytes ? { partBytes: w.partBytes } : {},
  );
  return {
    exports: createExportStore(w.db, w.tableName),
    records: createAccountRecords(w.db, w.tableName),
    streams,
    lister: createBlobLister(w.s3, w.bucketName),
    // Reads only: no bundle is changed, so the plain store (nothing to publish) is enough.
    bundles: createBundleStore(w.db, w.tableName),
    evidence: createEvidenceStore(w.db, w.tableName),
    archiver: tarGzArchiver,
    clock: systemClock,
    bucketName: w.bucketName,
  };
}
