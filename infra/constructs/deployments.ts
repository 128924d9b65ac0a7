// Safe deploys: every function is published as a version behind its live alias (api-function.ts),
// and CodeDeploy moves the alias to a new version as the stage's deployment style says, watching
// the function's alarms while it does. An alarm that fires during the move sends every invocation
// back to the previous version by itself, and CloudFormation reports the deploy as failed.
import { Stack } from 'aws-cdk-lib';
import type { IAlarm } from 'aws-cdk-lib/aws-cloudwatch';
import {
  type ILambdaDeploymentConfig,
  LambdaApplication,
  LambdaDeploymentConfig,
  LambdaDeploymentGroup,
} from 'aws-cdk-lib/aws-codedeploy';
import { ManagedPolicy, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { acceptFinding } from '../nag';
import type { TDeploymentStyle } from '../stage-config';
import { ApiFunction } from './api-function';

/** The CodeDeploy configuration of each deployment style a stage may choose. */
export const DEPLOYMENT_CONFIG_OF: Record<TDeploymentStyle, ILambdaDeploymentConfig> = {
  'canary-10-percent-5-minutes': LambdaDeploymentConfig.CANARY_10PERCENT_5MINUTES,
  'linear-10-percent-every-minute': LambdaDeploymentConfig.LINEAR_10PERCENT_EVERY_1MINUTE,
  'all-at-once': LambdaDeploymentConfig.ALL_AT_ONCE,
};

/** CodeDeploy's own policy for Lambda: update aliases and read the functions' alarms, nothing else. */
const CODEDEPLOY_POLICY = 'service-role/AWSCodeDeployRoleForLambdaLimited';

export interface TDeploymentsProps {
  stage: string;
  style: TDeploymentStyle;
  /** The alarms whose firing during a deploy rolls that function back (CodeDeploy takes at most 10). */
  alarmsOf: (fn: ApiFunction) => IAlarm[];
}

export class Deployments extends Construct {
  constructor(scope: Construct, id: string, props: TDeploymentsProps) {
    super(scope, id);
    const application = new LambdaApplication(this, 'Application', {
      applicationName: `esign-${props.stage}`,
    });
    const role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('codedeploy.amazonaws.com'),
      description: `Shifts the esign-${props.stage} functions' live aliases to new versions`,
      managedPolicies: [ManagedPolicy.fromAwsManagedPolicyName(CODEDEPLOY_POLICY)],
    });
    acceptFinding(
      role,
      `IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/${CODEDEPLOY_POLICY}]`,
      "AWS's own narrowest policy for CodeDeploy on Lambda: update an alias's routing and read alarms; a hand-written copy would only drift from what CodeDeploy needs.",
    );
    const functions = Stack.of(this)
      .node.findAll()
      .filter((c): c is ApiFunction => c instanceof ApiFunction);
    for (const f of functions) {
      const alarms = props.alarmsOf(f);
      if (alarms.length === 0 || alarms.length > 10)
        throw new Error(`${f.node.id}: a deployment watches 1 to 10 alarms, got ${alarms.length}`);
      new LambdaDeploymentGroup(this, f.node.id.replace(/Function$/, ''), {
        application,
        alias: f.live,
        role,
        deploymentConfig: DEPLOYMENT_CONFIG_OF[props.style],
        alarms,
        autoRollback: { deploymentInAlarm: true, failedDeployment: true, stoppedDeployment: true },
      });
    }
  }
}
