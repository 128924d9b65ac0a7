import type { TConfig } from '#shared/config';
import type { TSmsSender } from '#shared/domain/ports/notifications';
import { onFirstUse } from '../on-first-use';

/**
 * The SNS SMS sender, loaded with the first message: on the public pages only a signer asking
 * for an SMS code sends one, so the SNS client stays out of that function's cold start.
 */
export function createSmsSenderOnDemand(config: TConfig): TSmsSender {
  const sender = onFirstUse(() =>
    Promise.all([import('../aws/sns-client'), import('./sns-sms-sender')]).then(
      ([{ createSnsClient }, { createSnsSmsSender }]) => createSnsSmsSender(createSnsClient(config)),
    ),
  );
  return {
    async send(phoneNumber, text) {
      return (await sender()).send(phoneNumber, text);
    },
  };
}
