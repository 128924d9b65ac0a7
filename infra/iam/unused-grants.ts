// The grants no test used: each function's allowed actions (as its role in the template grants
// them) that no call the local runtime checked ever matched, from the usage every local runtime
// writes at stop (infra/local/iam/local-check.ts). Candidates to remove from infra/constructs/.
// `npm run policies:unused` prints the report of the last `npm test`; the test run writes it too.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../bundling';
import { wildcardMatch } from '../local/iam/evaluate';
import type { TFunctionPolicies } from './function-policies';
import { committedPolicies } from './policies-file';

/** Where the test run's runtimes write what they used, and where the report goes. */
export const IAM_USAGE_DIR = path.join(REPO_ROOT, 'test-artifacts/iam-usage');
export const UNUSED_GRANTS_FILE = path.join(REPO_ROOT, 'test-artifacts/iam-unused-grants.json');

// Lambda's own service calls (its logs, X-Ray) are made by the runtime, not by the code.
const PLATFORM = /^(logs|xray):/;

/** Per function, the granted action patterns no used action matches. */
export function unusedGrants(
  policies: TFunctionPolicies,
  used: Record<string, string[]>,
): Record<string, string[]> {
  const report: Record<string, string[]> = {};
  for (const [fn, statements] of Object.entries(policies)) {
    const granted = statements
      .filter((s) => s.Effect === 'Allow')
      .flatMap((s) => (s.Action === undefined ? [] : [s.Action].flat()))
      .filter((a) => !PLATFORM.test(a));
    const actions = used[fn] ?? [];
    const unused = [...new Set(granted)]
      .filter((g) => !actions.some((a) => wildcardMatch(g, a, true)))
      .sort();
    if (unused.length > 0) report[fn] = unused;
  }
  return report;
}

/** What every runtime of the run used, merged. */
export function readUsage(dir = IAM_USAGE_DIR): Record<string, string[]> {
  const merged = new Map<string, Set<string>>();
  if (!existsSync(dir)) return {};
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const used = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Record<string, string[]>;
    for (const [fn, actions] of Object.entries(used)) {
      const set = merged.get(fn) ?? new Set<string>();
      for (const a of actions) set.add(a);
      merged.set(fn, set);
    }
  }
  return Object.fromEntries([...merged].map(([fn, s]) => [fn, [...s].sort()]));
}

/** Writes the report from the run's usage; answers it. */
export function writeUnusedGrants(dir = IAM_USAGE_DIR): Record<string, string[]> {
  const report = unusedGrants(committedPolicies(), readUsage(dir));
  writeFileSync(UNUSED_GRANTS_FILE, `${JSON.stringify(report, null, 2)}\n`);
  return report;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  if (!existsSync(IAM_USAGE_DIR)) {
    console.error('No usage recorded: run "npm test" first (it records what each function used).');
    process.exit(1);
  }
  const report = writeUnusedGrants();
  for (const [fn, actions] of Object.entries(report)) console.log(`${fn}: ${actions.join(', ')}`);
  console.log(
    `\n${path.relative(REPO_ROOT, UNUSED_GRANTS_FILE)}: granted actions no test used, per function.`,
  );
}
