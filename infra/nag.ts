// AWS's own rules on this stack: cdk-nag's AwsSolutions pack runs on every synth (infra/app.ts)
// and in npm test (test/infra/template-stack.test.ts); a finding fails both. Where this stack
// departs from a rule on purpose, the construct says so here, with the reason a reviewer reads.
import { Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * Accepts an AwsSolutions finding on `scope` and everything below it. `rule`: the rule with its
 * finding, as cdk-nag names it (`APIG2`, `IAM5[Resource::<TableCD117FA1.Arn>/index/*]`).
 */
export function acceptFinding(scope: IConstruct, rule: string, reason: string): void {
  Validations.of(scope).acknowledge({ id: `AwsSolutions-${rule}`, reason });
}
