// The evidence record each final document carries inside it (a JSON file attachment, PDF /AF
// with the Data relationship): the bundle's audit events with their hash chain, every original
// document's SHA-256, and each signer's authentication results. With it, anyone holding the file
// can recompute the chain and match the originals without this service. Its shape is declared
// once, here, as a zod schema; docs/evidence-record.schema.json is generated from it and
// docs/evidence-record.md explains it. It holds what the parties already see on the audit page
// and the Certificates of Evidence, nothing more (no tokens, codes or secrets).
import * as z from 'zod';
import { REMOVED_FROM_ORIGINAL, type TRemovedFromOriginal } from '#shared/pdf/strip-original';
import { actorCode } from '../bundles/actor';
import { CHAIN_START, eventHash, linkHash } from '../bundles/audit-chain';
import type { TBundle, TBundleEvent, TDocument, TPacket, TSignerIdentity } from '../bundles/bundle';
import { EVENT_KINDS } from '../bundles/event-kinds';
import type { TSigningRecord } from '../signing/signing-record';
import { authOf } from './certificate-input';
import { inEnglish } from './evidence-details';
import { signerSummary } from './signer-summary';

/** The file name of the attachment. */
export const EVIDENCE_RECORD_NAME = 'evidence-record.json';
export const EVIDENCE_RECORD_FORMAT = 'open-esign evidence record';

const sha256 = z.string().regex(/^[0-9a-f]{64}$/);
const time = z.string().min(1);
const ZIdentity = z.object({ name: z.string(), email: z.string().nullable(), phone: z.string().nullable() });

export const ZEvidenceRecord = z
  .object({
    format: z.literal(EVIDENCE_RECORD_FORMAT).describe('What this file is.'),
    version: z.literal(1).describe('The version of this format; a reader refuses one it does not know.'),
    issued_at: time.describe('When the final documents were made (ISO 8601, UTC).'),
    bundle: z
      .object({
        id: z.string(),
        label: z.string(),
        is_test: z.boolean().describe('A test bundle: signing it had no legal effect.'),
        created: time,
        sent: time.nullable(),
        completed_at: time.nullable(),
      })
      .describe('The bundle the signers signed.'),
    document: z
      .object({ key: z.string(), name: z.string(), original_sha256: sha256 })
      .describe(
        'The document this file is the final version of, and the SHA-256 of its original as uploaded.',
      ),
    documents: z
      .array(z.object({ key: z.string(), name: z.string(), original_sha256: sha256 }))
      .describe("Every document of the bundle, with its original's SHA-256."),
    removed_from_original: z
      .array(z.enum(REMOVED_FROM_ORIGINAL))
      .nullable()
      .default(null)
      .describe(
        "What the original carried that this file does not: its signatures (another signer's, or a form's usage rights), document JavaScript, actions run on opening or on events, embedded files, an XFA form. Empty when it had none of them; null in records that do not say.",
      ),
    signers: z
      .array(
        z.object({
          packet_id: z.string(),
          key: z.string(),
          name: z.string(),
          email: z.string().nullable(),
          phone: z.string().nullable(),
          status: z.string().describe('The signer status code of the API (co: signed).'),
          completed_at: time.nullable(),
          authentication: z
            .array(
              z.object({
                method: z.string(),
                result: z.string(),
                at: z.string(),
                detail: z.string().nullable(),
              }),
            )
            .describe('How the signer got in and each identity check, with its result.'),
          in_person: z
            .object({
              host_name: z.string(),
              host_email: z.string().nullable(),
              device: z.string().nullable().describe("The sender's label of the device, if it gave one."),
              started_at: time,
              ip: z.string().describe('The address of the device the kiosk link was opened on.'),
              user_agent: z.string().describe('The browser of that device.'),
              api_key_id: z.string().describe('The API key that made the kiosk link.'),
              user_id: z.string().nullable().describe("That key's user."),
            })
            .nullable()
            .describe(
              "Signed in person on the host's device (deliver_via kiosk, this service's own): who hosted and on which device; null otherwise.",
            ),
          handovers: z
            .array(
              z.object({
                from: ZIdentity,
                to: ZIdentity,
                reason: z.string(),
                at: time,
              }),
            )
            .describe(
              'Each time a signer of this packet handed it to another person, oldest first: who, to whom, why and when. The signer above is the last one it was handed to.',
            ),
        }),
      )
      .describe('Each signer and how they were authenticated.'),
    audit_trail: z
      .object({
        algorithm: z.literal('sha256'),
        chain_start: sha256.describe('What the first event links to: 64 zeros.'),
        head: sha256.describe(
          'The hash of the last event: the bundle kept this head when the file was made.',
        ),
        events: z.array(
          z.object({
            kind: z.string(),
            description: z.string(),
            timestamp: time,
            packet_id: z.string().nullable(),
            actor: z
              .string()
              .nullable()
              .default(null)
              .describe(
                'Who acted: `signer:<packet id>`, `api_key:<key id>`, `user:<user id>`, `portal:<envelope template id>`, `operator`, `scheduler` or `system`; null for events recorded before the service recorded it.',
              ),
            prev_hash: sha256,
            hash: sha256,
          }),
        ),
      })
      .describe(
        'The audit events, oldest first. Each hash is the SHA-256 (hex) of the UTF-8 JSON text of the array [prev_hash, kind, description, timestamp, packet_id, actor] (without actor when it is null), and each prev_hash is the hash of the event before it (chain_start for the first).',
      ),
  })
  .describe('The evidence record of a final document.');

export type TEvidenceRecord = z.infer<typeof ZEvidenceRecord>;

const identityOf = (s: TSignerIdentity) => ({ name: s.name, email: s.email ?? null, phone: s.phone ?? null });

