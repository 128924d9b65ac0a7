import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TSigningTokenStore } from '#shared/domain/ports/signing';
import { getItem } from './batch';
import { signingKeys, signingTokenEntity } from './entities/signing';
import { putNew, setOnce } from './versioned';

export function createSigningTokenStore(db: DynamoDBDocumentClient, table: string): TSigningTokenStore {
  return {
    create: (token) => putNew(db, table, signingTokenEntity.toItem(token)),

    get: (hash) => getItem(db, table, signingKeys.token(hash), signingTokenEntity.fromItem, true),

    consume: (hash, at) => setOnce(db, table, signingKeys.token(hash), 'usedAt', at),
  };
}
