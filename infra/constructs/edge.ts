// The service's one front door on AWS: a CloudFront distribution on one origin (the operator's
// domain, or the distribution's own), so the console's session cookie, the API and the pages share
// it. Static files — the console and the signing pages' assets, every name a content hash — come
// from a private S3 bucket, cached at the edge for a year; everything else (the API, the pages,
// the console's session endpoints) goes to API Gateway uncached, with every viewer header but Host
// (Authorization, Cookie, X-CSRF-Token), every cookie and every query string.
//
// API Gateway stays reachable at its execute-api address, so the distribution proves itself with
// a secret header the WAF requires (waf.ts), and writes the viewer's address into a header of its
// own that the WAF's per-address limits and the functions read: behind CloudFront, the address
// API Gateway sees is an edge server's.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  AssetHashType,
  Aws,
  CfnRule,
  DockerImage,
  Duration,
  Fn,
  RemovalPolicy,
  type Stack,
} from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { Certificate, CertificateValidation, type ICertificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  Function as EdgeFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  OriginRequestPolicy,
  PriceClass,
  ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { ARecord, HostedZone, RecordTarget } from 'aws-cdk-lib/aws-route53';
import { CloudFrontTarget } from 'aws-cdk-lib/aws-route53-targets';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  type CfnBucket,
  ObjectOwnership,
} from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { buildConsoleSync, writeConsole } from '#functions/console-app/build';
import { consoleHeaders } from '#functions/console-app/serve';
import { copyPageAssets, PAGE_ASSETS_DIR } from '#functions/public-pages/assets';
import { REPO_ROOT } from '../bundling';
import { ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER } from '../front-door';
import { acceptFinding } from '../nag';
import type { TStageConfig } from '../stage-config';

/** Where each kind of static file sits in the bucket, as on the service's origin. */
const CONSOLE_PREFIX = 'console';
const SIGNING_ASSETS_PREFIX = 'sign/assets';

/**
 * Viewer requests to API Gateway: `/` and `/console` lead to the console; the viewer's address is
 * written into VIEWER_ADDRESS_HEADER (over any value the viewer sent).
 */
export const FRONT_DOOR = `function handler(event) {
  var request = event.request;
  if (request.uri === '/' || request.uri === '/console') {
    return { statusCode: 302, statusDescription: 'Found', headers: { location: { value: '/console/' } } };
  }
  request.headers['${VIEWER_ADDRESS_HEADER}'] = { value: event.viewer.ip };
  return request;
}`;

/** Every console path but its assets and its API answers the one page, which routes in the browser. */
export const CONSOLE_PAGE = `function handler(event) {
  event.request.uri = '/${CONSOLE_PREFIX}/index.html';
  return event.request;
}`;

/** Local bundling only: the image is never used (as the Lambdas' code, lambda-code.ts). */
const localOnly = (tryBundle: (outputDir: string) => void) => ({
  image: DockerImage.fromRegistry('none'),
  local: {
    tryBundle(outputDir: string) {
      tryBundle(outputDir);
      return true;
    },
  },
});

export class Edge {
  readonly distribution: Distribution;
  /** What every link the service writes is built on: the operator's domain, or the distribution's. */
  readonly publicBaseUrl: string;
  /** The secret the distribution sends in ORIGIN_VERIFY_HEADER. */
  readonly originVerify: Secret;

