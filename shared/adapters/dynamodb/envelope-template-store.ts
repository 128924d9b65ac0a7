import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { sliceOf } from '#shared/domain/paging';
import type { TEnvelopeTemplateStore } from '#shared/domain/ports/templates';
import { batchGet, getItem, queryListOrder } from './batch';
import { envelopeTemplateEntity, envelopeTemplateKeys } from './entities/envelope-template';
import { deleteVersioned, putVersioned } from './versioned';

export function createEnvelopeTemplateStore(
  db: DynamoDBDocumentClient,
  table: string,
): TEnvelopeTemplateStore {
  async function find(id: string) {
    return getItem(db, table, envelopeTemplateKeys.item(id), envelopeTemplateEntity.fromItem, true);
  }

  return {
    find,

    async get(accountId, id) {
      const template = await find(id);
      return template?.accountId === accountId ? template : undefined;
    },

    save: (template, previous) => putVersioned(db, table, envelopeTemplateEntity.toItem(template), previous),

    delete: (template) =>
      deleteVersioned(db, table, envelopeTemplateKeys.item(template.id), template.version),

    async listEnabled(accountId, visible, page) {
      const refs = (await queryListOrder(db, table, envelopeTemplateKeys.listPartition(accountId)))
        .map((i) => envelopeTemplateKeys.parseListOrder(i.lsk as string))
        .filter((r) => r.legacy || visible(r));
      const items = await batchGet(
        db,
        table,
        sliceOf(refs, page).map((r) => envelopeTemplateKeys.item(r.id)),
        (i) => String(i.pk),
      );
      // The index may lag a change on AWS: the item itself decides.
      const templates = items
        .map(envelopeTemplateEntity.fromItem)
        .filter((t) => t.enabled && t.accountId === accountId && visible(t));
      return { items: templates, total: refs.length };
    },
  };
}
