import * as z from 'zod';
import type { TDocument, TField } from '../bundles/bundle';
import { isCalculated } from '../bundles/calculated-fields';
import { PermissionDeniedError, said, type TFieldError, ValidationError } from '../errors';
import { parseInput } from '../parse-input';
import { valueProblem } from './check-value';
import { isEditableBy, isSenderLocked, visibleRecords } from './field-access';
import { conditionStates, withoutHidden } from './field-visibility';
import {
  documentsOf,
  recordsWith,
  saveStep,
  type TSignerCall,
  type TSignerContext,
  whileSigning,
} from './signer-context';
import { authComplete } from './signer-state';
import { signingObjectPrefix, type TFieldValue, valueKey } from './signing-record';

const MAX_IMAGE_BYTES = 200 * 1024;
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const ZValues = z.object({
  values: z
    .array(
      z.object({
        doc_key: z.string().max(100),
        field_key: z.string().max(100),
        value: z.string().max(20_000).optional(),
        image: z.string().max(400_000).optional(),
      }),
    )
    .min(1, 'Give at least one value.')
    .max(500, 'At most 500 values at once.'),
});

/** Refuses signing calls of a signer who has not passed the identity checks their packet asks for. */
export function assertAuthenticated(ctx: TSignerContext): void {
  if (!authComplete(ctx))
    throw said(new PermissionDeniedError('Complete the identity checks first.'), 'errors.checksFirst');
}

export function findField(docs: TDocument[], docKey: string, fieldKey: string): TField | undefined {
  return docs.find((d) => d.key === docKey)?.fields.find((f) => f.key === fieldKey);
}

/**
 * A drawing's pixels: a signature pad's canvas, even at three device pixels a point, is far
 * below this. The document worker decodes the PNG in full to stamp it, and 200 KB of PNG can
 * claim gigapixels.
 */
const MAX_DRAWING_PIXELS = 4_000_000;
const MAX_DRAWING_SIDE = 4_000;

function drawnImage(dataUrl: string): Buffer | undefined {
  const m = /^data:image\/png;base64,([A-Za-z0-9+/=]+)$/.exec(dataUrl);
  if (!m) return undefined;
  const bytes = Buffer.from(m[1]!, 'base64');
  if (bytes.length > MAX_IMAGE_BYTES || bytes.length < 24 || !bytes.subarray(0, 8).equals(PNG_MAGIC))
    return undefined;
  // The header chunk comes first: its width and height.
  const [width, height] = [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
  if (width > MAX_DRAWING_SIDE || height > MAX_DRAWING_SIDE || width * height > MAX_DRAWING_PIXELS)
    return undefined;
  return bytes;
}

/**
 * Saves values the signer gave (progress; nothing is final until they finish). Every value is
 * checked against its field's rules first, and nothing is saved if any is wrong; a field that
 * is not this signer's to fill is refused as a whole (403). Drawn marks are stored as PNG
 * images in the documents bucket, the value saying "drawn".
 */
export async function saveValues(call: TSignerCall, body: unknown): Promise<TSignerContext> {
  const { deps, client } = call;
  const input = parseInput(ZValues, body);
  // whileSigning refuses once the signer decided (decision.ts): a finish then keeps the values it
  // checked, also between its record write and the bundle change.
  return whileSigning(call, async (ctx) => {
    assertAuthenticated(ctx);
    // Read side by side: neither needs the other.
    const [docs, all] = await Promise.all([documentsOf(deps, ctx), recordsWith(deps, ctx)]);
    const errors: TFieldError[] = [];
    const images = new Map<string, Buffer>();
    for (const v of input.values) {
      const path = `${v.doc_key}.${v.field_key}`;
      const field = findField(docs, v.doc_key, v.field_key);
      if (!field) {
        errors.push({ field: path, message: 'No such field.' });
        continue;
      }
      if (isSenderLocked(field))
        throw said(
          new PermissionDeniedError(
            `The field "${path}" was filled in by the sender and is read-only: it cannot be changed.`,
          ),
          'prefill.lockedField',
        );
      // Refused rather than ignored: a client that sends one expects it kept, and it never is.
      if (isCalculated(field)) {
        errors.push({
          field: path,
          message: 'This field is calculated from its formula: send no value for it.',
        });
        continue;
      }
      if (!isEditableBy(v.doc_key, field, ctx.packet, all, ctx.bundle.packets)) {
        throw new PermissionDeniedError(`The field "${path}" is not yours to fill.`);
      }
      if (v.image !== undefined) {
        if (field.kind !== 'sig' && field.kind !== 'ini') {
          errors.push({ field: path, message: 'Only signature and initials fields take a drawing.' });
          continue;
        }
        const png = drawnImage(v.image);
        if (!png)
          errors.push({
            field: path,
            message: 'The drawing must be a PNG data URL of at most 200 KB and 4 megapixels.',
          });
        else images.set(valueKey(v.doc_key, v.field_key), png);
        continue;
      }
      const problem = valueProblem(field, v.value ?? '');
      if (problem) errors.push({ field: path, ...problem });
    }
    if (errors.length > 0)
      throw said(new ValidationError('Some values are not valid.', errors), 'errors.valuesInvalid');

    const at = deps.clock.now().toISOString();
    const values: Record<string, TFieldValue> = { ...ctx.record.values };
    for (const v of input.values) {
      const key = valueKey(v.doc_key, v.field_key);
      const png = images.get(key);
      if (png) {
        const blobKey = `${signingObjectPrefix(ctx.bundle.accountId, ctx.bundle.id)}${ctx.packet.id}/marks/${v.doc_key}/${v.field_key}-${Date.parse(at)}.png`;
        await deps.blobs.put(blobKey, png, 'image/png');
        values[key] = {
          value: 'drawn',
          filledAt: at,
          ip: client.ip,
          userAgent: client.userAgent,
          blobKey,
          size: png.length,
          contentType: 'image/png',
        };
      } else if ((v.value ?? '') === '') {
        delete values[key];
      } else {
        values[key] = { value: v.value!, filledAt: at, ip: client.ip, userAgent: client.userAgent };
      }
    }
    // A field its conditions hide (given the values as they are now) holds nothing: a value given
    // to it, or one it held before this change hid it, is dropped.
    const seen = visibleRecords(
      all.map((r) => (r.packetId === ctx.packet.id ? { ...r, values } : r)),
      ctx.packet.id,
      ctx.bundle.packets,
    );
    const kept = withoutHidden(values, docs, conditionStates(docs, seen, ctx.bundle.packets));
    const detail = input.values
      .map((v) => `${v.doc_key}.${v.field_key}`)
      .join(', ')
      .slice(0, 300);
    return saveStep(call, ctx, { values: kept }, 'saved values', at, detail);
  });
}
