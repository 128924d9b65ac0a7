// The interfaces the domain needs. Use cases take these as arguments; only composition roots
// (functions/*, infra/local, infra/admin) build the real adapters behind them.
import type {
  TAccount,
  TApiKey,
  TBrand,
  TFeatureName,
  TPayout,
  TTeam,
  TUser,
} from './domain/accounts/account';
import type { TBundle, TBundleEvent, TBundleStatus, TDocument } from './domain/bundles/bundle';
import type { TDayRange } from './domain/day-range';
import type { TEnvelopeTemplate } from './domain/envelope-templates/envelope-template';
import type { TBundleFilesRecord, TFileHashEntry, TInterimState } from './domain/evidence/evidence-files';
import type { TNotificationRecord, TSentMessage } from './domain/notifications/notification';
import type { TJobOf, TJobQueue } from './domain/outbox/jobs';
import type { TPage } from './domain/paging';
import type { TPerson, TPersonFilter } from './domain/persons/person';
import type { TSigningRecord } from './domain/signing/signing-record';
import type { TDocTemplate } from './domain/templates/doc-template';
import type { TPrepSession } from './domain/templates/prep-session';
import type { TWebhook, TWebhookFilter } from './domain/webhooks/webhook';
import type {
  TWebhookDelivery,
  TWebhookDeliveryFilter,
  TWebhookEvent,
  TWebhookEventFilter,
} from './domain/webhooks/webhook-event';
import type { TWebhookSecretRecord } from './domain/webhooks/webhook-secret-record';
import type { TCertificateInput, TFinalInput, TSealIdentity } from './pdf/evidence-types';
import type { TTextHit } from './pdf/find-text';
import type { TPdfInfo } from './pdf/inspect-pdf';
import type { TSealInfo } from './pdf/read-seal';
import type { TSealSigner } from './pdf/seal-signer';
import type { TVerifyReport } from './verify/report';

export interface TClock {
  now(): Date;
}

export interface TIds {
  uuid(): string;
  /** 10 base62 characters, unguessable: bundle and packet ids. */
  slug(): string;
}

export interface TPageOf<T> {
  items: T[];
  total: number;
}

export interface TPersonStore {
  get(accountId: string, id: string): Promise<TPerson | undefined>;
  /** `previous` undefined: create (fails if the id exists); else replace if its version still holds. */
  save(person: TPerson, previous: TPerson | undefined): Promise<void>;
  delete(person: TPerson): Promise<void>;
  list(accountId: string, filter: TPersonFilter, page: TPage): Promise<TPageOf<TPerson>>;
}

/** Counters of the portal's abuse limits: one item per counter and window, bumped conditionally. */
export interface TPortalCounterStore {
  /** Counts one more under `counter` unless it reached `limit`; false when it had. */
  take(counter: string, limit: number, expiresAt: Date): Promise<boolean>;
}

export interface TEnvelopeTemplateStore {
  get(accountId: string, id: string): Promise<TEnvelopeTemplate | undefined>;
  /** The template whatever its account (public portal pages); the caller checks what it may show. */
  find(id: string): Promise<TEnvelopeTemplate | undefined>;
  /** `previous` undefined: create (fails if the id exists); else replace if its version still holds. */
  save(template: TEnvelopeTemplate, previous: TEnvelopeTemplate | undefined): Promise<void>;
  delete(template: TEnvelopeTemplate): Promise<void>;
  /** Enabled templates only, newest first, only those `visible` keeps (decided from the list keys). */
  listEnabled(
    accountId: string,
    visible: (t: Pick<TEnvelopeTemplate, 'isShared' | 'owner'>) => boolean,
    page: TPage,
  ): Promise<TPageOf<TEnvelopeTemplate>>;
}

/** Template preparation sessions, found by their token's hash. */
export interface TPrepSessionStore {
  create(session: TPrepSession): Promise<void>;
  get(hash: string): Promise<TPrepSession | undefined>;
  /** Claims the session for a save (`savedAt` = `at`); false when another save already holds it. */
  finish(hash: string, at: string): Promise<boolean>;
  /** Gives up the claim `finish(hash, at)` made (the save failed): the session is open again. */
  reopen(hash: string, at: string): Promise<boolean>;
}

