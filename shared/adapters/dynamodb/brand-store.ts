import { DeleteCommand, type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { NotFoundError } from '#shared/domain/errors';
import type { TBrandStore } from '#shared/domain/ports/brands';
import { getItem, isConditionFailure } from './batch';
import { accountKeys, brandEntity } from './entities/account';

const EXISTS = 'attribute_exists(pk)';

/** A brand write that lost its condition found no brand: another request deleted it first. */
async function orGone(write: Promise<unknown>): Promise<void> {
  try {
    await write;
  } catch (err) {
    if (isConditionFailure(err)) throw new NotFoundError('Signing brand not found.');
    throw err;
  }
}

export function createBrandStore(db: DynamoDBDocumentClient, table: string): TBrandStore {
  return {
    getBrand: (accountId, brandId) =>
      getItem(db, table, accountKeys.brand(accountId, brandId), brandEntity.fromItem),
    replaceBrand: (brand) =>
      orGone(
        db.send(
          new PutCommand({ TableName: table, Item: brandEntity.toItem(brand), ConditionExpression: EXISTS }),
        ),
      ),
    deleteBrand: (accountId, brandId) =>
      orGone(
        db.send(
          new DeleteCommand({
            TableName: table,
            Key: accountKeys.brand(accountId, brandId),
            ConditionExpression: EXISTS,
          }),
        ),
      ),
  };
}
