// Keys and entity of the Envelope Template, declared once. Ids are global (the public portal page
// finds a template by its id alone), so the template is its own partition and carries its account.
import type { TEnvelopeTemplate } from '#shared/domain/envelope-templates/envelope-template';
import { defineEntity } from '../entity';
import { accountPartition } from './account-partition';

export const envelopeTemplateKeys = {
  item: (id: string) => ({ pk: `ENVTEMPLATE#${id}`, sk: 'ENVTEMPLATE' }),
  /** by-list-order: enabled templates only, newest first (the API's list). */
  listPartition: (accountId: string) => `${accountPartition(accountId)}#ENVTEMPLATES`,
  /** by-list-order: the disabled ones, so an account's export finds every template it has. */
  disabledPartition: (accountId: string) => `${accountPartition(accountId)}#ENVTEMPLATES_DISABLED`,
  /**
   * `<created>#<id>#<s|p>#<owner>`: who may use a template is read from the keys-only index, so a
   * list counts and pages the visible ones without reading any other.
   */
  listOrder: (t: TEnvelopeTemplate) => ({
    lpk: envelopeTemplateKeys.listPartition(t.accountId),
    lsk: `${t.created}#${t.id}#${t.isShared ? 's' : 'p'}#${t.owner ?? ''}`,
  }),
  /** Where the template is listed: its list keys, in the disabled partition when disabled. */
  listKeys: (t: TEnvelopeTemplate) =>
    t.enabled
      ? envelopeTemplateKeys.listOrder(t)
      : { ...envelopeTemplateKeys.listOrder(t), lpk: envelopeTemplateKeys.disabledPartition(t.accountId) },
  /**
   * `legacy`: a key written before it carried sharing and owner (`<created>#<T-slug>`); the list
   * then asks the item itself.
   */
  parseListOrder: (lsk: string) => {
    const parts = lsk.split('#');
    const [, id, shared, owner] = parts;
    return { id: id ?? '', isShared: shared === 's', ...(owner ? { owner } : {}), legacy: parts.length < 4 };
  },
};

/**
 * An enabled template's list keys are in the list partition, a disabled one's in its own: the
 * list reads enabled ones only, an export both.
 */
export const envelopeTemplateEntity = defineEntity<TEnvelopeTemplate>({
  name: 'envelope-template',
  // 2: a signer role may carry the packet `role` of its people; a version 1 item has none (every
  // role signs) and reads as it is.
  // 3: a disabled template has list keys in the disabled partition; one written disabled by an
  // earlier version has none until `npm run admin -- migrate` gives it them (infra/admin/upgrades/), or a
  // change writes it again.
  version: 3,
  key: (t) => envelopeTemplateKeys.item(t.id),
  indexes: { byListOrder: envelopeTemplateKeys.listKeys },
  encode: (t) => ({
    id: t.id,
    accountId: t.accountId,
    owner: t.owner,
    name: t.name,
    description: t.description,
    isShared: t.isShared,
    isPortal: t.isPortal,
    allowDirectSigning: t.allowDirectSigning,
    enabled: t.enabled,
    documents: t.documents,
    signers: t.signers,
    defaults: t.defaults,
    created: t.created,
    updated: t.updated,
    version: t.version,
  }),
  decode: (item) => ({
    id: item.id as string,
    accountId: item.accountId as string,
    ...(typeof item.owner === 'string' ? { owner: item.owner } : {}),
    name: item.name as string,
    description: (item.description as string) ?? '',
    isShared: Boolean(item.isShared),
    isPortal: Boolean(item.isPortal),
    allowDirectSigning: Boolean(item.allowDirectSigning),
    enabled: Boolean(item.enabled),
    documents: (item.documents as TEnvelopeTemplate['documents']) ?? [],
    signers: (item.signers as TEnvelopeTemplate['signers']) ?? [],
    defaults: (item.defaults as TEnvelopeTemplate['defaults']) ?? { inOrder: false, sendReminders: false },
    created: item.created as string,
    updated: item.updated as string,
    version: item.version as number,
  }),
});
