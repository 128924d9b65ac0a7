// The front door (infra/constructs/edge.ts): one CloudFront distribution for the console, the
// pages and the API; static files from a private bucket, the rest to API Gateway uncached with
// the headers the console's session needs.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { CachePolicy, OriginRequestPolicy } from 'aws-cdk-lib/aws-cloudfront';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signingAssets } from '#functions/public-pages/assets';
import { CONSOLE_PAGE, FRONT_DOOR, writeConsoleFiles, writeSigningAssets } from '#infra/constructs/edge';
import { VIEWER_ADDRESS_HEADER } from '#infra/front-door';
import { resources, SYNTH_TIMEOUT_MS, synthStages } from './stack-template';

let dev: Template;

beforeAll(() => {
  ({ dev } = synthStages());
}, SYNTH_TIMEOUT_MS);

interface TBehavior {
  PathPattern?: string;
  TargetOriginId: string;
  CachePolicyId: string;
  OriginRequestPolicyId?: string;
  AllowedMethods: string[];
  ViewerProtocolPolicy: string;
  ResponseHeadersPolicyId?: unknown;
  FunctionAssociations?: { EventType: string; FunctionARN: { 'Fn::GetAtt': [string, string] } }[];
}

function distribution() {
  const config = (
    Object.values(dev.findResources('AWS::CloudFront::Distribution'))[0]!.Properties as {
      DistributionConfig: {
        DefaultCacheBehavior: TBehavior;
        CacheBehaviors: TBehavior[];
        Origins: { Id: string; S3OriginConfig?: unknown; OriginAccessControlId?: unknown }[];
      };
    }
  ).DistributionConfig;
  const byPath = new Map(config.CacheBehaviors.map((b) => [b.PathPattern!, b]));
  const s3 = config.Origins.find((o) => o.S3OriginConfig)!;
  return { config, byPath, s3 };
}

/** A CloudFront function's code, run as CloudFront runs it: one `handler(event)`. */
const runEdge = (code: string) =>
  new Function(`${code}; return handler;`)() as (event: unknown) => Record<string, unknown>;
const viewerRequest = (uri: string, headers: Record<string, { value: string }> = {}) => ({
  viewer: { ip: '203.0.113.7' },
  request: { uri, method: 'GET', headers, querystring: {}, cookies: {} },
});

