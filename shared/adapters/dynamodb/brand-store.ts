import { DeleteCommand, type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ConcurrentUpdateError, NotFoundError } from '#shared/domain/errors';
import type { TBrandStore } from '#shared/domain/ports/brands';
import { getItem, isConditionFailure } from './batch';
import { accountKeys, brandEntity } from './entities/account';

const EXISTS = 'attribute_exists(pk)';

/** A delete that lost its condition found no brand: another request deleted it first. */
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
    async replaceBrand(brand) {
      const written = { ...brand, version: (brand.version ?? 0) + 1 };
      try {
        await db.send(
          new PutCommand({
            TableName: table,
            Item: brandEntity.toItem(written),
            ConditionExpression:
              brand.version === undefined
                ? `${EXISTS} AND attribute_not_exists(version)`
                : `${EXISTS} AND version = :v`,
            ...(brand.version === undefined ? {} : { ExpressionAttributeValues: { ':v': brand.version } }),
          }),
        );
      } catch (err) {
        if (!isConditionFailure(err)) throw err;
        // Lost: to a delete (404) or to another change made since this one read the brand (409).
        if (!(await getItem(db, table, accountKeys.brand(brand.accountId, brand.id), (i) => i)))
          throw new NotFoundError('Signing brand not found.');
        throw new ConcurrentUpdateError();
      }
      return written;
    },
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
