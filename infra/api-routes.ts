// Which Lambda serves which top-level path below /api/v2. The CDK stack creates these API
// Gateway resources and the local runtime routes requests by the same table.

export type TFunctionName = 'persons' | 'account' | 'bundles' | 'packets' | 'webhooks';

export const API_ROUTES: { resource: string; fn: TFunctionName }[] = [
  { resource: 'persons', fn: 'persons' },
  { resource: 'bundles', fn: 'bundles' },
  { resource: 'packets', fn: 'packets' },
  { resource: 'webhooks', fn: 'webhooks' },
  { resource: 'rate_limit', fn: 'account' },
];
