import {
  type APIGatewayClient,
  CreateApiKeyCommand,
  CreateUsagePlanKeyCommand,
  DeleteApiKeyCommand,
} from '@aws-sdk/client-api-gateway';

import type { TUsageKeyRegistry } from '#shared/domain/ports/usage-keys';

export type { TUsageKeyRegistry };

/**
 * The usage plan's keys on API Gateway. The authorizer hands API Gateway the presented key as the
 * usage identifier, and API Gateway only admits (and counts) a value it knows as an API key of
 * the usage plan: so every issued key is registered here with the same value.
 */
export function createUsageKeyRegistry(client: APIGatewayClient, usagePlanId: string): TUsageKeyRegistry {
  async function remove(id: string): Promise<void> {
    try {
      await client.send(new DeleteApiKeyCommand({ apiKey: id }));
    } catch (err) {
      // Revoking twice, or after a half-finished revoke, must still succeed.
      if ((err as Error).name !== 'NotFoundException') throw err;
    }
  }

  return {
    async register(secret, name) {
      const created = await client.send(new CreateApiKeyCommand({ name, value: secret, enabled: true }));
      const id = created.id;
      if (!id) throw new Error('API Gateway created the API key but returned no id.');
      try {
        await client.send(new CreateUsagePlanKeyCommand({ usagePlanId, keyId: id, keyType: 'API_KEY' }));
      } catch (err) {
        // A key outside the plan is refused by API Gateway anyway; do not leave it behind.
        await remove(id).catch(() => undefined);
        throw err;
      }
      return id;
    },
    remove,
  };
}
