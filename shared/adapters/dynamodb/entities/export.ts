// Keys and entity of the account's export record (its latest export), declared once.
import type { TExport } from '#shared/domain/exports/export';
import { defineEntity } from '../entity';
import { accountPartition } from './account-partition';

export const exportKeys = {
  item: (accountId: string) => ({ pk: accountPartition(accountId), sk: 'EXPORT' }),
};

export const exportEntity = defineEntity<TExport>({
  name: 'export',
  version: 1,
  key: (e) => exportKeys.item(e.accountId),
});
