import { MAX_ATTACHMENT_BYTES } from '../../text/value-rules.js';
import { said, ValidationError } from '../errors';
import { isEditableBy } from './field-access';
import { assertAuthenticated, findField } from './save-values';
import { recordsWith, saveStep, type TSignerCall, type TSignerContext, whileSigning } from './signer-context';
import { signingObjectPrefix, valueKey } from './signing-record';

// The largest attachment a signer may upload, whatever the field allows: the page's rule too.
export { MAX_ATTACHMENT_BYTES };

/** File extensions and the content types a browser sends for them. */
const TYPES: Record<string, string[]> = {
  jpg: ['image/jpeg'],
  jpeg: ['image/jpeg'],
  png: ['image/png'],
  gif: ['image/gif'],
  svg: ['image/svg+xml'],
  pdf: ['application/pdf'],
  doc: ['application/msword'],
  docx: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  ppt: ['application/vnd.ms-powerpoint'],
  pptx: ['application/vnd.openxmlformats-officedocument.presentationml.presentation'],
  xls: ['application/vnd.ms-excel'],
  xlsx: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
  rtf: ['application/rtf', 'text/rtf'],
  txt: ['text/plain'],
};

/** Leading bytes of the types that have them: a file must be what its name says. */
const MAGIC: Record<string, number[]> = {
  pdf: [0x25, 0x50, 0x44, 0x46],
  png: [0x89, 0x50, 0x4e, 0x47],
  jpg: [0xff, 0xd8, 0xff],
  jpeg: [0xff, 0xd8, 0xff],
  gif: [0x47, 0x49, 0x46, 0x38],
};

export interface TUpload {
  bytes: Buffer;
  fileName: string;
  contentType: string;
}

function extensionOf(name: string): string {
  const m = /\.([A-Za-z0-9]{1,5})$/.exec(name);
  return m ? m[1]!.toLowerCase() : '';
}

/**
 * Uploads an attachment for an `att` field: its type must be one the field allows (by extension,
 * content type and, where the format has them, leading bytes) and its size within the field's
 * v_min/v_max (KB). Kept in the documents bucket; the value is the file name.
 */
export async function uploadAttachment(
  call: TSignerCall,
  target: { docKey?: string; fieldKey?: string },
  upload: TUpload,
): Promise<TSignerContext> {
  const { deps, client } = call;
  const path = `${target.docKey ?? ''}.${target.fieldKey ?? ''}`;
  const fail = (message: string) =>
    said(
      new ValidationError('The attachment is not accepted.', [{ field: path, message }]),
      'errors.attachmentRejected',
    );
  return whileSigning(call, async (ctx) => {
    assertAuthenticated(ctx);
    const docs = await deps.bundles.documents(ctx.bundle);
    const field =
      target.docKey && target.fieldKey ? findField(docs, target.docKey, target.fieldKey) : undefined;
    if (field?.kind !== 'att') throw fail('No attachment field by that name.');
    const all = await recordsWith(deps, ctx);
    if (!isEditableBy(target.docKey!, field, ctx.packet, all, ctx.bundle.packets)) {
      throw fail('This field is not yours to fill.');
    }
    const ext = extensionOf(upload.fileName);
    const allowed = field.vAttachmentTypes?.length ? field.vAttachmentTypes : Object.keys(TYPES);
    if (!allowed.includes(ext)) throw fail(`Upload one of: ${allowed.join(', ')}.`);
    const type = upload.contentType.split(';')[0]!.trim().toLowerCase();
    if (!TYPES[ext]!.includes(type) && type !== 'application/octet-stream') {
      throw fail(`A .${ext} file must be sent as ${TYPES[ext]!.join(' or ')}.`);
    }
    const magic = MAGIC[ext];
    if (magic && !magic.every((b, i) => upload.bytes[i] === b)) throw fail(`This is not a .${ext} file.`);
    const kb = upload.bytes.length / 1024;
    if (upload.bytes.length === 0) throw fail('The file is empty.');
    if (upload.bytes.length > MAX_ATTACHMENT_BYTES) throw fail('At most 10 MB.');
    if (field.vMin !== undefined && kb < field.vMin) throw fail(`At least ${field.vMin} KB.`);
    if (field.vMax !== undefined && kb > field.vMax) throw fail(`At most ${field.vMax} KB.`);

    const at = deps.clock.now().toISOString();
    const safeName = upload.fileName.replace(/[^\w.-]+/g, '_').slice(-100);
    const blobKey = `${signingObjectPrefix(ctx.bundle.accountId, ctx.bundle.id)}${ctx.packet.id}/attachments/${target.docKey}/${target.fieldKey}-${Date.parse(at)}-${safeName}`;
    // An SVG can carry script: kept as plain bytes, so its link downloads it rather than
    // rendering it on the bucket's origin.
    const storedType = ext === 'svg' ? 'application/octet-stream' : TYPES[ext]![0]!;
    await deps.blobs.put(blobKey, upload.bytes, storedType);
    const values = {
      ...ctx.record.values,
      [valueKey(target.docKey!, target.fieldKey!)]: {
        value: upload.fileName.slice(0, 200),
        filledAt: at,
        ip: client.ip,
        userAgent: client.userAgent,
        blobKey,
        size: upload.bytes.length,
        contentType: storedType,
      },
    };
    return saveStep(call, ctx, { values }, 'uploaded attachment', at, path);
  });
}
