// `cdk synth -c stage=prod` builds the stack `Esign-prod`; without a stage it is `Esign-dev`.
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { EsignStack } from './stack';
import { stageConfig } from './stage-config';

const app = new App();
// AWS's own rules (cdk-nag's AwsSolutions pack): a finding not accepted in infra/nag.ts fails the synth.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
const stage = String(app.node.tryGetContext('stage') ?? 'dev');
const config = stageConfig(stage, (key) => app.node.tryGetContext(key));

new EsignStack(app, `Esign-${stage}`, {
  config,
  description: `open-esign eSignature service (${stage})`,
  // No env: the template stays environment-agnostic (nothing here needs lookups), so a synth
  // offline or by someone else does not bake a region in; `cdk deploy` targets the caller's.
});
