// Keys and entity of the document template, declared once.
import type { TDocTemplate } from '#shared/domain/templates/doc-template';
import { defineEntity } from '../entity';
import { accountPartition } from './account-partition';

export const docTemplateKeys = {
  /** The template itself, in its account's partition. */
  item: (accountId: string, id: string) => ({ pk: accountPartition(accountId), sk: `DOCTEMPLATE#${id}` }),
  /** by-list-order: newest first (queried backwards). */
  listPartition: (accountId: string) => `${accountPartition(accountId)}#DOCTEMPLATES`,
  /**
   * `<created>#<id>#<s|p>#<owner>#<team>`: who may see a template is read from the keys-only
   * index, so a list counts and pages the visible ones without reading any other.
   */
  listOrder: (t: TDocTemplate) => ({
    lpk: docTemplateKeys.listPartition(t.accountId),
    lsk: `${t.created}#${t.id}#${t.isShared ? 's' : 'p'}#${t.owner}#${t.team ?? ''}`,
  }),
  /**
   * `legacy`: a key written before it carried the team, which cannot tell who may see the
   * template; the list then asks the item itself.
   */
  parseListOrder: (lsk: string) => {
    const parts = lsk.split('#');
    const [created, id, shared, owner, team] = parts;
    return {
      created: created ?? '',
      id: id ?? '',
      isShared: shared === 's',
      owner: owner ?? '',
      ...(team ? { team } : {}),
      legacy: parts.length < 5,
    };
  },
};

/** Fields as JSON text (at most 300 KB, checked on create): no value of them can break DynamoDB's type rules. */
export const docTemplateEntity = defineEntity<TDocTemplate>({
  name: 'doc-template',
  version: 1,
  key: (t) => docTemplateKeys.item(t.accountId, t.id),
  indexes: { byListOrder: docTemplateKeys.listOrder },
  encode: (t) => ({
    id: t.id,
    accountId: t.accountId,
    name: t.name,
    isShared: t.isShared,
    owner: t.owner,
    ...(t.team ? { team: t.team } : {}),
    document: t.document,
    roles: t.roles,
    fields: JSON.stringify(t.fields),
    created: t.created,
    updated: t.updated,
    version: t.version,
  }),
  decode: (item) => ({
    id: item.id as string,
    accountId: item.accountId as string,
    name: item.name as string,
    isShared: Boolean(item.isShared),
    owner: item.owner as string,
    ...(item.team ? { team: item.team as string } : {}),
    document: item.document as TDocTemplate['document'],
    roles: (item.roles as TDocTemplate['roles']) ?? [],
    fields: JSON.parse(item.fields as string) as TDocTemplate['fields'],
    created: item.created as string,
    updated: item.updated as string,
    version: item.version as number,
  }),
});
