// Keys and the secrets an operator fills in: the KMS key that seals webhook secrets, the seal
// (its KMS key, the PKCS #12 identity it replaces, its certificate chain), the timestamp
// authorities' credentials, and Stripe's keys; and what the document worker may do with them.
import { RemovalPolicy, type Stack } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Key, KeySpec, KeyUsage } from 'aws-cdk-lib/aws-kms';
import type { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { sealAccountPatterns, sealChainName, sealKeyAlias } from '#shared/adapters/sealing/seal-names';
import { acceptFinding } from '../nag';
import type { TStageConfig } from '../stage-config';
import type { ApiFunction } from './api-function';
import { operatorSecret } from './operator-secret';

/** Made in the stack's own scope, so logical IDs stay as they were (see Storage). */
export class EvidenceAndKeys {
  readonly secretsKey: Key;
  readonly stripeSecret: Secret;
  /** The seal's name, which its KMS alias and its chain secret are named after. */
  readonly sealName: string;
  private readonly sealSecret: Secret;
  private readonly sealKey: Key;
  private readonly sealChainSecret: Secret;
  private readonly tsaSecret: Secret | undefined;
  private readonly stack: Stack;

  constructor(stack: Stack, config: TStageConfig) {
    this.stack = stack;
    const keep = config.deletionProtection ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
    // Webhook shared secrets are stored sealed with this key (ARCHITECTURE.md, "Webhook secret").
    this.secretsKey = new Key(stack, 'WebhookSecretsKey', {
      alias: `alias/esign-${config.stage}-webhook-secrets`,
      description: 'Seals webhook shared secrets at rest (encryption context: accountId)',
      enableKeyRotation: true,
      removalPolicy: keep,
    });

    // Bundle payments (ARCHITECTURE.md, "Payments"): Stripe's keys, which the operator puts in
    // this secret as {"apiKey": "sk_…", "webhookSecret": "whsec_…"}; created empty. Only the
    // signing function (the signer's payment step, Stripe's webhook at /payments) reads it.
    this.stripeSecret = operatorSecret(stack, 'StripeKeysSecret', {
      secretName: `esign-${config.stage}-stripe-keys`,
      description: "Stripe's API key and webhook signing secret for bundle payments",
      removalPolicy: keep,
      notRotated:
        'Stripe issues and rolls these keys in its own dashboard; the operator puts the new ones here, which no rotation function could do for Stripe.',
    });

    // Evidence (ARCHITECTURE.md, "Evidence"): the document worker draws and seals the final
    // documents and certificates from the documentJobs queue. The seal's certificate and key live
    // in this secret, created empty (no generated value): the worker makes a self-signed identity
    // and stores it there on first use, or the operator puts the organisation's own (PKCS #12).
    this.sealSecret = operatorSecret(stack, 'SealIdentitySecret', {
      secretName: `esign-${config.stage}-seal-identity`,
      description: 'The certificate and private key that seal final documents and certificates of evidence',
      removalPolicy: keep,
      notRotated:
        'A seal certificate with its key, renewed by the operator when the certificate nears its end (npm run admin -- seal-install-cert); a rotation schedule cannot renew a certificate.',
    });
    // The seal key itself stays in KMS (shared/adapters/sealing/kms-seal-identity.ts): the worker
    // may Sign with it and read its public key, nothing more. Kept whatever the stage: a seal key
    // deleted with a stack would orphan the certificate an operator had a CA issue for it. Its
    // certificate chain (public) lives in the chain secret, installed by seal-install-cert; until
    // then the PKCS #12 secret above seals, so a stack deployed before keeps sealing.
    this.sealName = `esign-${config.stage}-seal`;
    this.sealKey = new Key(stack, 'SealKey', {
      alias: sealKeyAlias(this.sealName),
      description: 'Seals final documents and certificates of evidence (the private key never leaves KMS)',
      keySpec: KeySpec.RSA_3072,
      keyUsage: KeyUsage.SIGN_VERIFY,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.sealChainSecret = operatorSecret(stack, 'SealChainSecret', {
      secretName: sealChainName(this.sealName),
      description:
        "The seal certificate chain (PEM, public): the KMS seal key's certificate, then its issuers",
      removalPolicy: keep,
      notRotated:
        "Public certificates only (the KMS seal key's chain), replaced by the operator with the next certificate; nothing secret in it to rotate.",
    });
    // Credentials of timestamp authorities that want them, as headers per TSA URL
    // (shared/adapters/timestamps/tsa-credentials.ts); created without a value, which means none.
    this.tsaSecret =
      config.tsaUrls.length > 0
        ? operatorSecret(stack, 'TsaCredentialsSecret', {
            secretName: `esign-${config.stage}-tsa-credentials`,
            description: 'Headers (e.g. basic auth) per timestamp authority URL for sealing',
            removalPolicy: keep,
            notRotated:
              "Credentials issued by the timestamp authorities' own accounts; the operator replaces them when the authority does, which no rotation function could.",
          })
        : undefined;
  }

  /** Where the document worker finds its seal: the secrets' and the key's ARNs, and its name. */
  get sealEnv(): Record<string, string> {
    return {
      SEAL_SECRET_ID: this.sealSecret.secretArn,
      SEAL_KEY_ID: this.sealKey.keyArn,
      SEAL_NAME: this.sealName,
      SEAL_CHAIN_SECRET_ID: this.sealChainSecret.secretArn,
    };
  }

  /** The timestamp authorities' credentials, where the stage has authorities. */
  grantTimestampCredentials(worker: ApiFunction): void {
    if (!this.tsaSecret) return;
    worker.fn.addEnvironment('TSA_SECRET_ID', this.tsaSecret.secretArn);
    this.tsaSecret.grantRead(worker.fn);
  }

  /**
   * The seal identity (read, and write for the self-signed one made on first use), its chain,
   * Sign and GetPublicKey with the seal key, and the same with accounts' own seal keys and chains.
   */
  grantSealing(worker: ApiFunction): void {
    const { partition, region, account } = this.stack;
    const sealKey = this.sealKey;
    const sealName = this.sealName;
    this.sealSecret.grantRead(worker.fn);
    this.sealSecret.grantWrite(worker.fn);
    this.sealChainSecret.grantRead(worker.fn);
    worker.fn.addToRolePolicy(
      new PolicyStatement({ actions: ['kms:Sign', 'kms:GetPublicKey'], resources: [sealKey.keyArn] }),
    );
    // Accounts' own seal keys, made by the operator's seal-csr: only keys under their aliases.
    worker.fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['kms:Sign', 'kms:GetPublicKey'],
        resources: [`arn:${partition}:kms:${region}:${account}:key/*`],
        conditions: {
          'ForAnyValue:StringLike': { 'kms:ResourceAliases': sealAccountPatterns(sealName).keyAlias },
        },
      }),
    );
    worker.fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['secretsmanager:GetSecretValue'],
        resources: [
          `arn:${partition}:secretsmanager:${region}:${account}:secret:${sealAccountPatterns(sealName).chain}`,
        ],
      }),
    );
    acceptFinding(
      worker,
      'IAM5[Resource::arn:<AWS::Partition>:kms:<AWS::Region>:<AWS::AccountId>:key/*]',
      "Accounts' own seal keys are made by the operator after deploy, so their ids are unknown here; the statement's condition limits it to keys under this stage's account-seal aliases, and to Sign and GetPublicKey.",
    );
    acceptFinding(
      worker,
      `IAM5[Resource::arn:<AWS::Partition>:secretsmanager:<AWS::Region>:<AWS::AccountId>:secret:${sealAccountPatterns(sealName).chain}]`,
      "Accounts' seal certificate chains (public certificates), one secret per account made by the operator, named under this stage's prefix; read only.",
    );
  }
}
