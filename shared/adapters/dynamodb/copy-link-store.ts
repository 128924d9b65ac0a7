import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TCopyLinkStore } from '#shared/domain/ports/evidence';
import { getItem } from './batch';
import { copyLinkEntity, evidenceKeys } from './entities/evidence';
import { putNew } from './versioned';

export function createCopyLinkStore(db: DynamoDBDocumentClient, table: string): TCopyLinkStore {
  return {
    create: (link) => putNew(db, table, copyLinkEntity.toItem(link)),
    get: (hash) => getItem(db, table, evidenceKeys.copyLink(hash), copyLinkEntity.fromItem, true),
  };
}
