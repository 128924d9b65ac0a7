import type { TIdVerifier } from '../../ports/signing';
import { ConflictError, ValidationError } from '../errors';
import {
  cannotSign,
  cannotSignError,
  changeSigner,
  saveRecord,
  type TClient,
  type TSignerContext,
  type TSigningDeps,
  withStep,
} from './signer-context';

export const MAX_AUTH_IMAGE_BYTES = 5 * 1024 * 1024;

export type TImage = { bytes: Buffer; contentType: string };

function imageType(bytes: Buffer): 'png' | 'jpg' | undefined {
  if (bytes.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]))) return 'png';
  if (bytes.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))) return 'jpg';
  return undefined;
}

function checkImage(image: TImage | undefined, field: string): 'png' | 'jpg' {
  const fail = (message: string) => new ValidationError('The image is not accepted.', [{ field, message }]);
  if (!image || image.bytes.length === 0) throw fail('An image is required.');
  if (image.bytes.length > MAX_AUTH_IMAGE_BYTES) throw fail('At most 5 MB.');
  const type = imageType(image.bytes);
  if (!type) throw fail('A JPEG or PNG image is expected.');
  return type;
}

function assertStep(ctx: TSignerContext, step: 'selfie' | 'id') {
  const reason = cannotSign(ctx.bundle, ctx.packet, ctx.now);
  if (reason) throw cannotSignError(reason);
  if (step === 'selfie' ? !ctx.packet.authSelfie : !ctx.packet.authId) {
    throw new ConflictError(`This signer has no ${step === 'selfie' ? 'selfie' : 'ID'} check.`);
  }
}

async function store(
  deps: TSigningDeps,
  ctx: TSignerContext,
  name: string,
  image: TImage,
  type: string,
  at: string,
) {
  const key = `signing/${ctx.bundle.id}/${ctx.packet.id}/auth/${name}-${Date.parse(at)}.${type}`;
  await deps.blobs.put(key, image.bytes, type === 'png' ? 'image/png' : 'image/jpeg');
  return key;
}

/** A photo of the signer taken before signing, kept as evidence; taking it passes the step. */
export async function submitSelfie(
  deps: TSigningDeps,
  signer: TSignerContext,
  image: TImage | undefined,
  client: TClient,
) {
  const type = checkImage(image, 'image');
  return changeSigner(deps, signer, async (ctx) => {
    assertStep(ctx, 'selfie');
    const at = deps.clock.now().toISOString();
    const key = await store(deps, ctx, 'selfie', image!, type, at);
    const selfie = { blobKeys: [key], at, ip: client.ip, userAgent: client.userAgent, passedAt: at };
    const record = await saveRecord(
      deps,
      ctx,
      withStep({ ...ctx.record, auth: { ...ctx.record.auth, selfie } }, client, 'selfie taken', at),
    );
    return { ...ctx, record, stored: true };
  });
}

/**
 * Images of an identity document, front and back, kept as evidence and given to the verification
 * provider; the step passes unless the provider rejects them (the local provider only collects).
 */
export async function submitId(
  deps: TSigningDeps & { idVerifier: TIdVerifier },
  signer: TSignerContext,
  images: { front?: TImage; back?: TImage },
  client: TClient,
) {
  const frontType = checkImage(images.front, 'front');
  const backType = checkImage(images.back, 'back');
  return changeSigner(deps, signer, async (ctx) => {
    assertStep(ctx, 'id');
    const at = deps.clock.now().toISOString();
    const front = await store(deps, ctx, 'id-front', images.front!, frontType, at);
    const back = await store(deps, ctx, 'id-back', images.back!, backType, at);
    const result = await deps.idVerifier.verify({ front, back, name: ctx.packet.name });
    const id = {
      blobKeys: [front, back],
      at,
      ip: client.ip,
      userAgent: client.userAgent,
      result,
      ...(result.status === 'rejected' ? {} : { passedAt: at }),
    };
    const record = await saveRecord(
      deps,
      ctx,
      withStep(
        { ...ctx.record, auth: { ...ctx.record.auth, id } },
        client,
        `id check ${result.status}`,
        at,
        result.provider,
      ),
    );
    if (result.status === 'rejected') {
      throw new ValidationError('The identity document could not be verified.', [
        { field: 'front', message: 'Try clearer photos.' },
      ]);
    }
    return { ...ctx, record, stored: true };
  });
}
