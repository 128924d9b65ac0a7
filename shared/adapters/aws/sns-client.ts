import { SNSClient } from '@aws-sdk/client-sns';
import type { TConfig } from '#shared/config';
import { common, prepared } from './client-setup';

// Apart from clients.ts: the public pages load the SNS client with their first SMS
// (sns/sms-sender-on-demand.ts), so it must be importable alone.
export function createSnsClient(config: TConfig): SNSClient {
  return prepared(config, new SNSClient(common(config, config.endpoints.sns)));
}
