// The local runtime in a process of its own, for tests that kill it (kill -9) and start it again
// on the same data folder. Prints one JSON line once it listens: { apiUrl, apiKey }.
//   node --import tsx test/helpers/runtime-process-main.ts <data-dir> [--hold-webhooks] [--function-timeout-ms=<n>]
// --hold-webhooks stops the webhook dispatcher once started, so events stay queued (and on disk)
// until a later start without it delivers them; --function-timeout-ms sets the API functions'
// timeout (the runtime's functionTimeoutMs).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

import { startLocalRuntime } from '#infra/local/runtime';
import { TEST_LIMITS } from './runtime';

const [dataDir, ...flags] = process.argv.slice(2);
if (!dataDir) throw new Error('usage: runtime-process-main.ts <data-dir> [--hold-webhooks]');
const timeout = flags.find((f) => f.startsWith('--function-timeout-ms='))?.split('=')[1];
const runtime = await startLocalRuntime({
  port: 0,
  dataDir,
  logLevel: 'silent',
  limits: TEST_LIMITS,
  ...(timeout ? { functionTimeoutMs: Number(timeout) } : {}),
});
if (flags.includes('--hold-webhooks')) await runtime.workers.webhooks.stop();
process.stdout.write(`${JSON.stringify({ apiUrl: runtime.apiUrl, apiKey: runtime.demo.apiKey })}\n`);
process.on('SIGTERM', () => void runtime.stop().then(() => process.exit(0)));
