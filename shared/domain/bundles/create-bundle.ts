import * as z from 'zod';
import {
  type TBundleRequest,
  ZBundleRequestSchema,
  ZEnvelopeTemplateRequestSchema,
} from '#shared/schemas/bundle-request';
import type { TAccount, TPayout } from '../accounts/account';
import {
  ConcurrentUpdateError,
  ConflictError,
  newDocumentsRefusal,
  type TFieldError,
  ValidationError,
} from '../errors';
import { withOutbox } from '../outbox/outbox';
import { parseInput } from '../parse-input';
import type { TAccountStore } from '../ports/accounts';
import type { TBundleStore } from '../ports/bundles';
import type { TBlobStore, TPdfTools, TUrlFetcher } from '../ports/files';
import type { TPersonStore } from '../ports/persons';
import type { TClock, TIds } from '../ports/system';
import type { TDocTemplateStore, TEnvelopeTemplateStore } from '../ports/templates';
import { withDueAt } from '../scheduler/schedule';
import { templateDocuments } from '../templates/template-documents';
import type { TActor } from './actor';
import { withChain } from './audit-chain';
import { event } from './audit-event';
import { buildDocuments, type TDocumentDraft } from './build-documents';
import { buildPackets, type TPacketDraft } from './build-packets';
import type { TBundle, TDocument, TPacket } from './bundle';
import { countUsage } from './count-usage';
import type { TDocumentSharing } from './document-sharing';
import { envelopeBundleRequest, type TEnvelopeReminders } from './envelope-bundle-request';
import { BUNDLE, PACKET } from './lifecycle/status';
import { send } from './lifecycle/transitions';
import { linkPerson } from './link-person';
import { originalsPrefix } from './object-keys';
import { readerFieldErrors } from './packet-roles';
import { prefill } from './prefill';
import { retentionOf } from './retention';

export interface TCreateBundleDeps {
  bundles: TBundleStore;
  accounts: TAccountStore;
  persons: TPersonStore;
  blobs: TBlobStore;
  pdf: TPdfTools;
  fetcher: TUrlFetcher;
  clock: TClock;
  ids: TIds;
  /** Absent: TemplateRequest items are refused as naming no template. */
  templates?: TDocTemplateStore;
  /** Absent: a request naming an envelope template is refused on that field. */
  envelopeTemplates?: TEnvelopeTemplateStore;
}

/**
 * What a caller sets on a new bundle beyond the request: an id derived from what names the
 * create (bulk send: its batch and row; the API: the request under its Idempotency-Key), so a
 * second run of the same create answers the bundle the first made and, run at once, loses the
 * bundle item's conditional put; and bulk send's batch id as its tag.
 */
export interface TMadeAs {
  id?: string;
  tags?: string[];
  /** Bulk send: the batch's documents, prepared and stored once for all of its rows. */
  documents?: TDocumentSharing;
}

export const originalBlobKey = (accountId: string, bundleId: string, docKey: string) =>
  `${originalsPrefix(accountId, bundleId)}${docKey}.pdf`;

/**
 * Creates a Bundle: everything is checked first (shape, signers, documents and their fields, team
 * and custom_key), then signers are linked to Persons, originals stored, and the bundle written
 * last, so a refused request leaves nothing behind but Persons it may have matched.
 */
export async function createBundle(
  deps: TCreateBundleDeps,
  accountId: string,
  body: unknown,
  files: ReadonlyMap<number, Buffer> = new Map(),
  /**
   * Who creates it: the user of the API key (document templates not shared are visible to their
   * owner), and the actor its events record.
   */
  caller: { userId: string; by: TActor },
  made: TMadeAs = {},
): Promise<TBundle> {
  const { userId } = caller;
  // A derived id already taken is this very create, run before (its answer lost to a crash or
  // a timeout): the bundle it made is the answer, and nothing is fetched, stored or sent again.
  const before = made.id ? await deps.bundles.get(accountId, made.id) : undefined;
  if (before) return before;
  if (body && typeof body === 'object' && 'envelope_template' in body) {
    const { templates, envelopeTemplates } = deps;
    if (!templates || !envelopeTemplates) return createFromEnvelopeTemplate(body);
    const envelope = { templates, envelopeTemplates, accounts: deps.accounts };
    const { request, reminders } = await envelopeBundleRequest(envelope, { accountId, userId }, body);
    // The template's reminder settings go into the bundle before its one write and publish.
    return createFromRequest(deps, accountId, request, files, caller, reminders ?? {}, made);
  }
  return createFromRequest(deps, accountId, body, files, caller, {}, made);
}

