// The local permission check's IAM evaluation (infra/local/iam/evaluate.ts).
import { describe, expect, it } from 'vitest';
import { unusedGrants } from '#infra/iam/unused-grants';
import { isAllowed, type TPolicyStatement } from '#infra/local/iam/evaluate';

const TABLE = 'arn:aws:dynamodb:us-east-1:000000000000:table/esign-local';

describe('the local IAM evaluation', () => {
  it('matches actions with wildcards and without case, resources with wildcards and with case', () => {
    const policy: TPolicyStatement[] = [
      { Effect: 'Allow', Action: ['dynamodb:Get*', 'dynamodb:Quer?'], Resource: [TABLE, `${TABLE}/index/*`] },
    ];
    expect(isAllowed(policy, { action: 'dynamodb:GetItem', resource: TABLE })).toBe(true);
    expect(isAllowed(policy, { action: 'DynamoDB:getitem', resource: TABLE })).toBe(true);
    expect(isAllowed(policy, { action: 'dynamodb:Query', resource: `${TABLE}/index/by-outbox` })).toBe(true);
    expect(isAllowed(policy, { action: 'dynamodb:PutItem', resource: TABLE })).toBe(false);
    expect(isAllowed(policy, { action: 'dynamodb:GetItem', resource: `${TABLE}-other` })).toBe(false);
    expect(isAllowed(policy, { action: 'dynamodb:GetItem', resource: TABLE.toUpperCase() })).toBe(false);
    expect(isAllowed(policy, { action: 'dynamodb:Queries', resource: TABLE })).toBe(false);
  });

  it('reads NotResource as every resource but those, and lets a Deny win', () => {
    const sms: TPolicyStatement = {
      Effect: 'Allow',
      Action: 'sns:Publish',
      NotResource: 'arn:aws:sns:*:*:*',
    };
    expect(isAllowed([sms], { action: 'sns:Publish', resource: '*' })).toBe(true);
    expect(isAllowed([sms], { action: 'sns:Publish', resource: 'arn:aws:sns:us-east-1:1:topic' })).toBe(
      false,
    );
    const deny: TPolicyStatement = { Effect: 'Deny', Action: 'sns:*', Resource: '*' };
    expect(isAllowed([sms, deny], { action: 'sns:Publish', resource: '*' })).toBe(false);
  });

  it("applies the stack's conditions: StringEquals on the sender, Null on an encryption context key", () => {
    const mail: TPolicyStatement = {
      Effect: 'Allow',
      Action: 'ses:SendEmail',
      Resource: 'arn:aws:ses:us-east-1:000000000000:identity/*',
      Condition: { StringEquals: { 'ses:FromAddress': 'noreply@example.com' } },
    };
    const send = (from?: string) => ({
      action: 'ses:SendEmail',
      resource: 'arn:aws:ses:us-east-1:000000000000:identity/example.com',
      context: { 'ses:FromAddress': from },
    });
    expect(isAllowed([mail], send('noreply@example.com'))).toBe(true);
    expect(isAllowed([mail], send('other@example.com'))).toBe(false);
    expect(isAllowed([mail], send(undefined))).toBe(false);
    const decrypt: TPolicyStatement = {
      Effect: 'Allow',
      Action: 'kms:Decrypt',
      Resource: '*',
      Condition: { Null: { 'kms:EncryptionContext:accountId': 'false' } },
    };
    const withContext = (accountId?: string) => ({
      action: 'kms:Decrypt',
      resource: 'arn:aws:kms:us-east-1:000000000000:key/k',
      context: { 'kms:EncryptionContext:accountId': accountId },
    });
    expect(isAllowed([decrypt], withContext('acct-1'))).toBe(true);
    expect(isAllowed([decrypt], withContext(undefined))).toBe(false);
  });

  it('refuses to guess at a condition operator it does not know', () => {
    const odd: TPolicyStatement = {
      Effect: 'Allow',
      Action: '*',
      Resource: '*',
      Condition: { DateGreaterThan: { 'aws:CurrentTime': '2020-01-01T00:00:00Z' } },
    };
    expect(() => isAllowed([odd], { action: 's3:GetObject', resource: '*' })).toThrow(/DateGreaterThan/);
  });
});

describe('set conditions', () => {
  it('reads ForAllValues and ForAnyValue over a multivalued key, as the stack uses them', () => {
    const sessions: TPolicyStatement = {
      Effect: 'Allow',
      Action: 'dynamodb:UpdateItem',
      Resource: TABLE,
      Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['CONSOLESESSION#*'] } },
    };
    const update = (pk: string) => ({
      action: 'dynamodb:UpdateItem',
      resource: TABLE,
      context: { 'dynamodb:LeadingKeys': [pk] },
    });
    expect(isAllowed([sessions], update('CONSOLESESSION#abc'))).toBe(true);
    expect(isAllowed([sessions], update('ACCOUNT#abc'))).toBe(false);
    const sign: TPolicyStatement = {
      Effect: 'Allow',
      Action: 'kms:Sign',
      Resource: 'arn:aws:kms:us-east-1:000000000000:key/*',
      Condition: { 'ForAnyValue:StringLike': { 'kms:ResourceAliases': 'alias/esign-local-seal-account-*' } },
    };
    const withAliases = (aliases?: string[]) => ({
      action: 'kms:Sign',
      resource: 'arn:aws:kms:us-east-1:000000000000:key/k1',
      context: { 'kms:ResourceAliases': aliases },
    });
    expect(isAllowed([sign], withAliases(['alias/other', 'alias/esign-local-seal-account-a1']))).toBe(true);
    expect(isAllowed([sign], withAliases(['alias/other']))).toBe(false);
    expect(isAllowed([sign], withAliases(undefined))).toBe(false);
  });
});

describe('the unused-grants report', () => {
  it("lists each function's granted actions no used action matched, wildcards read as IAM does", () => {
    const policies = {
      bundles: [
        {
          Effect: 'Allow' as const,
          Action: ['dynamodb:GetItem', 'dynamodb:PutItem', 's3:GetObject*'],
          Resource: '*',
        },
        { Effect: 'Allow' as const, Action: 'logs:PutLogEvents', Resource: '*' },
      ],
      scheduler: [{ Effect: 'Allow' as const, Action: 'sqs:SendMessage', Resource: '*' }],
    };
    const report = unusedGrants(policies, { bundles: ['dynamodb:GetItem', 's3:GetObjectVersion'] });
    expect(report).toEqual({ bundles: ['dynamodb:PutItem'], scheduler: ['sqs:SendMessage'] });
  });
});
