import { DeleteCommand, type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError } from '#shared/domain/errors';
import type { TSsoStore } from '#shared/domain/ports/sso';
import { getItem, isConditionFailure, writeIf } from './batch';
import { ssoAttemptEntity, ssoDomainEntity, ssoKeys, ssoSettingsEntity } from './entities/sso';

type TItem = Record<string, unknown>;

export function createSsoStore(db: DynamoDBDocumentClient, table: string): TSsoStore {
  /** Claims the domain for the account unless another account holds it: false then. */
  const claim = (domain: string, accountId: string) =>
    writeIf(
      db.send(
        new PutCommand({
          TableName: table,
          Item: ssoDomainEntity.toItem({ domain, accountId }),
          ConditionExpression: 'attribute_not_exists(pk) OR accountId = :a',
          ExpressionAttributeValues: { ':a': accountId },
        }),
      ),
    );
  /** Lets go of the domain if this account holds it. */
  const release = (domain: string, accountId: string) =>
    writeIf(
      db.send(
        new DeleteCommand({
          TableName: table,
          Key: ssoKeys.domain(domain),
          ConditionExpression: 'accountId = :a',
          ExpressionAttributeValues: { ':a': accountId },
        }),
      ),
    );
  const getSettings = (accountId: string) =>
    getItem(db, table, ssoKeys.settings(accountId), ssoSettingsEntity.fromItem, true);

  return {
    getSettings,
    // DynamoDB Local stand-ins have no transactions, so the domains are claimed one by one and
    // given back when one of them is another account's: the operator sees a conflict and the
    // table is as before.
    async saveSettings(settings) {
      const before = await getSettings(settings.accountId);
      const held = new Set(before?.domains ?? []);
      const claimed: string[] = [];
      for (const domain of settings.domains) {
        if (await claim(domain, settings.accountId)) {
          if (!held.has(domain)) claimed.push(domain);
          continue;
        }
        for (const d of claimed) await release(d, settings.accountId);
        throw new ConflictError(`The email domain ${domain} already signs in to another account.`);
      }
      await db.send(new PutCommand({ TableName: table, Item: ssoSettingsEntity.toItem(settings) }));
      for (const d of held) if (!settings.domains.includes(d)) await release(d, settings.accountId);
    },
    async clearSettings(accountId) {
      const before = await getSettings(accountId);
      if (!before) return false;
      await db.send(new DeleteCommand({ TableName: table, Key: ssoKeys.settings(accountId) }));
      for (const d of before.domains) await release(d, accountId);
      return true;
    },
    async accountOfDomain(domain) {
      const d = await getItem(db, table, ssoKeys.domain(domain), ssoDomainEntity.fromItem);
      return d?.accountId;
    },
    saveAttempt: async (attempt) => {
      await db.send(
        new PutCommand({
          TableName: table,
          Item: ssoAttemptEntity.toItem(attempt),
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    },
    async takeAttempt(hash) {
      try {
        const out = await db.send(
          new DeleteCommand({
            TableName: table,
            Key: ssoKeys.attempt(hash),
            ConditionExpression: 'attribute_exists(pk)',
            ReturnValues: 'ALL_OLD',
          }),
        );
        return out.Attributes ? ssoAttemptEntity.fromItem(out.Attributes as TItem) : undefined;
      } catch (err) {
        if (isConditionFailure(err)) return undefined;
        throw err;
      }
    },
  };
}