async function createFromRequest(
  deps: TCreateBundleDeps,
  accountId: string,
  body: unknown,
  files: ReadonlyMap<number, Buffer>,
  { userId, by }: { userId: string; by: TActor },
  settings: TEnvelopeReminders | Record<string, never>,
  made: TMadeAs,
): Promise<TBundle> {
  const input = parseInput(ZBundleRequestSchema, body);
  const { drafts: packetDrafts, errors } = buildPackets(input.packets);
  const packetKeys = new Set(packetDrafts.map((p) => p.key));
  if (input.payment && !packetKeys.has(input.payment.billed_to)) {
    errors.push({
      field: 'payment.billed_to',
      message: `No signer has the key "${input.payment.billed_to}".`,
    });
  }
  // Consistent, and refused while the account's own key is being destroyed or is destroyed: a
  // create that sees no mark read the account before it, and the destruction waits longer than
  // any request may run before it reads the bundles, so it sees this one's (even one made from
  // a template, which stores no document of its own).
  const account = await deps.accounts.getAccount(accountId, { consistent: true });
  if (!account)
    throw new ValidationError('Invalid input.', [{ field: 'non_field_errors', message: 'Unknown account.' }]);
  const refused = newDocumentsRefusal(account.documentsKey);
  if (refused) throw refused;
  if (input.payment) errors.push(...paymentErrors(input.payment, account.payout));
  let requester = { name: account.requesterName, email: account.requesterEmail };
  if (input.team) {
    const team = account.features.teams
      ? (await deps.accounts.listTeams(accountId)).find((t) => t.id === input.team)
      : undefined;
    if (!team)
      errors.push({
        field: 'team',
        message: account.features.teams ? 'No team has this id.' : 'Teams are not enabled for this account.',
      });
    else
      requester = {
        name: team.requesterName ?? requester.name,
        email: team.requesterEmail ?? requester.email,
      };
  }
  if (errors.length > 0) throw new ValidationError('Invalid input.', errors);

  const templates = deps.templates;
  const built = await buildDocuments(
    deps,
    input.documents,
    packetKeys,
    files,
    templates &&
      ((request, path) =>
        templateDocuments(
          { templates, accounts: deps.accounts },
          { accountId, userId },
          request,
          packetKeys,
          path,
        )),
    account.imagePageSize,
    made.documents,
  );
  const { documents, errors: prefillErrors, detail: given } = prefill(built, input.data);
  if (prefillErrors.length > 0) throw new ValidationError('Invalid input.', prefillErrors);

  const readerFields = readerFieldErrors(
    packetDrafts,
    documents.map((d) => ({ fields: d.document.fields })),
  );
  if (readerFields.length > 0) throw new ValidationError('Invalid input.', readerFields);

  // Every person_id is checked before any signer is linked, so a refusal creates no Person.
  const unknownPersons: TFieldError[] = [];
  for (const d of packetDrafts) {
    const personId = d.request.person_id;
    if (personId && !(await deps.persons.get(accountId, personId.toLowerCase()))) {
      unknownPersons.push({ field: `${d.path}.person_id`, message: 'No person has this id.' });
    }
  }
  if (unknownPersons.length > 0) throw new ValidationError('Invalid input.', unknownPersons);

  const id = made.id ?? deps.ids.slug();
  if (
    input.custom_key !== undefined &&
    !(await deps.bundles.claimCustomKey(accountId, input.custom_key, id))
  ) {
    throw new ValidationError('Invalid input.', [
      {
        field: 'custom_key',
        message: 'Another bundle of this account has this custom_key.',
      } satisfies TFieldError,
    ]);
  }

  try {
    return await writeBundle(
      deps,
      account,
      id,
      input,
      packetDrafts,
      documents,
      requester,
      settings,
      made,
      by,
      given,
    );
  } catch (err) {
    // The bundle was not written: its custom_key is free again for the next attempt.
    if (input.custom_key !== undefined)
      await deps.bundles.releaseCustomKey(accountId, input.custom_key, id).catch(() => undefined);
    throw err;
  }
}

