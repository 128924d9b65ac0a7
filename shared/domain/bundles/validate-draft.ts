import type { TBundleStore } from '../ports/bundles';
import { getBundle } from './get-bundle';
import { isDraft } from './lifecycle/status';

/**
 * PUT /bundles/{id}/validate/ (the official clients call it before sending a draft). Everything
 * a draft holds was checked when it was created, so a draft can be sent; anything else cannot.
 */
export async function validateDraft(deps: { bundles: TBundleStore }, accountId: string, id: string) {
  const b = await getBundle(deps, accountId, id);
  const canSend = isDraft(b.status);
  return {
    can_send: canSend,
    msg: canSend ? 'The draft can be sent.' : `Only a draft can be sent; this bundle is "${b.status}".`,
    n_docs: b.documents.length,
  };
}
