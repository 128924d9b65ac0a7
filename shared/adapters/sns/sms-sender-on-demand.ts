import type { TConfig } from '../../config';
import type { TSmsSender } from '../../ports/notifications';

/**
 * The SNS SMS sender, loaded with the first message: on the public pages only a signer asking
 * for an SMS code sends one, so the SNS client stays out of that function's cold start.
 */
export function createSmsSenderOnDemand(config: TConfig): TSmsSender {
  let sender: Promise<TSmsSender> | undefined;
  const made = () =>
    Promise.all([import('../aws/sns-client'), import('./sns-sms-sender')]).then(
      ([{ createSnsClient }, { createSnsSmsSender }]) => createSnsSmsSender(createSnsClient(config)),
    );
  return {
    async send(phoneNumber, text) {
      sender ??= made().catch((err: unknown) => {
        sender = undefined;
        throw err;
      });
      return (await sender).send(phoneNumber, text);
    },
  };
}
