import { bundleObjectsPrefix } from '../bundles/object-keys';
import { documentJob } from '../outbox/jobs/document-jobs';
// What the document worker produces for a bundle, and where it keeps it. The files themselves
// are objects of the documents bucket at keys derived from the bundle alone, so a job that runs
// again overwrites them rather than adding a second set; the record of them (with their SHA-256)
// is one item per bundle, and every sealed file is also findable by its hash (verification).

/** A final document: the original with every value stamped and its audit page, sealed. */
export interface TFinalFile {
  docKey: string;
  name: string;
  blobKey: string;
  sha256: string;
  size: number;
}

/** A signer's Certificate of Evidence, sealed. */
export interface TCertificateFile {
  packetId: string;
  packetKey: string;
  blobKey: string;
  sha256: string;
  size: number;
}

/** A file a signer attached to an attachment field, as they uploaded it. */
export interface TAttachmentFile {
  docKey: string;
  fieldKey: string;
  packetId: string;
  name: string;
  blobKey: string;
  size: number;
  contentType: string;
}

/** An interim file: the document with the values filled so far, marked interim, not sealed. */
export interface TInterimFile {
  docKey: string;
  name: string;
  blobKey: string;
  size: number;
}

export interface TInterimState {
  /** The `if` audit event this state answers (the latest request wins). */
  seq: number;
  status: 'ready' | 'failed';
  at: string;
  files: TInterimFile[];
}

/**
 * One item per bundle (`BUNDLE#<slug>#FILES`). `lease` is held while a final job runs, so two
 * copies of a job (SQS delivers at least once) never write the same keys at once.
 */
export interface TBundleFilesRecord {
  accountId: string;
  bundleId: string;
  finals: TFinalFile[];
  certificates: TCertificateFile[];
  attachments: TAttachmentFile[];
  /** When the final set was written; absent until then. */
  issuedAt?: string;
  /** The audit chain as the final documents print it: its head and how many events it covers. */
  chainHead?: string;
  eventCount?: number;
  interim?: TInterimState;
  lease?: { id: string; until: string };
}

export type TSealedKind = 'final' | 'certificate';

/** `FILEHASH#<sha256>`: a sealed file this service issued → where it belongs. */
export interface TFileHashEntry {
  sha256: string;
  accountId: string;
  bundleId: string;
  kind: TSealedKind;
  docKey?: string;
  packetId?: string;
  issuedAt: string;
  /** The chain head printed in the file and the number of events it covered. */
  chainHead: string;
  eventCount: number;
}

/**
 * Where each kind of a bundle's files lives, under the bundle's folder of its account (so under
 * the account's encryption context and key): what a retention deletion lists and deletes.
 */
export const evidenceObjectPrefixes = {
  final: (accountId: string, bundleId: string) => `${bundleObjectsPrefix(accountId, bundleId)}final/`,
  certificate: (accountId: string, bundleId: string) => `${bundleObjectsPrefix(accountId, bundleId)}coe/`,
  interim: (accountId: string, bundleId: string) => `${bundleObjectsPrefix(accountId, bundleId)}interim/`,
};

/** Deterministic object keys: a job run twice writes the same objects. */
export const evidenceObjectKeys = {
  final: (accountId: string, bundleId: string, docKey: string) =>
    `${evidenceObjectPrefixes.final(accountId, bundleId)}${docKey}.pdf`,
  certificate: (accountId: string, bundleId: string, packetId: string) =>
    `${evidenceObjectPrefixes.certificate(accountId, bundleId)}${packetId}.pdf`,
  interim: (accountId: string, bundleId: string, docKey: string) =>
    `${evidenceObjectPrefixes.interim(accountId, bundleId)}${docKey}.pdf`,
};

/** A certificate's `doc_key` in the files list: `coe-<packet key>`. */
export const certificateDocKey = (packetKey: string) => `coe-${packetKey}`;

/** Attempts of a document job (outbox/jobs/document-jobs.ts): after the last the bundle is marked failed. */
export const DOCUMENT_MAX_ATTEMPTS = documentJob.maxAttempts;

/** How long a final job holds its lease: above the worker's timeout, so a dead one's lease lapses. */
export const FINAL_LEASE_SECONDS = 300;
