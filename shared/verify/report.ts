// The shape of a verification report: the facts read from a PDF (its signatures, the chains of
// their certificates, its revocation data) and a flat list of checks, each a verdict a person can
// act on. The CLI prints the checks, POST /verify/ and the public page send the same report, so
// every way of checking a file says the same thing in the same words. Those words are the en
// catalog's (check-words.ts); `said` names them, so a page can say them in its reader's language.
import { sentence, type TWords } from './check-words';

/**
 * pass: it holds. fail: it does not, and the file must not be relied on. warn: nothing is wrong,
 * but something that would make the evidence stronger is missing. info: a fact, not a verdict.
 */
export type TCheckStatus = 'pass' | 'fail' | 'warn' | 'info';

export interface TCheck {
  /** Stable, for machines: `signature-1.digest`, `chain-2.trust`, `revocation`, … */
  id: string;
  status: TCheckStatus;
  /** One line in plain words. */
  title: string;
  /** For a fail or warn: what to do next. */
  next?: string;
  /** The same sentences by catalog key and values, for saying them in another language. */
  said: { title: TWords; next?: TWords };
}

export interface TCertificateFacts {
  subject: string;
  issuer: string;
  serial: string;
  /** SHA-256 of the DER, uppercase hex with colons (as `openssl x509 -fingerprint -sha256` prints it). */
  sha256: string;
  notBefore: string;
  notAfter: string;
}

export interface TTimestampFacts {
  genTime: string;
  /** The authority's name: the TSTInfo's tsa field, else its certificate's subject. */
  tsa: string;
  imprintMatches: boolean;
  signatureValid: boolean;
  /** The signing certificate carries the (critical) id-kp-timeStamping extended key usage. */
  timeStampingUsage: boolean;
  certificate: TCertificateFacts | null;
  problem: string | null;
}

export interface TSignatureFacts {
  /** 1-based, in the order the signatures were added to the file. */
  index: number;
  kind: 'signature' | 'document timestamp';
  field: string | null;
  subFilter: string | null;
  byteRange: [number, number, number, number];
  /** The signer's certificate (for a document timestamp, the authority's). */
  signer: TCertificateFacts | null;
  /** What the file claims: the signature dictionary's /M, a signing-time attribute, or a genTime. */
  claimedTime: string | null;
  /** The signed bytes hash to the digest that was signed (a document timestamp: its imprint). */
  digestMatches: boolean;
  signatureValid: boolean;
  coversWholeFile: boolean;
  /** For the last signature: what follows it only adds revocation data (a DSS), as B-LT does. */
  onlyDssAfter: boolean;
  /** Later signatures whose ranges include all of this one's revision. */
  coveredBy: number[];
  /** The signature timestamp in the CMS (PAdES B-T); null when there is none. */
  timestamp: TTimestampFacts | null;
  reason: string | null;
  location: string | null;
  problem: string | null;
}

export type TRevocationStatus = 'good' | 'revoked' | 'unknown' | 'none';

export interface TRevocationFacts {
  status: TRevocationStatus;
  /** `ocsp` or `crl`, and whose signature vouches for it. */
  source: string | null;
  /** `source` by catalog key and values. */
  sourceSaid?: TWords;
  revokedAt: string | null;
  /** When the answer was produced (OCSP producedAt, CRL thisUpdate). */
  producedAt: string | null;
}

export interface TChainFacts {
  /** 1-based; `for` names what the chain's first certificate signed. */
  index: number;
  for: string;
  /** From the signer's certificate up; the last is the root when `complete`. */
  certificates: TCertificateFacts[];
  /** Ends at a self-signed certificate whose signature holds. */
  complete: boolean;
  /** Every certificate's signature holds with its issuer's key. */
  signaturesValid: boolean;
  /** The root is one passed with --trust; null when no trust list was given. */
  trusted: boolean | null;
  /** Per certificate below the root, from the file's DSS (and from the network with --online). */
  revocation: { subject: string; inFile: TRevocationFacts; online: TRevocationFacts | null }[];
}

export interface TDssFacts {
  certs: TCertificateFacts[];
  ocsps: { producedAt: string | null; responder: string | null }[];
  crls: { issuer: string; thisUpdate: string | null; entries: number }[];
  /** VRI keys (uppercase hex SHA-1 of a signature's /Contents), and the signature each belongs to. */
  vri: { key: string; signature: number | null }[];
}

/**
 * The JSON evidence record a final document may carry as an attachment. Only the seam: until
 * that record is embedded and read here, every file reports `none embedded`.
 */
/** The evidence record the file carries (docs/evidence-record.md). */
export type TEvidenceRecordFacts =
  | { status: 'none embedded' }
  | { status: 'unreadable' }
  | {
      status: 'embedded';
      /** Attached to the document as a whole (/AF) with the Data relationship. */
      associated: boolean;
      /** The key of the document this file is the final version of. */
      document: string;
      events: number;
      head: string;
      chainIntact: boolean;
      headMatches: boolean;
      /** The first event (0-based) whose hash or link does not hold. */
      brokenAt?: number;
      /**
       * Each signer's status and how many authentication results the record holds; who they are
       * is in the record itself, which the report does not repeat (the public check shows it).
       */
      signers: { status: string; authentication: number }[];
      /** Originals given to check, by SHA-256, and the document of the record each is (null: none). */
      originals: { sha256: string; document: string | null }[];
    };

export interface TVerifyReport {
  file: { sha256: string; bytes: number };
  /** fail when any check fails; pass otherwise (warnings do not fail a file). */
  result: 'pass' | 'fail';
  signatures: TSignatureFacts[];
  chains: TChainFacts[];
  dss: TDssFacts | null;
  evidenceRecord: TEvidenceRecordFacts;
  /** The trust list used: the fingerprints passed, or empty when none was. */
  trustedRoots: string[];
  online: boolean;
  checks: TCheck[];
}

/** A check whose sentences are these words, with their English as the report's title and next. */
export function check(id: string, status: TCheckStatus, title: TWords, next?: TWords): TCheck {
  return next
    ? { id, status, title: sentence(title), next: sentence(next), said: { title, next } }
    : { id, status, title: sentence(title), said: { title } };
}
