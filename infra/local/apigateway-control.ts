import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LocalUsagePlan } from './usage-plan';

/**
 * The two calls of API Gateway's management API that the keyed API Lambdas make (GetUsagePlan,
 * GetUsage: GET /rate_limit/ and the X-RateLimit-* headers), answered from the local usage plan,
 * so the same @aws-sdk/client-api-gateway adapter runs here and on AWS.
 */
export async function startApiGatewayControl(opts: { host: string; plan: LocalUsagePlan }) {
  const send = (res: ServerResponse, status: number, body: unknown, errorType?: string) => {
    res.writeHead(status, {
      'content-type': 'application/json',
      ...(errorType ? { 'x-amzn-errortype': errorType } : {}),
    });
    res.end(JSON.stringify(body));
  };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const m = /^\/usageplans\/([^/]+)(\/usage)?\/?$/.exec(url.pathname);
    if (req.method !== 'GET' || !m)
      return send(res, 404, { message: 'Not supported locally' }, 'NotFoundException');
    if (decodeURIComponent(m[1]!) !== opts.plan.id) {
      return send(res, 404, { message: 'Invalid Usage Plan ID specified' }, 'NotFoundException');
    }
    const s = opts.plan.settings;
    if (!m[2]) {
      return send(res, 200, {
        id: opts.plan.id,
        name: 'local',
        quota: { limit: s.quotaLimit, offset: 0, period: s.quotaPeriod },
        throttle: { rateLimit: s.rateLimit, burstLimit: s.burstLimit },
      });
    }
    const keyId = url.searchParams.get('keyId');
    const startDate = url.searchParams.get('startDate') ?? '';
    const endDate = url.searchParams.get('endDate') ?? '';
    const values = keyId ? { [keyId]: [opts.plan.usage(keyId)] } : {};
    return send(res, 200, { usagePlanId: opts.plan.id, startDate, endDate, values });
  });
  await new Promise<void>((resolve) => server.listen(0, opts.host, () => resolve()));
  const bound = server.address() as AddressInfo;
  return {
    endpoint: `http://${opts.host}:${bound.port}`,
    bound,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
