// What the local permission check asks IAM for a DynamoDB transaction (infra/local/iam/requests.ts):
// each action as the single-item call it stands for, as AWS authorizes it.
import { describe, expect, it } from 'vitest';
import { isAllowed, type TPolicyStatement } from '#infra/local/iam/evaluate';
import { authzRequests } from '#infra/local/iam/requests';

const scope = { region: 'us-east-1', account: '000000000000' };
const TABLE = 'arn:aws:dynamodb:us-east-1:000000000000:table/esign-local';

describe('a transaction in the local permission check', () => {
  it('asks for each action as its single-item call, on its table and its partition key', () => {
    const requests = authzRequests(
      'DynamoDBClient',
      'TransactWriteItemsCommand',
      {
        TransactItems: [
          { Put: { TableName: 'esign-local', Item: { pk: 'BUNDLE#1', sk: 'BUNDLE' } } },
          { Update: { TableName: 'esign-local', Key: { pk: { S: 'BUNDLE#1' }, sk: { S: 'SIGNER#2' } } } },
          { Delete: { TableName: 'esign-local', Key: { pk: 'IDEMPOTENCY#3', sk: 'KEY' } } },
          { ConditionCheck: { TableName: 'esign-local', Key: { pk: 'ACCOUNT#4', sk: 'ACCOUNT' } } },
        ],
      },
      scope,
    );
    const context = (pk: string) => ({
      'dynamodb:LeadingKeys': [pk],
      'dynamodb:EnclosingOperation': 'TransactWriteItems',
    });
    expect(requests).toEqual([
      { action: 'dynamodb:PutItem', resource: TABLE, context: context('BUNDLE#1') },
      { action: 'dynamodb:UpdateItem', resource: TABLE, context: context('BUNDLE#1') },
      { action: 'dynamodb:DeleteItem', resource: TABLE, context: context('IDEMPOTENCY#3') },
      { action: 'dynamodb:ConditionCheckItem', resource: TABLE, context: context('ACCOUNT#4') },
    ]);
    // A role with the item writes may write them in a transaction; a condition check needs its own grant.
    const writes: TPolicyStatement[] = [
      {
        Effect: 'Allow',
        Action: ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
        Resource: TABLE,
      },
    ];
    expect(requests.map((request) => isAllowed(writes, request))).toEqual([true, true, true, false]);
  });
});
