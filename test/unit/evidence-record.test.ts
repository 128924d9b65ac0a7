// The evidence record a final document carries: its hash chain recomputes offline exactly as the
// service computed it, any changed, removed or reordered event or a wrong head is found with its
// place, and its published JSON Schema is the one generated from the record's zod schema.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { withChain } from '#shared/domain/bundles/audit-chain';
import type { TDocument } from '#shared/domain/bundles/bundle';
import {
  checkEvidenceRecord,
  evidenceRecord,
  evidenceRecordBytes,
  parseEvidenceRecord,
  type TEvidenceRecord,
  ZEvidenceRecord,
} from '#shared/domain/evidence/evidence-record';
import { aBundleItem, aPacketItem } from '../helpers/bundle-items';
import { event } from '../helpers/stored-events';

const SCHEMA_FILE = join(__dirname, '..', '..', 'docs', 'evidence-record.schema.json');
const AT = '2026-11-24T10:00:00.000Z';
const SHA = 'a'.repeat(64);

function aRecord(): TEvidenceRecord {
  const b = withChain(
    undefined,
    aBundleItem({
      status: 'co',
      created: AT,
      sent: AT,
      completedAt: AT,
      packets: [
        aPacketItem('P1', { key: 'ann', name: 'Ann Lee', authSms: true, status: 'co', completedAt: AT }),
      ],
      events: [
        event('created', AT),
        event('sent', AT),
        event('viewed', AT, 'P1', 'Ann Lee'),
        event('packetCompleted', AT, 'P1', 'Ann Lee'),
        event('completed', AT),
      ],
    }),
  );
  const doc = { key: 'lease', name: 'Lease.pdf', sha256: SHA } as TDocument;
  return evidenceRecord({
    bundle: b,
    doc,
    documents: [doc],
    events: b.events,
    records: [],
    chainHead: b.chainHead!,
    issuedAt: AT,
    removedFromOriginal: ['usage_rights', 'xfa'],
  });
}

describe('the evidence record', () => {
  it('holds the chain as the service computed it, and checks out by itself', () => {
    const record = aRecord();
    expect(record.audit_trail.events).toHaveLength(5);
    expect(record.signers[0]!.authentication.map((a) => a.method)).toEqual([
      'signing link by email',
      'sms code',
    ]);
    expect(checkEvidenceRecord(record, { originalSha256s: { lease: SHA } })).toEqual({
      chainIntact: true,
      headMatches: true,
      originals: { lease: true },
      problems: [],
    });
    // It survives its own JSON form.
    expect(parseEvidenceRecord(evidenceRecordBytes(record))).toEqual(record);
  });

  it('finds a changed, removed or reordered event, and a wrong head, with its place', () => {
    const changed = aRecord();
    changed.audit_trail.events[2]!.description = 'Signer opened nothing';
    expect(checkEvidenceRecord(changed)).toMatchObject({
      chainIntact: false,
      brokenAt: 2,
      headMatches: false,
    });

    const removed = aRecord();
    removed.audit_trail.events.splice(1, 1);
    expect(checkEvidenceRecord(removed)).toMatchObject({ chainIntact: false, brokenAt: 1 });

    const reordered = aRecord();
    const [a, b] = [reordered.audit_trail.events[3]!, reordered.audit_trail.events[4]!];
    reordered.audit_trail.events[3] = b;
    reordered.audit_trail.events[4] = a;
    expect(checkEvidenceRecord(reordered)).toMatchObject({ chainIntact: false, brokenAt: 3 });

    const head = aRecord();
    head.audit_trail.head = 'b'.repeat(64);
    expect(checkEvidenceRecord(head)).toMatchObject({
      chainIntact: true,
      headMatches: false,
      problems: ['the last event is not the head the record names'],
    });
  });

  it('says when an original given is not the one it names', () => {
    expect(checkEvidenceRecord(aRecord(), { originalSha256s: { lease: 'c'.repeat(64) } })).toMatchObject({
      originals: { lease: false },
      problems: ['the original of "lease" is not the file given'],
    });
  });

  it('checks out with the few lines of Node that docs/evidence-record.md gives, and not when changed', () => {
    const doc = readFileSync(join(__dirname, '..', '..', 'docs', 'evidence-record.md'), 'utf8');
    const code = /```js\n([\s\S]*?)```/.exec(doc)![1]!;
    const dir = mkdtempSync(join(tmpdir(), 'evidence-record-'));
    try {
      const run = (record: TEvidenceRecord) => {
        writeFileSync(join(dir, 'record.json'), evidenceRecordBytes(record));
        return spawnSync(process.execPath, ['-e', code], { cwd: dir, encoding: 'utf8' });
      };
      expect(run(aRecord()).stdout.trim()).toBe('chain intact');
      const changed = aRecord();
      changed.audit_trail.events[1]!.timestamp = '2026-11-25T00:00:00.000Z';
      expect(run(changed).stderr).toContain('event 2 does not hold');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is refused when it is not of this format', () => {
    const other = { ...aRecord(), version: 2 };
    expect(parseEvidenceRecord(new TextEncoder().encode(JSON.stringify(other)))).toBeUndefined();
    expect(parseEvidenceRecord(new TextEncoder().encode('not json'))).toBeUndefined();
  });

  it('has its published JSON Schema generated from the record’s schema (UPDATE_SCHEMAS=1 rewrites it)', () => {
    const generated = `${JSON.stringify(z.toJSONSchema(ZEvidenceRecord), null, 2)}\n`;
    if (process.env.UPDATE_SCHEMAS === '1') writeFileSync(SCHEMA_FILE, generated);
    // Compared as JSON: the file's layout is the formatter's.
    expect(JSON.parse(readFileSync(SCHEMA_FILE, 'utf8'))).toEqual(JSON.parse(generated));
    // And a record the service makes has every field the schema requires.
    const schema = JSON.parse(generated) as { required: string[] };
    expect(Object.keys(aRecord()).sort()).toEqual([...schema.required].sort());
  });
});
