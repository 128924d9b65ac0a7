// Accounts are made by the operator (infra/admin); their admins change their settings, keys and
// signing brands through the API (account-settings.ts, signing-brands.ts, create-api-key.ts).
import type { TImagePageSize } from '#shared/pdf/image-kind';
import type { TFeatureName } from '#shared/schemas/vocabulary';

export interface TAccount {
  id: string;
  name: string;
  /** Defaults for a Bundle's requester_name / requester_email. */
  requesterName: string;
  requesterEmail: string;
  /**
   * Default signing-request text when neither the packet nor the bundle has an email_message /
   * sms_message (the notifications worker has a built-in one for accounts without).
   */
  emailMessage?: string;
  smsMessage?: string;
  /**
   * Origins (`https://app.example.com`) whose pages may frame this account's embedded signing
   * sessions (CSP frame-ancestors). None: embedded signing pages cannot be framed.
   */
  embedOrigins?: string[];
  /** Where signers go after signing when neither the packet nor its signing brand says. */
  signingRedirectUrl?: string;
  /**
   * The language its signers read when neither packet nor bundle names one (an IETF tag of a
   * supported language, shared/i18n); before their browser's. Set by the operator.
   */
  language?: string;
  /**
   * Where bundle payments go: the payment processor's connected account and its currency. None:
   * bundles with a `payment` are refused. Set by the operator; never shown in full by the API.
   */
  payout?: TPayout;
  /**
   * The paper a JPEG or PNG document is put on when it becomes a PDF; none: Letter, the paper of
   * BlueInk's (North American) users. Set by the operator (`set-image-page-size`).
   */
  imagePageSize?: TImagePageSize;
  /**
   * Reminder settings a new bundle starts with when its request (or envelope template) gives none,
   * with the Reminders feature on; set by an admin (the account's settings).
   */
  reminders?: TAccountReminders;
  /**
   * How long documents are kept after a bundle ends, by part; none: kept for ever. Each new
   * bundle carries the policy in force when it was made (bundles/retention.ts). Set by an admin
   * (PUT /account/retention/) or the operator (`set-retention`).
   */
  retention?: TRetentionDays;
  /**
   * A KMS key of the account's own, which its new documents are written under instead of the
   * stack's documents key; made and destroyed by the operator (`account-key`, documents-key.ts).
   */
  documentsKey?: TAccountDocumentsKey;
  features: Record<TFeatureName, boolean>;
  created: string;
  version: number;
}

/** A retention policy: days kept after the bundle ends, per part of its documents; a part left out is kept. */
export interface TRetentionDays {
  /** The documents as uploaded and the interim files. */
  originals?: number;
  /** The sealed final documents and the Certificates of Evidence. */
  finals?: number;
  /** What signers gave: selfies, ID photos, attachments, drawn signatures. */
  images?: number;
}

/** An account's own documents key and, once destroyed (crypto-shredding), when and until when. */
export interface TAccountDocumentsKey {
  /** The KMS key's ARN. */
  keyArn: string;
  created: string;
  /**
   * Set while `account-key-destroy` checks the account's bundles: a legal hold placed meanwhile
   * answers 409 (bundles/legal-hold.ts). Taken back when a bundle blocks the destruction;
   * replaced by `destroyed` when none does.
   */
  destroying?: TKeyDestroying;
  /** When its deletion was scheduled: from then on none of the account's documents can be read. */
  destroyed?: string;
  /** When KMS deletes the key for good; until then `aws kms cancel-key-deletion` brings it back. */
  deletionDate?: string;
}

/** A destruction of the account's key under way. */
export interface TKeyDestroying {
  started: string;
  /**
   * Names this mark: the run that finishes or takes it back writes on condition that it is still
   * this one, so a mark taken back and set again by another run is never finished by the first.
   */
  run: string;
}

/** As a bundle holds them (`send_reminders`, `reminder_offset`… in days). */
export interface TAccountReminders {
  sendReminders: boolean;
  reminderOffset?: number;
  reminderInterval?: number;
  reminderExpires?: number;
}

export interface TPayout {
  /** The processor's connected account (Stripe: `acct_…`). */
  connectedAccountId: string;
  /** ISO 4217, lowercase (`usd`): the currency of every bundle payment of the account. */
  currency: string;
}

export interface TUser {
  id: string;
  accountId: string;
  name: string;
  email: string;
  isAdmin: boolean;
  /**
   * The teams the user belongs to (ids of the account's teams). With teams on, a template that is
   * not shared is used by its owner, account admins and members of its team (see template-access).
   */
  teams?: string[];
  /** When the user last signed out of the console everywhere: sessions begun before it have ended. */
  sessionsFrom?: string;
  created: string;
}

export interface TTeam {
  id: string;
  accountId: string;
  name: string;
  requesterName?: string;
  requesterEmail?: string;
  created: string;
}

export interface TBrand {
  id: string;
  accountId: string;
  name: string;
  redirectUrl?: string;
  /** The signing pages' accent color, `#rrggbb`. */
  primaryColor?: string;
  /**
   * An image shown on the signing pages: https (their CSP allows its origin for images), or one an
   * admin uploaded, kept as a PNG or JPEG `data:` URL (signing-brands.ts).
   */
  logoUrl?: string;
  created: string;
  /** The store's concurrency counter, from the first change on (brands made before have none). */
  version?: number;
}

export interface TApiKey {
  keyId: string;
  /** What its user called it ("Billing export"), so they know which to revoke; older keys have none. */
  name?: string;
  /** SHA-256 of the key, hex. The key itself is shown once and never stored. */
  hash: string;
  accountId: string;
  userId: string;
  /** The id API Gateway's usage plan knows this key by (locally: keyId). */
  usageKeyId: string;
  /** The first characters of the key, so an operator can tell keys apart. */
  prefix: string;
  created: string;
  revoked?: string;
}
