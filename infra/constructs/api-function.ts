// Lambda defaults and least-privilege grants in one place, so every function of the service is
// built, logged and permitted the same way.
import path from 'node:path';
import { ArnFormat, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Integration, IntegrationType, type IRestApi, type IUsagePlan } from 'aws-cdk-lib/aws-apigateway';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import {
  type BundlingOptions,
  LogLevel,
  NodejsFunction,
  OutputFormat,
  SourceMapMode,
} from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import {
  LAMBDA_BUILD_OPTIONS,
  LAMBDA_RUNTIME_ENV,
  lambdaEntry,
  REPO_ROOT,
  type TLambdaName,
} from '../bundling';
import type { TStageConfig } from '../stage-config';

export type TAccess = 'read' | 'readWrite';

export interface ApiFunctionProps {
  name: TLambdaName;
  config: TStageConfig;
  /** Added to STAGE, LOG_LEVEL and the runtime settings every function gets. */
  environment: Record<string, string>;
  description?: string;
  memorySize?: number;
  timeout?: Duration;
}

/** NodejsFunction bundling that applies LAMBDA_BUILD_OPTIONS, the options the benchmark uses. */
export function nodejsBundling(): BundlingOptions {
  const o = LAMBDA_BUILD_OPTIONS;
  return {
    format: o.format === 'esm' ? OutputFormat.ESM : OutputFormat.CJS,
    target: o.target,
    minify: o.minify,
    sourceMap: o.sourcemap,
    sourceMapMode: SourceMapMode.DEFAULT,
    sourcesContent: o.sourcesContent,
    keepNames: o.keepNames,
    mainFields: [...o.mainFields],
    externalModules: [...o.external],
    banner: o.banner.js,
    logLevel: LogLevel.WARNING,
    esbuildArgs: { '--legal-comments': o.legalComments },
    // esbuild is a devDependency; Docker is not available everywhere the stack is synthesized.
    forceDockerBundling: false,
  };
}

export function retentionDays(days: number): RetentionDays {
  const found = Object.values(RetentionDays).find((v): v is RetentionDays => v === days);
  if (found === undefined) throw new Error(`${days} is not a CloudWatch Logs retention period`);
  return found;
}

export class ApiFunction extends Construct {
  readonly fn: NodejsFunction;
  readonly logGroup: LogGroup;
  /**
   * The function's ARN spelled from its fixed name rather than referenced. API Gateway methods
   * point at this, so the API's deployment does not depend on the function resource, and the
   * function may in turn read values that depend on the deployed stage (USAGE_PLAN_ID) without
   * making a circular dependency (function → usage plan → stage → deployment → method → function).
   */
  readonly arnByName: string;

  constructor(scope: Construct, id: string, props: ApiFunctionProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const { config } = props;
    // Fixed so that arnByName can be spelled before the function exists; the stack name already
    // carries the stage, so stages never collide.
    const functionName = `${stack.stackName}-${props.name}`;

    this.logGroup = new LogGroup(this, 'Logs', {
      retention: retentionDays(config.logRetentionDays),
      removalPolicy: config.deletionProtection ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });

    this.fn = new NodejsFunction(this, 'Function', {
      functionName,
      description: props.description,
      entry: lambdaEntry(props.name),
      handler: 'handler',
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      // More memory also buys CPU, which shortens cold starts of the bundled SDK.
      memorySize: props.memorySize ?? 512,
      // API Gateway gives up on an integration after 29 s; running longer only costs money.
      timeout: props.timeout ?? Duration.seconds(28),
      logGroup: this.logGroup,
      projectRoot: REPO_ROOT,
      depsLockFilePath: path.join(REPO_ROOT, 'package-lock.json'),
      bundling: nodejsBundling(),
      environment: {
        ...LAMBDA_RUNTIME_ENV,
        STAGE: config.stage,
        LOG_LEVEL: config.logLevel,
        ...props.environment,
      },
    });

    this.arnByName = stack.formatArn({
      service: 'lambda',
      resource: 'function',
      resourceName: functionName,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
  }

  grantTable(table: ITable, access: TAccess): void {
    if (access === 'read') table.grantReadData(this.fn);
    else table.grantReadWriteData(this.fn);
  }

  grantBucket(bucket: IBucket, access: TAccess): void {
    if (access === 'read') bucket.grantRead(this.fn);
    else bucket.grantReadWrite(this.fn);
  }

  /** GetUsagePlan and GetUsage of one plan, nothing else of API Gateway's control plane. */
  grantUsagePlanRead(plan: IUsagePlan): void {
    const stack = Stack.of(this);
    const planArn = `arn:${stack.partition}:apigateway:${stack.region}::/usageplans/${plan.usagePlanId}`;
    this.fn.addToRolePolicy(
      new PolicyStatement({ actions: ['apigateway:GET'], resources: [planArn, `${planArn}/usage`] }),
    );
  }

  /**
   * A Lambda proxy integration addressed by name (see arnByName). Allow the API to invoke it with
   * `allowInvokeFrom`, once per function.
   */
  integration(): Integration {
    const stack = Stack.of(this);
    return new Integration({
      type: IntegrationType.AWS_PROXY,
      integrationHttpMethod: 'POST',
      uri: `arn:${stack.partition}:apigateway:${stack.region}:lambda:path/2015-03-31/functions/${this.arnByName}/invocations`,
    });
  }

  /** Lets API Gateway invoke this function for the given resource paths only (all methods). */
  allowInvokeFrom(api: IRestApi, stage: string, resourcePaths: readonly string[]): void {
    resourcePaths.forEach((resourcePath, i) => {
      this.fn.addPermission(`ApiInvoke${i}`, {
        principal: new ServicePrincipal('apigateway.amazonaws.com'),
        sourceArn: api.arnForExecuteApi('*', resourcePath, stage),
      });
    });
  }
}