/** Document templates, each one item written conditionally on `version`. */
export interface TDocTemplateStore {
  get(accountId: string, id: string): Promise<TDocTemplate | undefined>;
  /** `previous` undefined: create (fails if the id exists); else replace if its version still holds. */
  save(template: TDocTemplate, previous: TDocTemplate | undefined): Promise<void>;
  delete(template: TDocTemplate): Promise<void>;
  /** Newest first, only those `visible` keeps (decided from the list keys, before any page is read). */
  list(
    accountId: string,
    visible: (t: Pick<TDocTemplate, 'isShared' | 'owner' | 'team'>) => boolean,
    page: TPage,
  ): Promise<TPageOf<TDocTemplate>>;
}

export interface TWebhookStore {
  get(accountId: string, id: string): Promise<TWebhook | undefined>;
  /** The id of the webhook holding an extra header, from its lookup item (check the webhook has it). */
  webhookOfHeader(accountId: string, headerId: string): Promise<string | undefined>;
  /** `previous` undefined: create (fails if the id exists); else replace if its version still holds. */
  save(webhook: TWebhook, previous: TWebhook | undefined): Promise<void>;
  delete(webhook: TWebhook): Promise<void>;
  /** Newest first. */
  list(accountId: string, filter: TWebhookFilter, page: TPage): Promise<TPageOf<TWebhook>>;
  /** Every webhook of the account, newest first. */
  all(accountId: string): Promise<TWebhook[]>;
}

/** The account's webhook shared secret, one item, written conditionally on `version`. */
export interface TWebhookSecretStore {
  get(accountId: string): Promise<TWebhookSecretRecord | undefined>;
  /** `previous` undefined: create, failing if one exists. Either way a lost race is ConcurrentUpdateError. */
  save(record: TWebhookSecretRecord, previous: TWebhookSecretRecord | undefined): Promise<void>;
}

/**
 * Encrypts secrets that must be recoverable (the webhook secret signs every call); not to be
 * confused with the seal of PDFs. `context` is bound to the ciphertext (KMS encryption context,
 * AES-GCM additional data): decrypting with any other context fails, so an encrypted secret
 * copied to another account's item cannot be read.
 */
export interface TSecretCipher {
  encrypt(plaintext: string, context: Record<string, string>): Promise<string>;
  decrypt(ciphertext: string, context: Record<string, string>): Promise<string>;
}

export interface TAccountStore {
  createAccount(account: TAccount): Promise<void>;
  getAccount(id: string): Promise<TAccount | undefined>;
  listAccounts(): Promise<TAccount[]>;
  setFeatures(id: string, features: Partial<Record<TFeatureName, boolean>>): Promise<TAccount>;
  /** Replaces the origins allowed to frame embedded signing; an empty list removes them. */
  setEmbedOrigins(id: string, origins: string[]): Promise<TAccount>;
  /** undefined removes it. */
  setSigningRedirect(id: string, url: string | undefined): Promise<TAccount>;
  /** undefined removes them. */
  setPayout(id: string, payout: TPayout | undefined): Promise<TAccount>;
  addUser(user: TUser): Promise<void>;
  getUser(accountId: string, userId: string): Promise<TUser | undefined>;
  listUsers(accountId: string): Promise<TUser[]>;
  /** Replaces the user's teams (an empty list: none). */
  setUserTeams(accountId: string, userId: string, teams: string[]): Promise<TUser>;
  addTeam(team: TTeam): Promise<void>;
  listTeams(accountId: string): Promise<TTeam[]>;
  addBrand(brand: TBrand): Promise<void>;
  listBrands(accountId: string): Promise<TBrand[]>;
  /** Counts a sent bundle toward the account's usage in `month` (YYYY-MM). */
  countSentBundle(accountId: string, month: string): Promise<void>;
  sentBundles(accountId: string, month: string): Promise<number>;
}

