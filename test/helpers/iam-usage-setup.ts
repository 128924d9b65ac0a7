// Vitest's global set-up: every local runtime of the run records which actions each function
// used (IAM_USAGE_DIR, infra/local/iam/local-check.ts); at the end the usage is merged into the
// report of granted actions no test used (infra/iam/unused-grants.ts).
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { IAM_USAGE_DIR, UNUSED_GRANTS_FILE, writeUnusedGrants } from '#infra/iam/unused-grants';

// Each test project runs this set-up: the first clears the last run's usage, the rest keep it.
export function setup(): void {
  if (process.env.IAM_USAGE_DIR === IAM_USAGE_DIR) return;
  rmSync(IAM_USAGE_DIR, { recursive: true, force: true });
  mkdirSync(IAM_USAGE_DIR, { recursive: true });
  process.env.IAM_USAGE_DIR = IAM_USAGE_DIR;
}

export function teardown(): void {
  if (process.env.IAM_USAGE_REPORTED) return;
  process.env.IAM_USAGE_REPORTED = '1';
  const report = writeUnusedGrants();
  const count = Object.values(report).reduce((n, actions) => n + actions.length, 0);
  // A partial run leaves more unused than the whole suite does: read it after `npm test`.
  console.log(
    `IAM: ${count} granted actions no test used, in ${Object.keys(report).length} functions (${path.relative(process.cwd(), UNUSED_GRANTS_FILE)}; npm run policies:unused)`,
  );
}