  constructor(stack: Stack, config: TStageConfig, api: RestApi) {
    const keep = config.deletionProtection ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
    const files = new Bucket(stack, 'StaticFiles', {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      // Built from the repository at every deploy; kept with the stage's other buckets all the same.
      removalPolicy: keep,
      autoDeleteObjects: !config.deletionProtection,
    });
    acceptFinding(
      files,
      'S1',
      'The static files are the build of the public repository, written only by the deployment and read only by CloudFront; who fetched them is in no way evidence.',
    );

    this.originVerify = new Secret(stack, 'OriginVerify', {
      description: 'Sent by CloudFront to API Gateway; the WAF lets only requests carrying it through',
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
      removalPolicy: keep,
    });
    acceptFinding(
      this.originVerify,
      'SMG4',
      'The value is set in the distribution and the WAF at deploy; rotating it means redeploying both, which a rotation Lambda cannot do. A stack update with a new value replaces it.',
    );

    const executeApiHost = `${api.restApiId}.execute-api.${Aws.REGION}.${Aws.URL_SUFFIX}`;
    const toApi = {
      origin: new HttpOrigin(executeApiHost, {
        originPath: `/${config.stage}`,
        customHeaders: { [ORIGIN_VERIFY_HEADER]: this.originVerify.secretValue.unsafeUnwrap() },
      }),
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      allowedMethods: AllowedMethods.ALLOW_ALL,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      functionAssociations: [
        {
          eventType: FunctionEventType.VIEWER_REQUEST,
          function: new EdgeFunction(stack, 'FrontDoorFunction', {
            code: FunctionCode.fromInline(FRONT_DOOR),
            runtime: FunctionRuntime.JS_2_0,
            comment: 'The console at /; the viewer address for the WAF and the functions',
          }),
        },
      ],
    };

    const fromBucket = S3BucketOrigin.withOriginAccessControl(files);
    // The console's page fetches nothing from the documents bucket (downloads are navigations),
    // so its policy names no bucket: naming it would tie the bucket's CORS, which names this
    // distribution, in a circle.
    const headers = consoleHeaders({ endpoints: {}, bucketName: '', region: Aws.REGION }, true);
    const staticHeaders = new ResponseHeadersPolicy(stack, 'StaticFileHeaders', {
      comment: "The console's and signing pages' security headers, on the files S3 serves",
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: headers['Content-Security-Policy']!, override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.NO_REFERRER, override: true },
        strictTransportSecurity: { accessControlMaxAge: Duration.days(365), override: true },
      },
      customHeadersBehavior: {
        customHeaders: [
          'Permissions-Policy',
          'Cross-Origin-Opener-Policy',
          'Cross-Origin-Resource-Policy',
        ].map((header) => ({ header, value: headers[header]!, override: true })),
      },
    });
    const staticFiles = {
      origin: fromBucket,
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
      cachePolicy: CachePolicy.CACHING_OPTIMIZED,
      responseHeadersPolicy: staticHeaders,
    };

    const domain = config.customDomain ? edgeCertificate(stack, config.customDomain) : undefined;
    this.distribution = new Distribution(stack, 'Edge', {
      comment: `open-esign ${config.stage}: console, pages and API`,
      defaultBehavior: toApi,
      additionalBehaviors: {
        [`/${CONSOLE_PREFIX}/api/*`]: toApi,
        [`/${CONSOLE_PREFIX}/assets/*`]: staticFiles,
        [`/${SIGNING_ASSETS_PREFIX}/*`]: staticFiles,
        [`/${CONSOLE_PREFIX}/*`]: {
          ...staticFiles,
          // index.html is deployed with no-cache: a new build shows at the next load.
          functionAssociations: [
            {
              eventType: FunctionEventType.VIEWER_REQUEST,
              function: new EdgeFunction(stack, 'ConsolePageFunction', {
                code: FunctionCode.fromInline(CONSOLE_PAGE),
                runtime: FunctionRuntime.JS_2_0,
                comment: "Every console path answers the console's page",
              }),
            },
          ],
        },
      },
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: PriceClass.PRICE_CLASS_100,
      ...(domain
        ? {
            domainNames: [domain.name],
            certificate: domain.certificate,
            minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
          }
        : {}),
    });
    acceptFinding(
      this.distribution,
      'CFR1',
      'Signers are anywhere in the world; a geographic restriction is for the operator to add.',
    );
    acceptFinding(
      this.distribution,
      'CFR2',
      "The stack's WAF sits on API Gateway behind the distribution (a regional web ACL: a CloudFront one must be made in us-east-1); static files are public by nature.",
    );
    acceptFinding(
      this.distribution,
      'CFR3',
      "API Gateway's access log records every request that reaches the service; the static files' fetches carry no evidence.",
    );
    if (!domain)
      acceptFinding(
        this.distribution,
        'CFR4',
        "Without the operator's domain the distribution uses CloudFront's own certificate, whose TLS versions CloudFront sets.",
      );
    if (domain?.zone)
      new ARecord(stack, 'EdgeRecord', {
        zone: domain.zone,
        recordName: domain.name,
        target: RecordTarget.fromAlias(new CloudFrontTarget(this.distribution)),
      });

    this.publicBaseUrl = domain
      ? `https://${domain.name}`
      : `https://${this.distribution.distributionDomainName}`;
    deployStaticFiles(stack, files, this.distribution);
  }
}

/**
 * The operator's domain on the distribution. CloudFront takes certificates from us-east-1 only:
 * an ARN given must be one there; one made here in the hosted zone is made in the stack's region,
 * so the stack must then be deployed in us-east-1 (a rule fails the deploy elsewhere, saying so).
 */
function edgeCertificate(stack: Stack, domain: NonNullable<TStageConfig['customDomain']>) {
  if ('certificateArn' in domain)
    return {
      name: domain.domainName,
      certificate: Certificate.fromCertificateArn(
        stack,
        'DomainCertificate',
        domain.certificateArn,
      ) as ICertificate,
      zone: undefined,
    };
  const zone = HostedZone.fromHostedZoneAttributes(stack, 'DomainZone', {
    hostedZoneId: domain.hostedZoneId,
    zoneName: domain.hostedZoneName,
  });
  new CfnRule(stack, 'CertificateInUsEast1', {
    assertions: [
      {
        assert: Fn.conditionEquals(Aws.REGION, 'us-east-1'),
        assertDescription:
          'CloudFront takes certificates from us-east-1 only: deploy this stack there, or make a certificate for the domain in us-east-1 and pass its ARN as certificateArn.',
      },
    ],
  });
  const certificate = new Certificate(stack, 'DomainCertificate', {
    domainName: domain.domainName,
    validation: CertificateValidation.fromDns(zone),
  });
  return { name: domain.domainName, certificate: certificate as ICertificate, zone };
}