export interface TApiKeyStore {
  create(key: TApiKey): Promise<void>;
  findByHash(hash: string): Promise<TApiKey | undefined>;
  listForAccount(accountId: string): Promise<TApiKey[]>;
  revoke(accountId: string, keyId: string, at: Date): Promise<TApiKey>;
}

/** The caller's request allowance, as API Gateway's usage plan (or the local runtime) counts it. */
export interface TUsage {
  limit: number;
  remaining: number;
  /** Seconds until the quota period starts over. */
  reset: number;
  /** Length of the quota period in seconds. */
  window: number;
}

export interface TUsageReader {
  usageFor(usageKeyId: string): Promise<TUsage>;
}

export interface TEmailMessage {
  from: string;
  to: string[];
  cc?: string[];
  replyTo?: string[];
  subject: string;
  text: string;
  html?: string;
}

export interface TMailer {
  /** Returns the provider's message id. */
  send(message: TEmailMessage): Promise<string>;
}

export interface TSmsSender {
  /** Returns the provider's message id. */
  send(phoneNumber: string, text: string): Promise<string>;
}

/** What the notifications worker sends, message by message (shared/domain/notifications/). */
export interface TNotificationStore {
  /**
   * Takes the right to send `record`'s message: granted when there is no record yet, the last
   * attempt failed, or a `sending` claim is older than `staleBefore` (ISO time). Otherwise
   * answers the stored record.
   */
  claim(
    record: TNotificationRecord,
    staleBefore: string,
  ): Promise<{ claimed: true } | { claimed: false; current: TNotificationRecord }>;
  get(
    accountId: string,
    bundleId: string,
    seq: number,
    recipient: string,
  ): Promise<TNotificationRecord | undefined>;
  /** Keeps the provider's id → the message (for bounce reports), then marks the claim sent. */
  markSent(record: TNotificationRecord, sent: TSentMessage): Promise<void>;
  markFailed(record: TNotificationRecord, error: string, at: string): Promise<void>;
  findSent(providerMessageId: string): Promise<TSentMessage | undefined>;
  /** Notes a report kind (bounce, complaint) as recorded on the bundle. */
  noteReport(providerMessageId: string, kind: string): Promise<void>;
}

// What the evidence renderers take and what a seal says; declared with them in shared/pdf.
export type {
  TAuditEntry,
  TAuditPage,
  TCertificateInput,
  TFinalInput,
  TStampField,
} from './pdf/evidence-types';
export type { TTextHit } from './pdf/find-text';
// What the PDF tools report; declared with them in shared/pdf.
export type { TPdfInfo } from './pdf/inspect-pdf';
export type { TSealInfo } from './pdf/read-seal';
export type { TVerifyReport } from './verify/report';

export interface TPdfTools {
  /** Throws an error named PdfRejectedError (with `reason`) for a file that is no usable PDF. */
  inspect(bytes: Uint8Array): Promise<TPdfInfo>;
  findText(bytes: Uint8Array, searches: string[]): Promise<Map<string, TTextHit[]>>;
}

/** Downloads a sender's file_url; throws an error named UnsafeUrlError (with `reason`) when refused. */
export interface TUrlFetcher {
  fetchUrl(url: string): Promise<{ bytes: Buffer; contentType?: string }>;
}

export interface TBlobStore {
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  get(key: string): Promise<Buffer>;
  /** A time-limited GET link. */
  presignGet(key: string, expiresInSeconds: number): Promise<string>;
}

export type { TDayRange } from './domain/day-range';

/** What a bundle list returns, in which order; every filter given must match. */
export interface TBundleFilter {
  /** Every whitespace-separated word starts a word of the bundle or its signers. */
  search?: string;
  /** Any of these; an empty list matches nothing. */
  statuses?: TBundleStatus[];
  /** Every one of these tags. */
  tags?: string[];
  /** At least one of these tags. */
  anyTags?: string[];
  /** A document of the bundle was made from this document template. */
  template?: string;
  created?: TDayRange;
  sent?: TDayRange;
  completed?: TDayRange;
  /** Default: newest created first. Bundles without the date come last either way. */
  ordering?: { by: 'created' | 'sent' | 'completed'; descending: boolean };
}

