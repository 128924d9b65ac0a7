import { type MessageAttributeValue, PublishCommand, type SNSClient } from '@aws-sdk/client-sns';
import type { TSmsSender } from '#shared/domain/ports/notifications';

export interface TSnsSmsSenderOptions {
  /** Shown as the sender on phones in countries that support alphanumeric sender IDs. */
  senderId?: string;
}

export function createSnsSmsSender(client: SNSClient, opts: TSnsSmsSenderOptions = {}): TSmsSender {
  // Signing links are time-sensitive: Transactional gets the higher-reliability route instead of the
  // cheapest one SNS would pick for Promotional messages.
  const attributes: Record<string, MessageAttributeValue> = {
    'AWS.SNS.SMS.SMSType': { DataType: 'String', StringValue: 'Transactional' },
  };
  if (opts.senderId) attributes['AWS.SNS.SMS.SenderID'] = { DataType: 'String', StringValue: opts.senderId };

  return {
    async send(phoneNumber: string, text: string): Promise<string> {
      const out = await client.send(
        new PublishCommand({ PhoneNumber: phoneNumber, Message: text, MessageAttributes: attributes }),
      );
      if (!out.MessageId) throw new Error('SNS accepted the SMS but returned no MessageId');
      return out.MessageId;
    },
  };
}