/** The console as S3 serves it below `console/`: `index.html` and `assets/<hashed names>`. */
export function writeConsoleFiles(outDir: string): void {
  writeConsole(buildConsoleSync(), outDir);
}

/**
 * The signing pages' assets as S3 serves them below `sign/assets/`: `<version>/<name>`, the
 * version the signing function computes from the same files, so its pages name these.
 */
export function writeSigningAssets(outDir: string): void {
  const built = path.join(outDir, '.build');
  copyPageAssets(REPO_ROOT, built);
  const from = path.join(built, PAGE_ASSETS_DIR);
  const { version, files } = JSON.parse(readFileSync(path.join(from, 'manifest.json'), 'utf8')) as {
    version: string;
    files: string[];
  };
  for (const name of files) {
    const to = path.join(outDir, version, name);
    mkdirSync(path.dirname(to), { recursive: true });
    writeFileSync(to, readFileSync(path.join(from, name)));
  }
  rmSync(built, { recursive: true });
}

/**
 * The console's build and the signing pages' assets, written to the bucket at every deploy:
 * assets under their content-hashed names for a year, the console's page revalidated every time.
 * Old assets stay (prune: false) so a page loaded before a deploy still finds its files.
 */
function deployStaticFiles(stack: Stack, files: Bucket, distribution: Distribution): void {
  const consoleBuild = Source.asset(REPO_ROOT, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: localOnly(writeConsoleFiles),
  });
  const signingAssets = Source.asset(REPO_ROOT, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: localOnly(writeSigningAssets),
  });
  const forever = [CacheControl.fromString('public, max-age=31536000, immutable')];
  const deployment = (id: string, source: typeof consoleBuild, prefix: string, extra: object) =>
    new BucketDeployment(stack, id, {
      sources: [source],
      destinationBucket: files,
      destinationKeyPrefix: prefix,
      prune: false,
      memoryLimit: 512,
      ...extra,
    });
  deployment('ConsoleAssetsDeployment', consoleBuild, `${CONSOLE_PREFIX}/`, {
    exclude: ['*'],
    include: ['assets/*'],
    cacheControl: forever,
  });
  deployment('ConsolePageDeployment', consoleBuild, `${CONSOLE_PREFIX}/`, {
    exclude: ['*'],
    include: ['index.html'],
    cacheControl: [CacheControl.noCache()],
    // The page names the new assets: the edge must not keep the old one.
    distribution,
    distributionPaths: [`/${CONSOLE_PREFIX}/*`],
  });
  // S3 would guess .mjs as binary, which browsers refuse as a module script.
  deployment('SigningAssetsDeployment', signingAssets, `${SIGNING_ASSETS_PREFIX}/`, {
    exclude: ['*.mjs'],
    cacheControl: forever,
  });
  deployment('SigningModulesDeployment', signingAssets, `${SIGNING_ASSETS_PREFIX}/`, {
    exclude: ['*'],
    include: ['*.mjs'],
    cacheControl: forever,
    contentType: 'text/javascript; charset=utf-8',
  });
  acceptCopyFunction(stack, files);
}

/** CDK's one function that copies every deployment's files: its grants are CDK's to choose. */
function acceptCopyFunction(stack: Stack, files: Bucket): void {
  const copier = stack.node.children.find((c) => c.node.id.startsWith('Custom::CDKBucketDeployment'));
  if (!copier) throw new Error('No bucket deployment function in the stack');
  const because =
    "CDK's bucket deployment function, which runs only during a deploy to copy the build into the static files bucket (and invalidate the console's page); its runtime and grants are CDK's own.";
  const filesArn = `<${stack.getLogicalId(files.node.defaultChild as CfnBucket)}.Arn>`;
  for (const finding of [
    'IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
    'IAM5[Action::s3:GetBucket*]',
    'IAM5[Action::s3:GetObject*]',
    'IAM5[Action::s3:List*]',
    'IAM5[Action::s3:Abort*]',
    'IAM5[Action::s3:DeleteObject*]',
    `IAM5[Resource::${filesArn}/*]`,
    'IAM5[Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-<AWS::Region>/*]',
    'IAM5[Resource::*]',
    'L1',
  ])
    acceptFinding(copier, finding, because);
}
