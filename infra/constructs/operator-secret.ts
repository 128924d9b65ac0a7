// A secret the operator fills in after deploy (Stripe's keys, the seal's identity and chain,
// timestamp authorities' credentials): created with no value at all, and never rotated by a
// schedule, because what is in it is issued elsewhere; `notRotated` says why, for cdk-nag.
import type { RemovalPolicy } from 'aws-cdk-lib';
import { type CfnSecret, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { acceptFinding } from '../nag';

export function operatorSecret(
  scope: Construct,
  id: string,
  props: { secretName: string; description: string; removalPolicy: RemovalPolicy; notRotated: string },
): Secret {
  const secret = new Secret(scope, id, {
    secretName: props.secretName,
    description: props.description,
    removalPolicy: props.removalPolicy,
  });
  // CDK would generate a password; the operator's value is the only one there should be.
  (secret.node.defaultChild as CfnSecret).addPropertyDeletionOverride('GenerateSecretString');
  acceptFinding(secret, 'SMG4', props.notRotated);
  return secret;
}