export interface TBundleStore {
  /** Documents, packet lookups and person links first, the bundle last: it appears whole or not at all. */
  create(bundle: TBundle, documents: TDocument[]): Promise<void>;
  get(accountId: string, id: string): Promise<TBundle | undefined>;
  /** Replaces the bundle if `previous.version` still holds. */
  save(bundle: TBundle, previous: TBundle): Promise<void>;
  documents(bundle: TBundle): Promise<TDocument[]>;
  /** Every audit event, oldest first, including those moved out of the bundle item. */
  events(bundle: TBundle): Promise<TBundleEvent[]>;
  findPacket(packetId: string): Promise<{ accountId: string; bundleId: string } | undefined>;
  list(accountId: string, filter: TBundleFilter, page: TPage): Promise<TPageOf<TBundle>>;
  /** Claims `customKey` for the bundle; false when another bundle of the account holds it. */
  claimCustomKey(accountId: string, customKey: string, bundleId: string): Promise<boolean>;
  /** Gives the claim up, if `bundleId` still holds it. */
  releaseCustomKey(accountId: string, customKey: string, bundleId: string): Promise<void>;
  /** Ids of bundles that have a packet linked to the person (some may no longer exist). */
  bundlesOfPerson(accountId: string, personId: string): Promise<string[]>;
  /** Empties the outbox of the bundle as published, unless the bundle changed since (its version). */
  clearOutbox(bundle: TBundle): Promise<void>;
  /** Bundles whose outbox holds an event older than `before` (ISO time), oldest first. */
  withPendingOutbox(before: string, limit: number): Promise<{ accountId: string; id: string }[]>;
  /** Bundles with work due (expiry, a reminder) at or before `upTo` (ISO time), earliest first. */
  due(upTo: string, limit: number): Promise<{ accountId: string; id: string }[]>;
}

/** A message for a worker; queues are named as in infra/queues.ts. */
/** Puts a job on its queue (jobs declared in shared/domain/outbox/jobs.ts). */
export interface TQueue {
  send<Q extends TJobQueue>(queue: Q, job: TJobOf<Q>): Promise<void>;
}

/** A delivery job of the webhookDeliveries queue. */
export type { TWebhookJob } from './domain/outbox/jobs';

export interface TWebhookEventStore {
  /** Logs the event unless one with its id exists; either way answers the stored one. */
  createOnce(event: TWebhookEvent): Promise<{ created: boolean; event: TWebhookEvent }>;
  get(accountId: string, id: string): Promise<TWebhookEvent | undefined>;
  markQueued(event: TWebhookEvent): Promise<void>;
  /** Keeps the attempt in the deliveries log and updates its event's status, success and list. */
  recordDelivery(delivery: TWebhookDelivery): Promise<void>;
  getDelivery(accountId: string, id: string): Promise<TWebhookDelivery | undefined>;
  /** Newest first. */
  listEvents(accountId: string, filter: TWebhookEventFilter, page: TPage): Promise<TPageOf<TWebhookEvent>>;
  /** Newest first. */
  listDeliveries(
    accountId: string,
    filter: TWebhookDeliveryFilter,
    page: TPage,
  ): Promise<TPageOf<TWebhookDelivery>>;
}

/** POSTs a webhook call; see shared/adapters/fetch/webhook-caller.ts. Never throws for the receiver's faults. */
export interface TWebhookCaller {
  post(url: string, headers: [string, string][], body: string): Promise<TWebhookCallResult>;
}

export interface TWebhookCallResult {
  /** HTTP status of the answer, 0 when there was none. */
  status: number;
  /** A 2xx answer within the deadline. */
  ok: boolean;
  /** Empty on success, else the reason, for the sender's delivery log. */
  message: string;
}

/**
 * What a signer holds, kept only as a hash: a link (emailed or texted, reusable), an embedded
 * signing URL (single use) or a session a link was exchanged for (docs/signer-api.md).
 */
