import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { sliceOf } from '#shared/domain/paging';
import type { TDocTemplateStore } from '#shared/domain/ports/templates';
import { batchGet, getItem, queryListOrder } from './batch';
import { docTemplateEntity, docTemplateKeys } from './entities/doc-template';
import { deleteVersioned, putVersioned } from './versioned';

export function createDocTemplateStore(db: DynamoDBDocumentClient, table: string): TDocTemplateStore {
  return {
    async get(accountId, id) {
      return getItem(db, table, docTemplateKeys.item(accountId, id), docTemplateEntity.fromItem);
    },

    async save(template, previous) {
      await putVersioned(db, table, docTemplateEntity.toItem(template), previous);
    },

    async delete(template) {
      await deleteVersioned(
        db,
        table,
        docTemplateKeys.item(template.accountId, template.id),
        template.version,
      );
    },

    async list(accountId, visible, page) {
      const refs = (await queryListOrder(db, table, docTemplateKeys.listPartition(accountId)))
        .map((i) => docTemplateKeys.parseListOrder(i.lsk as string))
        .filter((r) => r.legacy || visible(r));
      const wanted = sliceOf(refs, page);
      const items = await batchGet(
        db,
        table,
        wanted.map((r) => docTemplateKeys.item(accountId, r.id)),
        (i) => String(i.sk),
      );
      // Checked again on the item itself: a change between the two reads may have hidden it.
      const templates = items.map(docTemplateEntity.fromItem).filter(visible);
      return { items: templates, total: refs.length };
    },
  };
}
