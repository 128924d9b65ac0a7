// `npm start`: the whole service in one process. Flags win over environment variables.
//   --port <n>      PORT       (3000)
//   --host <addr>   HOST       (127.0.0.1)
//   --data-dir <p>  DATA_DIR   (.data)
//   --memory        MEMORY=1   keep nothing after exit
//   --log-level <l> LOG_LEVEL  (info)
//   --webhook-retry-scale <x> WEBHOOK_RETRY_SCALE (1)  shortens webhook retry delays, e.g. 0.004
//   --rate-limit <n> RATE_LIMIT (50)  requests per second per key; the burst is ten seconds' worth
import { parseArgs } from 'node:util';

// The SDK warns that its releases after January 2027 need Node 22; the pinned ones run on 20.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

import type { TLogLevel } from '#shared/logger';
import { throttleFor } from '../stage-config';
import { DEMO_EMAIL } from './demo-account';
import { startLocalRuntime } from './runtime';

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    'data-dir': { type: 'string' },
    memory: { type: 'boolean' },
    'log-level': { type: 'string' },
    'webhook-retry-scale': { type: 'string' },
    'rate-limit': { type: 'string' },
  },
  strict: true,
});

const env = process.env;
const port = Number(values.port ?? env.PORT ?? 3000);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`Invalid port: ${values.port ?? env.PORT}`);
  process.exit(2);
}

const retryScale = Number(values['webhook-retry-scale'] ?? env.WEBHOOK_RETRY_SCALE ?? 1);
if (!(retryScale > 0 && retryScale <= 1)) {
  console.error(
    `Invalid webhook retry scale (0 < x ≤ 1): ${values['webhook-retry-scale'] ?? env.WEBHOOK_RETRY_SCALE}`,
  );
  process.exit(2);
}

const rateLimitRaw = values['rate-limit'] ?? env.RATE_LIMIT;
const rateLimit = rateLimitRaw === undefined || rateLimitRaw === '' ? undefined : Number(rateLimitRaw);
if (rateLimit !== undefined && !(Number.isInteger(rateLimit) && rateLimit >= 1 && rateLimit <= 10_000)) {
  console.error(`Invalid rate limit (requests per second per key, 1 to 10000): ${rateLimitRaw}`);
  process.exit(2);
}

const runtime = await startLocalRuntime({
  port,
  host: values.host ?? env.HOST ?? '127.0.0.1',
  dataDir: values['data-dir'] ?? env.DATA_DIR ?? '.data',
  memory: values.memory ?? ['1', 'true'].includes(env.MEMORY ?? ''),
  logLevel: (values['log-level'] ?? env.LOG_LEVEL ?? 'info') as TLogLevel,
  webhookRetryScale: retryScale,
  ...(rateLimit !== undefined ? { limits: throttleFor(rateLimit) } : {}),
}).catch((err: NodeJS.ErrnoException) => {
  if (err.code === 'EADDRINUSE') console.error(`Port ${port} is in use: choose another with --port or PORT.`);
  else if (/lock/i.test(String(err.message))) {
    console.error('The data folder is in use by another running instance (or choose --data-dir).');
  } else console.error(err);
  process.exit(1);
});

const lines = [
  '',
  `eSignature service running (data: ${values.memory ? 'in memory' : runtime.dataDir})`,
  `  Console         ${runtime.baseUrl}/console/`,
  `  Sign in as      ${DEMO_EMAIL} (the sign-in link arrives in Sent messages)`,
  `  Single sign-on  ${DEMO_EMAIL} too, through the local OIDC provider http://127.0.0.1:${runtime.bound.oidc.port}`,
  `  API             ${runtime.apiUrl}`,
  `  Sent messages   ${runtime.baseUrl}/dev/mailbox`,
  `  Demo account    ${runtime.demo.accountId}`,
  '  Demo API key (send as "Authorization: Token <key>"):',
  runtime.demo.apiKey,
  '',
  `  curl -H "Authorization: Token ${runtime.demo.apiKey}" ${runtime.apiUrl}persons/`,
  '',
];
process.stdout.write(`${lines.join('\n')}\n`);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  process.stdout.write(`\n${signal}: stopping...\n`);
  await runtime.stop();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
