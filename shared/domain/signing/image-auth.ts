import { ConflictError, said, ValidationError } from '../errors';
import type { TIdVerifier } from '../ports/signing';
import { saveStep, type TSignerCall, type TSignerContext, whileSigning } from './signer-context';
import { signingObjectPrefix } from './signing-record';

export const MAX_AUTH_IMAGE_BYTES = 5 * 1024 * 1024;

export type TImage = { bytes: Buffer; contentType: string };

function imageType(bytes: Buffer): 'png' | 'jpg' | undefined {
  if (bytes.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]))) return 'png';
  if (bytes.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))) return 'jpg';
  return undefined;
}

function checkImage(image: TImage | undefined, field: string): 'png' | 'jpg' {
  const fail = (message: string, key: string) =>
    said(
      new ValidationError('The image is not accepted.', [{ field, message, said: { key: `errors.${key}` } }]),
      'errors.imageRejected',
    );
  if (!image || image.bytes.length === 0) throw fail('An image is required.', 'imageRequired');
  if (image.bytes.length > MAX_AUTH_IMAGE_BYTES) throw fail('At most 5 MB.', 'imageTooLarge');
  const type = imageType(image.bytes);
  if (!type) throw fail('A JPEG or PNG image is expected.', 'imageType');
  return type;
}

function assertStep(ctx: TSignerContext, step: 'selfie' | 'id') {
  if (step === 'selfie' ? !ctx.packet.authSelfie : !ctx.packet.authId) {
    throw new ConflictError(`This signer has no ${step === 'selfie' ? 'selfie' : 'ID'} check.`);
  }
}

async function store(
  call: TSignerCall,
  ctx: TSignerContext,
  name: string,
  image: TImage,
  type: string,
  at: string,
) {
  const key = `${signingObjectPrefix(ctx.bundle.accountId, ctx.bundle.id)}${ctx.packet.id}/auth/${name}-${Date.parse(at)}.${type}`;
  await call.deps.blobs.put(key, image.bytes, type === 'png' ? 'image/png' : 'image/jpeg');
  return key;
}

/** A photo of the signer taken before signing, kept as evidence; taking it passes the step. */
export async function submitSelfie(call: TSignerCall, image: TImage | undefined) {
  const { deps, client } = call;
  const type = checkImage(image, 'image');
  return whileSigning(call, async (ctx) => {
    assertStep(ctx, 'selfie');
    const at = deps.clock.now().toISOString();
    const key = await store(call, ctx, 'selfie', image!, type, at);
    const selfie = { blobKeys: [key], at, ip: client.ip, userAgent: client.userAgent, passedAt: at };
    return saveStep(call, ctx, { auth: { ...ctx.record.auth, selfie } }, 'selfie taken', at);
  });
}

/**
 * Images of an identity document, front and back, kept as evidence and given to the verification
 * provider; the step passes unless the provider rejects them (the local provider only collects).
 */
export async function submitId(
  call: TSignerCall<{ idVerifier: TIdVerifier }>,
  images: { front?: TImage; back?: TImage },
) {
  const { deps, client } = call;
  const frontType = checkImage(images.front, 'front');
  const backType = checkImage(images.back, 'back');
  return whileSigning(call, async (ctx) => {
    assertStep(ctx, 'id');
    const at = deps.clock.now().toISOString();
    const front = await store(call, ctx, 'id-front', images.front!, frontType, at);
    const back = await store(call, ctx, 'id-back', images.back!, backType, at);
    const result = await deps.idVerifier.verify({ front, back, name: ctx.packet.name });
    const id = {
      blobKeys: [front, back],
      at,
      ip: client.ip,
      userAgent: client.userAgent,
      result,
      ...(result.status === 'rejected' ? {} : { passedAt: at }),
    };
    const saved = await saveStep(
      call,
      ctx,
      { auth: { ...ctx.record.auth, id } },
      `id check ${result.status}`,
      at,
      result.provider,
    );
    if (result.status === 'rejected') {
      throw said(
        new ValidationError('The identity document could not be verified.', [
          { field: 'front', message: 'Try clearer photos.', said: { key: 'errors.idClearer' } },
        ]),
        'errors.idNotVerified',
      );
    }
    return saved;
  });
}
