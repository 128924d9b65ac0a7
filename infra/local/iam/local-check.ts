// The permission check as the local runtime sets it up: the committed policies (or a test's),
// their placeholders filled with the stand-ins' names, and, when the test run asks for it
// (IAM_USAGE_DIR, set by test/helpers/iam-usage-setup.ts), each runtime's used actions written
// out for the unused-grants report.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TConfig } from '#shared/config';
import type { TFunctionPolicies } from '../../iam/function-policies';
import { committedPolicies } from '../../iam/policies-file';
import { queueName } from '../../queues';
import { LOCAL_BUCKET_NAME, LOCAL_REGION, LOCAL_SEAL_NAME, LOCAL_STAGE, LOCAL_TABLE_NAME } from '../layout';
import { createIamCheck, type TIamCheck } from './iam-check';

/** The account the local ARNs name (the stand-ins have none of their own). */
export const LOCAL_ACCOUNT = '000000000000';

/** The check for a local runtime built with `config`; its usage is written out by `stop`. */
export function localIamCheck(config: TConfig, policies: TFunctionPolicies = committedPolicies()): TIamCheck {
  const scope = { region: LOCAL_REGION, account: LOCAL_ACCOUNT };
  const arn = (service: string, resource: string) =>
    `arn:aws:${service}:${LOCAL_REGION}:${LOCAL_ACCOUNT}:${resource}`;
  const mailFrom = config.mail?.from ?? '';
  const placeholders: Record<string, string> = {
    Region: LOCAL_REGION,
    Account: LOCAL_ACCOUNT,
    Stage: LOCAL_STAGE,
    Table: arn('dynamodb', `table/${LOCAL_TABLE_NAME}`),
    'Bucket:Documents': `arn:aws:s3:::${LOCAL_BUCKET_NAME}`,
    ConfigurationSet: config.mail?.configurationSet ?? '',
    MailFrom: mailFrom,
    MailDomain: mailFrom.split('@')[1] ?? '',
    'ApiGateway:ApiUsagePlan': config.usagePlanId,
    // The stand-in's keys are named by alias (requests.ts reads an alias as the key's ARN).
    'KMS:SealKey': arn('kms', `key/alias/${LOCAL_SEAL_NAME}`),
    ...(config.payments?.kind === 'stripe'
      ? { 'SecretsManager:StripeKeysSecret': arn('secretsmanager', `secret:${config.payments.secretId}`) }
      : {}),
  };
  for (const name of [
    'notifications',
    'webhook-deliveries',
    'document-jobs',
    'bulk-jobs',
    'mail-events-dlq',
  ]) {
    placeholders[`Queue:${name}`] = arn('sqs', queueName(LOCAL_STAGE, name));
  }
  // Written as it grows, not at stop: the tests' shared runtime is never stopped, it ends with
  // its process. First uses are few (tens per runtime), so the writes are too.
  const dir = process.env.IAM_USAGE_DIR;
  const file = dir && join(dir, `${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  const check: TIamCheck = createIamCheck({
    policies,
    placeholders,
    scope,
    onFirstUse: () => {
      if (!file) return;
      mkdirSync(dir, { recursive: true });
      writeFileSync(file, JSON.stringify(check.used()));
    },
  });
  return check;
}
