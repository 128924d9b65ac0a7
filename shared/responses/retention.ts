import type { TRetentionDays } from '#shared/domain/accounts/account';
import { actorCode } from '#shared/domain/bundles/actor';
import type { TBundle } from '#shared/domain/bundles/bundle';
import type { TBundleRetentionResponse, TRetentionPolicyResponse } from '#shared/schemas/responses/retention';

export function toRetentionPolicyResponse(p: TRetentionDays | undefined): TRetentionPolicyResponse {
  return {
    originals_days: p?.originals ?? null,
    finals_days: p?.finals ?? null,
    images_days: p?.images ?? null,
  };
}

export function toBundleRetentionResponse(b: TBundle): TBundleRetentionResponse {
  const r = b.retention;
  return {
    bundle_id: b.id,
    policy: r?.policy ? toRetentionPolicyResponse(r.policy) : null,
    legal_hold: r?.hold ? { set_at: r.hold.at, set_by: actorCode(r.hold.actor) } : null,
    deleted: {
      originals: r?.deleted?.originals ?? null,
      finals: r?.deleted?.finals ?? null,
      images: r?.deleted?.images ?? null,
    },
  };
}
