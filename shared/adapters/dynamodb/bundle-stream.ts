// Bundles as the table's stream shows them (DynamoDB Streams, view NEW_IMAGE): the relay that
// publishes outboxes reads the bundle from the record instead of reading it again.
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import type { TBundle } from '#shared/domain/bundles/bundle';
import { bundleEntity } from './entities/bundle';

/** The bundle a stream record wrote, or undefined for any other item or a removal. */
export function bundleOfRecord(record: DynamoDBRecord): TBundle | undefined {
  const image = record.dynamodb?.NewImage;
  if (!image) return undefined;
  const item = unmarshall(image as Parameters<typeof unmarshall>[0]);
  // The bundle item itself, not one of the items filed under it (`BUNDLE#<id>#DOC#…`).
  if (typeof item.sk !== 'string' || !/^BUNDLE#[^#]+$/.test(item.sk)) return undefined;
  return bundleEntity.fromItem(item);
}