describe('the distribution', () => {
  it('sends the API, the pages and the console’s session calls to API Gateway, uncached, with every header but Host', () => {
    const { config, byPath } = distribution();
    for (const behavior of [config.DefaultCacheBehavior, byPath.get('/console/api/*')!]) {
      expect(behavior.CachePolicyId).toBe(CachePolicy.CACHING_DISABLED.cachePolicyId);
      // Authorization, Cookie (the console's session) and X-CSRF-Token all reach the service.
      expect(behavior.OriginRequestPolicyId).toBe(
        OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER.originRequestPolicyId,
      );
      expect(behavior.AllowedMethods).toEqual(expect.arrayContaining(['POST', 'PUT', 'PATCH', 'DELETE']));
      expect(behavior.ViewerProtocolPolicy).toBe('redirect-to-https');
      expect(behavior.TargetOriginId).toBe(config.DefaultCacheBehavior.TargetOriginId);
    }
  });

  it('serves the console’s and the signing pages’ files from the private bucket, cached, with the pages’ security headers', () => {
    const { byPath, s3 } = distribution();
    for (const pattern of ['/console/assets/*', '/sign/assets/*', '/console/*']) {
      const behavior = byPath.get(pattern)!;
      expect(behavior.TargetOriginId, pattern).toBe(s3.Id);
      expect(behavior.CachePolicyId, pattern).toBe(CachePolicy.CACHING_OPTIMIZED.cachePolicyId);
      expect(behavior.AllowedMethods, pattern).toEqual(['GET', 'HEAD']);
      expect(behavior.ResponseHeadersPolicyId, pattern).toBeDefined();
    }
    expect(s3.OriginAccessControlId).toBeDefined();
    dev.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: Match.objectLike({
        SecurityHeadersConfig: Match.objectLike({
          ContentSecurityPolicy: {
            ContentSecurityPolicy: Match.stringLikeRegexp(
              "script-src 'self'; style-src 'self'.*frame-ancestors 'none'",
            ),
            Override: true,
          },
          FrameOptions: { FrameOption: 'DENY', Override: true },
        }),
      }),
    });
    const csp = JSON.stringify(dev.findResources('AWS::CloudFront::ResponseHeadersPolicy'));
    expect(csp).not.toContain('unsafe-inline');
    // The bucket answers CloudFront alone, for this distribution.
    const policies = Object.values(resources(dev)).filter((r) => r.Type === 'AWS::S3::BucketPolicy');
    expect(JSON.stringify(policies)).toContain('cloudfront.amazonaws.com');
  });

  it('leads / and /console to the console, and writes the viewer’s own address over any sent', () => {
    const frontDoor = runEdge(FRONT_DOOR);
    for (const uri of ['/', '/console'])
      expect(frontDoor(viewerRequest(uri))).toEqual({
        statusCode: 302,
        statusDescription: 'Found',
        headers: { location: { value: '/console/' } },
      });
    const forged = viewerRequest('/api/v2/bundles/', { [VIEWER_ADDRESS_HEADER]: { value: '10.0.0.1' } });
    const passed = frontDoor(forged) as { uri: string; headers: Record<string, { value: string }> };
    expect(passed.uri).toBe('/api/v2/bundles/');
    expect(passed.headers[VIEWER_ADDRESS_HEADER]).toEqual({ value: '203.0.113.7' });
    // Every console path but its assets and API is the console's one page.
    const page = runEdge(CONSOLE_PAGE)(viewerRequest('/console/bundles/abc')) as { uri: string };
    expect(page.uri).toBe('/console/index.html');
    const { config, byPath } = distribution();
    const functionOf = (b: TBehavior) => b.FunctionAssociations?.[0]?.FunctionARN['Fn::GetAtt'][0];
    expect(functionOf(config.DefaultCacheBehavior)).toMatch(/^FrontDoorFunction/);
    expect(functionOf(byPath.get('/console/*')!)).toMatch(/^ConsolePageFunction/);
    expect(functionOf(byPath.get('/console/assets/*')!)).toBeUndefined();
  });

  it('deploys assets to be kept a year and the console’s page to be asked for again, and .mjs as JavaScript', () => {
    const deployments = Object.values(resources(dev)).filter((r) => r.Type === 'Custom::CDKBucketDeployment');
    const props = deployments.map((d) => d.Properties as Record<string, unknown>);
    const byPrefix = (prefix: string) => props.filter((p) => p.DestinationBucketKeyPrefix === prefix);
    expect(byPrefix('console/')).toHaveLength(2);
    expect(byPrefix('sign/assets/')).toHaveLength(2);
    const cacheControl = (p: Record<string, unknown>) =>
      (p.SystemMetadata as Record<string, string> | undefined)?.['cache-control'];
    const page = props.find((p) => JSON.stringify(p.Include) === '["index.html"]')!;
    expect(cacheControl(page)).toBe('no-cache');
    expect(page.DistributionPaths).toEqual(['/console/*']);
    for (const p of props.filter((x) => x !== page))
      expect(cacheControl(p)).toBe('public, max-age=31536000, immutable');
    const modules = props.find((p) => JSON.stringify(p.Include) === '["*.mjs"]')!;
    expect((modules.SystemMetadata as Record<string, string>)['content-type']).toBe(
      'text/javascript; charset=utf-8',
    );
    // Old files stay: a page loaded before a deploy still finds its own.
    for (const p of props) expect(p.Prune).toBe(false);
  });
});

describe('the static files deployed', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'edge-files-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('put the signing assets under the version the signing pages name', () => {
    const out = path.join(dir, 'sign');
    writeSigningAssets(out);
    const { version } = signingAssets();
    expect(readdirSync(out)).toEqual([version]);
    expect(readFileSync(path.join(out, version, 'app.js'))).toEqual(signingAssets().read('app.js'));
  });

  it('put the console’s page and every asset it names', () => {
    const out = path.join(dir, 'console');
    writeConsoleFiles(out);
    const html = readFileSync(path.join(out, 'index.html'), 'utf8');
    const named = [...html.matchAll(/\/console\/assets\/([^"]+)/g)].map((m) => m[1]!);
    expect(named).toHaveLength(2);
    for (const file of named) expect(existsSync(path.join(out, 'assets', file)), file).toBe(true);
  });
});
