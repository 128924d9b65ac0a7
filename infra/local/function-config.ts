// Each local function's configuration: the runtime's, less the parts infra/function-config.ts
// does not give that function, as the stack leaves them out of its environment on AWS.
import type { TConfig } from '#shared/config';
import type { TLambdaName } from '../bundling';
import { CONFIG_KEYS, FUNCTION_CONFIG } from '../function-config';
import type { TLocalDeps } from './runtime-options';

/**
 * The parts a function without them has no key for; the usage plan and the links' base are read
 * as '' instead (below), as configFromEnv reads them, and the queues are one key, by queue name.
 */
const OPTIONAL_KEYS = CONFIG_KEYS.filter((k) => k !== 'usagePlanId' && k !== 'publicBaseUrl');

export function configFor(fn: TLambdaName, config: TConfig): TConfig {
  const given = new Set<string>(FUNCTION_CONFIG[fn]);
  // Without them, configFromEnv reads '' (shared/config.ts): the same here.
  const own: TConfig = { ...config, usagePlanId: given.has('usagePlanId') ? config.usagePlanId : '' };
  for (const key of OPTIONAL_KEYS) if (!given.has(key)) delete own[key];
  own.queues = Object.fromEntries(
    Object.entries(config.queues ?? {}).filter(([queue]) => given.has(`queues.${queue}`)),
  );
  // Known only once the gateway listens (runtime.ts sets it later): read through, not copied.
  Object.defineProperty(own, 'publicBaseUrl', {
    get: () => (given.has('publicBaseUrl') ? config.publicBaseUrl : ''),
    enumerable: true,
  });
  return own;
}

/** What each local function is built with: its own configuration, the table client, its telemetry. */
export function ownDeps({ config, db, telemetry }: TLocalDeps) {
  return (fn: TLambdaName) => ({ config: configFor(fn, config), db, telemetry: telemetry(fn) });
}