async function writeBundle(
  deps: TCreateBundleDeps,
  account: TAccount,
  id: string,
  input: z.output<typeof ZBundleRequestSchema>,
  packetDrafts: TPacketDraft[],
  documents: TDocumentDraft[],
  requester: { name: string; email: string },
  settings: TEnvelopeReminders | Record<string, never>,
  made: TMadeAs,
  by: TActor,
  /** Which fields' values the sender gave by `data` or locked (prefill.ts): the audit says so. */
  given: string | undefined,
): Promise<TBundle> {
  const accountId = account.id;
  const now = deps.clock.now().toISOString();
  const packets: TPacket[] = [];
  for (const d of packetDrafts) {
    const p = d.request;
    packets.push({
      id: deps.ids.slug(),
      key: d.key,
      name: p.name,
      ...(p.email ? { email: p.email } : {}),
      ...(p.phone ? { phone: p.phone } : {}),
      authSms: p.auth_sms ?? false,
      authSelfie: p.auth_selfie ?? false,
      authId: p.auth_id ?? false,
      suppressAll: p.suppress_all ?? false,
      suppressDocsReady: p.suppress_docs_ready ?? false,
      suppressSigning: p.suppress_signing ?? false,
      suppressReminder: p.suppress_reminder ?? false,
      deliverVia: d.deliverVia,
      order: d.order,
      personId: await linkPerson(deps, accountId, p, d.path),
      status: PACKET.new,
      ...(p.email_message ? { emailMessage: p.email_message } : {}),
      ...(p.sms_message ? { smsMessage: p.sms_message } : {}),
      ...(p.language ? { language: p.language } : {}),
      ...(p.allow_reassign ? { allowReassign: true } : {}),
      ...(p.role ? { role: p.role } : {}),
    });
  }

  const stored: TDocument[] = [];
  for (const d of documents) {
    // A document from a template keeps the template's PDF: one object, never copied.
    const blobKey = d.blobKey ?? originalBlobKey(accountId, id, d.document.key);
    if (d.bytes) await deps.blobs.put(blobKey, d.bytes, 'application/pdf');
    stored.push({ ...d.document, blobKey });
  }

  const draft: TBundle = {
    id,
    accountId,
    label: input.label ?? '',
    inOrder: input.in_order ?? false,
    emailSubject: input.email_subject ?? '',
    emailMessage: input.email_message ?? '',
    smsMessage: input.sms_message ?? '',
    requesterName: input.requester_name ?? requester.name,
    requesterEmail: input.requester_email ?? requester.email,
    ccEmails: input.cc_emails ?? [],
    ...(input.custom_key !== undefined ? { customKey: input.custom_key } : {}),
    ...(input.team ? { team: input.team } : {}),
    isTest: input.is_test ?? false,
    ...(input.language ? { language: input.language } : {}),
    status: BUNDLE.draft,
    ...(input.payment
      ? {
          payment: {
            billedTo: input.payment.billed_to,
            amountDue: input.payment.amount_due,
            // paymentErrors refused the bundle when the account has no payout settings.
            currency: account.payout?.currency ?? '',
            paymentMethodTypes: [...new Set(input.payment.payment_method_types ?? ['card'])],
            status: 'due',
          },
        }
      : {}),
    created: now,
    docsReady: false,
    errors: [],
    packets,
    documents: stored.map(({ fields: _fields, ...doc }) => doc),
    tags: made.tags ?? [],
    ccSender: false,
    sendReminders: false,
    // The account's reminder defaults, unless the envelope template's settings say otherwise.
    ...(account.features.reminders ? account.reminders : undefined),
    // The account's retention policy as it stands now: the bundle keeps it (retention.ts).
    ...retentionOf(account.retention),
    events: [
      event('created', now, by, undefined, given),
      ...(input.status === BUNDLE.draft ? [event('drafted', now, by)] : []),
    ],
    ...settings,
    version: 1,
  };
  const bundle = withDueAt(
    withOutbox(undefined, withChain(undefined, input.status === BUNDLE.draft ? draft : send(draft, now, by))),
  );
  try {
    await deps.bundles.create(bundle, stored);
  } catch (err) {
    if (!(err instanceof ConcurrentUpdateError)) throw err;
    // Two runs of one create at once: the other's bundle is written, with its outbox; this one
    // sends nothing and answers that bundle.
    const first = made.id ? await deps.bundles.get(accountId, id) : undefined;
    if (first) return first;
    throw new ConflictError('Please try again.', { cause: err });
  }
  await countUsage(deps, bundle);
  return bundle;
}

/** Payment methods that take a single currency (Stripe's rules). */
const METHOD_CURRENCY: Record<string, string> = { us_bank_account: 'usd', sepa_debit: 'eur' };

/**
 * A payment needs the account's payout settings (where the money goes, in which currency), and
 * methods the payout currency allows.
 */
function paymentErrors(payment: NonNullable<TBundleRequest['payment']>, payout?: TPayout): TFieldError[] {
  if (!payout)
    return [
      {
        field: 'payment',
        message:
          'This account has no payout settings: bundles cannot take payments until the operator sets them up.',
      },
    ];
  return (payment.payment_method_types ?? [])
    .filter((m) => METHOD_CURRENCY[m] && METHOD_CURRENCY[m] !== payout.currency)
    .map((m) => ({
      field: 'payment.payment_method_types',
      message: `${m} takes only ${METHOD_CURRENCY[m]}; this account's payout currency is ${payout.currency}.`,
    }));
}

/**
 * A create request naming an envelope template (`documents` may then be absent or empty, as
 * the official clients send it). Envelope templates arrive with their own issue; until then no
 * template id exists, and the request is refused on that field after its shape is checked.
 */
function createFromEnvelopeTemplate(body: object): never {
  const { envelope_template } = parseInput(
    z.object({ envelope_template: ZEnvelopeTemplateRequestSchema, packets: z.array(z.unknown()).min(1) }),
    body,
  );
  throw new ValidationError('Invalid input.', [
    {
      field: 'envelope_template.template_id',
      message: `No envelope template has the id "${envelope_template.template_id}".`,
    },
  ]);
}
