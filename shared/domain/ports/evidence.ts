// Sealed files, timestamps, long-term validation data and the seal's key and chain.

import type { TCertificateInput, TFinalInput, TSealIdentity } from '#shared/pdf/evidence-types';
import type { TSealInfo } from '#shared/pdf/read-seal';
import type { TSealSigner } from '#shared/pdf/seal-signer';
import type { TVerifyReport } from '#shared/verify/report';
import type { TBundleFilesRecord, TFileHashEntry, TInterimState } from '../evidence/evidence-files';

/**
 * The evidence of each bundle (files record `BUNDLE#<slug>#FILES`) and the index of sealed files
 * by hash (`FILEHASH#<sha256>`), written by the document worker (shared/domain/evidence/).
 */
export interface TEvidenceStore {
  get(accountId: string, bundleId: string): Promise<TBundleFilesRecord | undefined>;
  /** Takes the final job's lease: granted when none is held or the holder's lapsed before `now`. */
  claimFinal(
    accountId: string,
    bundleId: string,
    lease: { id: string; until: string },
    now: string,
  ): Promise<boolean>;
  /** Writes the final set and drops the lease, if `leaseId` still holds it (else ConcurrentUpdateError). */
  saveFinal(record: TBundleFilesRecord, leaseId: string): Promise<void>;
  /** Drops the lease if `leaseId` holds it. */
  releaseFinal(accountId: string, bundleId: string, leaseId: string): Promise<void>;
  /** Sets the interim state unless one of a later request is stored. */
  saveInterim(accountId: string, bundleId: string, interim: TInterimState): Promise<void>;
  putHash(entry: TFileHashEntry): Promise<void>;
  deleteHash(sha256: string, accountId: string): Promise<void>;
  /** The account's own entry for the hash; another account's is never read. */
  getHash(sha256: string, accountId: string): Promise<TFileHashEntry | undefined>;
  /** Any account's entry for the hash (the public check, which shows none of it). */
  findHash(sha256: string): Promise<TFileHashEntry | undefined>;
}

/**
 * Draws and seals the evidence PDFs (shared/pdf/, with the seal identity of the stage). `accountId`:
 * the bundle's account, whose own seal identity is used when it has one (else the service's).
 */
export interface TEvidencePdf {
  renderFinal(input: TFinalInput, accountId?: string): Promise<Uint8Array>;
  renderCertificate(input: TCertificateInput, accountId?: string): Promise<Uint8Array>;
  seal(
    pdf: Uint8Array,
    info: { reason: string; location?: string; contactInfo?: string; name: string; accountId?: string },
  ): Promise<Uint8Array>;
}

/** A timestamp from a timestamp authority (RFC 3161), checked before it is handed over. */
export interface TTimestampToken {
  /** The DER TimeStampToken: a CMS ContentInfo of SignedData over a TSTInfo. */
  token: Buffer;
  /** The time the authority vouches for. */
  genTime: Date;
  /** The certificate that signed it, DER. */
  tsaCertificate: Buffer;
  /** Which authority gave it (without credentials). */
  tsaUrl: string;
}

/** Timestamps a SHA-256 digest; fails (TimestampUnavailableError) when no authority gives a valid one. */
export interface TTimestamper {
  timestamp(imprint: Buffer): Promise<TTimestampToken>;
}

/** What proves a signature's certificates valid when it was made (PAdES B-LT), all DER. */
export interface TValidationData {
  /** Every certificate of every chain behind the signature and its timestamps, roots included. */
  certificates: Buffer[];
  /** OCSPResponse for each certificate that names a responder. */
  ocsps: Buffer[];
  /** The issuers' CRLs for the others. */
  crls: Buffer[];
}

/**
 * Gathers the validation data of a signature (a CMS ContentInfo, or a timestamp token), checked;
 * fails (ValidationDataUnavailableError) when a certificate is revoked or its status cannot be had.
 */
export interface TValidationDataCollector {
  collect(signature: Buffer): Promise<TValidationData>;
}

/**
 * Who seals: the service's seal (a KMS key and its certificate chain, or a PKCS #12 identity), or
 * with `accountId` that account's own when one is installed, else the service's.
 */
export interface TSealIdentityStore {
  get(accountId?: string): Promise<TSealIdentity | TSealSigner>;
}

/**
 * Where the certificate chains of KMS seal keys are kept (PEM, seal certificate first): public
 * data. The service's, or with `accountId` that account's; undefined when none is installed.
 */
export interface TSealChainStore {
  get(accountId?: string): Promise<string | undefined>;
  put(pem: string, accountId?: string): Promise<void>;
}

/** Reads a PDF's seal from the file alone (shared/pdf/read-seal.ts). */
export interface TSealReader {
  read(pdf: Uint8Array): Promise<TSealInfo | undefined>;
  /** Every check esign-verify makes (shared/verify), offline, no trust list; null for a file that is no PDF. */
  check(pdf: Uint8Array): Promise<TVerifyReport | null>;
}

/**
 * A link to a signed bundle's copies, sent to a signer or a cc recipient when the documents are
 * ready (shared/domain/evidence/copy-link.ts): kept only as the hash of its token.
 */
export interface TCopyLink {
  hash: string;
  accountId: string;
  bundleId: string;
  /** The signer it was sent to, whose own Certificate of Evidence it also opens; absent for a cc. */
  packetId?: string;
  /** The language its pages speak (the message's). */
  language: string;
  expires: string;
  /** Epoch seconds: the table's TTL removes the link a while after it expired. */
  ttl: number;
}

export interface TCopyLinkStore {
  create(link: TCopyLink): Promise<void>;
  get(hash: string): Promise<TCopyLink | undefined>;
}
