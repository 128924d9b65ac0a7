// The permissions the local runtime checks every AWS call against (infra/local/iam/) are the
// template's: infra/generated/function-policies.json must be what the dev stack grants today.
import { readFileSync } from 'node:fs';
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { FUNCTION_POLICIES_FILE, policiesOfStack } from '#infra/iam/policies-file';
import type { EsignStack } from '#infra/stack';
import { SYNTH_TIMEOUT_MS, synthStages } from './stack-template';

let dev: Template;
let devStack: EsignStack;

beforeAll(() => {
  ({ dev, devStack } = synthStages());
}, SYNTH_TIMEOUT_MS);

describe("the functions' permissions checked locally", () => {
  it('are the synthesized template\'s (after a change of grants, run "npm run policies")', () => {
    const committed = JSON.parse(readFileSync(FUNCTION_POLICIES_FILE, 'utf8'));
    const synthesized = policiesOfStack(dev.toJSON() as never, devStack);
    expect(
      committed,
      'infra/generated/function-policies.json is out of date: run "npm run policies"',
    ).toEqual(synthesized);
    // Every function the stack deploys has its role there, placeholders for the stack's resources.
    expect(Object.keys(committed)).toEqual(
      expect.arrayContaining(['bundles', 'document-worker', 'authorizer']),
    );
    expect(JSON.stringify(committed)).not.toMatch(/"Fn::|"Ref"/);
  });
});