export interface TSigningToken {
  hash: string;
  accountId: string;
  bundleId: string;
  packetId: string;
  kind: 'embed' | 'link' | 'session';
  expires: string;
  /** Set when an embedded URL was exchanged for a session. */
  usedAt?: string;
}

export interface TSigningTokenStore {
  create(token: TSigningToken): Promise<void>;
  get(hash: string): Promise<TSigningToken | undefined>;
  /** Marks a single-use token used; false when it already was. */
  consume(hash: string, at: string): Promise<boolean>;
}

/** One signer's side of a bundle: values filled, authentication, consent, steps (evidence). */
export interface TSigningRecordStore {
  get(accountId: string, bundleId: string, packetId: string): Promise<TSigningRecord | undefined>;
  /** Every packet's record of the bundle. */
  all(accountId: string, bundleId: string): Promise<TSigningRecord[]>;
  /** `previous` undefined: create (fails if one exists); else replace if its version still holds. */
  save(record: TSigningRecord, previous: TSigningRecord | undefined): Promise<void>;
}

/** Checks images of an identity document; the local provider only records them as collected. */
export interface TIdVerifier {
  verify(input: { front: string; back: string; name: string }): Promise<{
    status: 'collected' | 'verified' | 'rejected';
    provider: string;
    reference: string;
  }>;
}

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

/**
 * The service's seal certificate and key (shared/adapters/sealing/): made on first use and kept
 * in the data folder locally, in a Secrets Manager secret on AWS.
 */
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

/** What a payment processor is asked for: the bundle's amount, paid out to the connected account. */
export interface TPaymentRequest {
  accountId: string;
  bundleId: string;
  /** The billed signer's packet. */
  packetId: string;
  /** In the currency's smallest unit. */
  amount: number;
  currency: string;
  paymentMethodTypes: string[];
  /** The account's payout settings: the processor transfers the amount there. */
  connectedAccountId: string;
  /** The same key gives the same payment: a retried start never charges twice. */
  idempotencyKey: string;
  /** The payment started before for this bundle: it is resumed, never a second one made. */
  reference?: string;
  description: string;
}

/** A payment the signer can now complete: by the client secret (Stripe.js) or on a checkout page. */
export interface TPaymentSession {
  /** The processor's reference (Stripe: the Checkout Session id; locally a PaymentIntent-shaped id). */
  reference: string;
  clientSecret?: string;
  checkoutUrl?: string;
}

/** A processor webhook, verified: what happened to which payment. */
export interface TPaymentEvent {
  /** The processor's event id (or, for a refund the processor answered at once, the refund's id). */
  id: string;
  /** `refunded`: the whole amount was given back; `refund_failed`: a refund did not go through. */
  outcome: 'paid' | 'failed' | 'refunded' | 'refund_failed';
  /** The processor's object the event is about (a Checkout Session, a PaymentIntent, a Charge). */
  reference: string;
  accountId: string;
  bundleId: string;
  /** Why a payment or refund failed, as the processor says it. */
  message?: string;
}

export interface TPaymentProvider {
  start(request: TPaymentRequest): Promise<TPaymentSession>;
  /**
   * Verifies the webhook's signature over its raw body (a ValidationError when it does not
   * match) and reads it; undefined for events that concern no bundle payment.
   */
  parseWebhook(rawBody: string, signature: string): Promise<TPaymentEvent | undefined>;
  /**
   * Gives a paid payment back in full (Stripe also takes the transfer back from the connected
   * account); the same idempotency key gives the same refund.
   */
  refund(request: TRefundRequest): Promise<TRefund>;
}

/** What the operator asks the processor to give back: the whole of a bundle's payment. */
export interface TRefundRequest {
  /** The payment's reference (TPaymentSession.reference). */
  reference: string;
  accountId: string;
  bundleId: string;
  /** The billed signer's packet. */
  packetId: string;
  idempotencyKey: string;
}

/** The processor's answer: `pending` refunds are confirmed by a later webhook. */
export interface TRefund {
  id: string;
  status: 'succeeded' | 'pending';
}
