// `npm run policies`: synthesizes the dev stack and writes each function's permissions to
// infra/generated/function-policies.json, which the local runtime checks every AWS call against.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { REPO_ROOT } from '../bundling';
import { EsignStack } from '../stack';
import { stageConfig } from '../stage-config';
import { FUNCTION_POLICIES_FILE, policiesOfStack } from './policies-file';

const cdk = JSON.parse(readFileSync(path.join(REPO_ROOT, 'cdk.json'), 'utf8')) as {
  context: Record<string, unknown>;
};
// The functions' code is not bundled: only the template is read.
const app = new App({ context: { ...cdk.context, 'aws:cdk:bundling-stacks': [] } });
const stack = new EsignStack(app, 'Esign-dev', { config: stageConfig('dev') });
const policies = policiesOfStack(Template.fromStack(stack).toJSON() as never, stack);
writeFileSync(FUNCTION_POLICIES_FILE, `${JSON.stringify(policies, null, 2)}\n`);
console.log(
  `wrote ${path.relative(REPO_ROOT, FUNCTION_POLICIES_FILE)} (${Object.keys(policies).length} functions)`,
);