/** The record of `doc`'s final file, from what the document worker has read for the bundle. */
export function evidenceRecord(input: {
  bundle: TBundle;
  doc: TDocument;
  documents: TDocument[];
  events: TBundleEvent[];
  records: TSigningRecord[];
  chainHead: string;
  issuedAt: string;
  /** What rendering the final document took out of the original. */
  removedFromOriginal: TRemovedFromOriginal[];
}): TEvidenceRecord {
  const { bundle: b } = input;
  // A packet handed on: its last signer's opening, not an earlier signer's.
  const viewed = (p: TPacket) =>
    input.events.find(
      (e) =>
        e.packetId === p.id &&
        e.kind === EVENT_KINDS.viewed.code &&
        e.timestamp >= (p.handovers?.at(-1)?.at ?? ''),
    )?.timestamp;
  const docOf = (d: TDocument) => ({ key: d.key, name: d.name, original_sha256: d.sha256 });
  return {
    format: EVIDENCE_RECORD_FORMAT,
    version: 1,
    issued_at: input.issuedAt,
    bundle: {
      id: b.id,
      label: b.label,
      is_test: b.isTest,
      created: b.created,
      sent: b.sent ?? null,
      completed_at: b.completedAt ?? null,
    },
    document: docOf(input.doc),
    documents: input.documents.map(docOf),
    removed_from_original: input.removedFromOriginal,
    signers: b.packets.map((p) => {
      const record = input.records.find((r) => r.packetId === p.id);
      return {
        ...signerSummary(p),
        authentication: authOf(p, record, viewed(p)).map((a) => ({
          method: a.method,
          result: a.result,
          at: a.at,
          detail: a.detail ? inEnglish(a.detail) : null,
        })),
        in_person: inPersonOf(record),
        handovers: (p.handovers ?? []).map((h) => ({
          from: identityOf(h.from),
          to: identityOf(h.to),
          reason: h.reason,
          at: h.at,
        })),
      };
    }),
    audit_trail: {
      algorithm: 'sha256',
      chain_start: CHAIN_START,
      head: input.chainHead,
      events: input.events.map((e) => ({
        kind: e.kind,
        description: e.description,
        timestamp: e.timestamp,
        packet_id: e.packetId ?? null,
        actor: e.actor ? actorCode(e.actor) : null,
        prev_hash: e.prevHash ?? CHAIN_START,
        hash: eventHash(e),
      })),
    },
  };
}

function inPersonOf(record: TSigningRecord | undefined): TEvidenceRecord['signers'][number]['in_person'] {
  const p = record?.inPerson;
  if (!p) return null;
  return {
    host_name: p.name,
    host_email: p.email ?? null,
    device: p.device ?? null,
    started_at: p.startedAt,
    ip: p.ip,
    user_agent: p.userAgent,
    api_key_id: p.keyId,
    user_id: p.userId ?? null,
  };
}

export interface TEvidenceRecordCheck {
  /** Every event's hash is what its fields and link give, and each links to the one before. */
  chainIntact: boolean;
  /** The first event (0-based) whose hash or link does not hold. */
  brokenAt?: number;
  /** The last event's hash is the record's head. */
  headMatches: boolean;
  /** The record's SHA-256 of each original given (by document key): true when they match. */
  originals: Record<string, boolean>;
  problems: string[];
}

/**
 * Checks a record by itself, offline: recomputes the hash chain from the events as audit-chain.ts
 * computes it, and compares the originals' SHA-256 with those given (files the reader has).
 */
export function checkEvidenceRecord(
  record: TEvidenceRecord,
  given: { originalSha256s?: Record<string, string> } = {},
): TEvidenceRecordCheck {
  const problems: string[] = [];
  let head = record.audit_trail.chain_start;
  let brokenAt: number | undefined;
  for (const [i, e] of record.audit_trail.events.entries()) {
    const recomputed = linkHash({
      prevHash: e.prev_hash,
      kind: e.kind,
      description: e.description,
      timestamp: e.timestamp,
      packetId: e.packet_id,
      actor: e.actor,
    });
    if (e.prev_hash !== head || recomputed !== e.hash) {
      brokenAt = i;
      problems.push(
        e.prev_hash !== head
          ? `event ${i + 1} does not link to the event before it`
          : `event ${i + 1} was changed (its hash is not that of its fields)`,
      );
      break;
    }
    head = recomputed;
  }
  const chainIntact = brokenAt === undefined && record.audit_trail.chain_start === '0'.repeat(64);
  const headMatches = brokenAt === undefined && head === record.audit_trail.head;
  if (brokenAt === undefined && !headMatches)
    problems.push('the last event is not the head the record names');
  const originals: Record<string, boolean> = {};
  for (const [key, sha] of Object.entries(given.originalSha256s ?? {})) {
    const doc = record.documents.find((d) => d.key === key);
    originals[key] = doc?.original_sha256 === sha.toLowerCase();
    if (!originals[key])
      problems.push(doc ? `the original of "${key}" is not the file given` : `no document "${key}"`);
  }
  return { chainIntact, ...(brokenAt !== undefined ? { brokenAt } : {}), headMatches, originals, problems };
}

/** The record in JSON bytes (pretty, so a person can read it as it is). */
export const evidenceRecordBytes = (record: TEvidenceRecord) =>
  new TextEncoder().encode(`${JSON.stringify(record, null, 2)}\n`);

/** A record read from a file: parsed and checked against the schema (undefined: not one of ours). */
export function parseEvidenceRecord(bytes: Uint8Array): TEvidenceRecord | undefined {
  try {
    const parsed = ZEvidenceRecord.safeParse(JSON.parse(new TextDecoder().decode(bytes)));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
