// The local permission check (infra/local/iam/): a function whose role lacks a grant fails its
// call with AccessDenied, as on AWS, and the API answers 500 as the deployed stack would.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TFunctionPolicies } from '#infra/iam/function-policies';
import { committedPolicies } from '#infra/iam/policies-file';
import type { TRuntime } from '#infra/local/runtime';
import { apiClient, startTestRuntime } from '../helpers/runtime';

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;

/** The committed roles, with `action` taken out of `fn`'s. */
function without(fn: string, action: string): TFunctionPolicies {
  const policies = structuredClone(committedPolicies());
  policies[fn] = policies[fn]!.map((s) =>
    Array.isArray(s.Action) ? { ...s, Action: s.Action.filter((a) => a !== action) } : s,
  );
  return policies;
}

beforeAll(async () => {
  runtime = await startTestRuntime({ iamPolicies: without('persons', 'dynamodb:PutItem') });
  call = apiClient(runtime);
});
afterAll(() => runtime?.stop());

describe('a function without a grant it needs', () => {
  it('fails the call it lacks the grant for, and only that one', async () => {
    const created = await call('POST', '/persons/', {
      json: { name: 'Ann Lee', channels: [{ email: 'a@example.com' }] },
    });
    expect(created.status).toBe(500);
    // Reading needs dynamodb:Query, which the role still has.
    const listed = await call('GET', '/persons/');
    expect(listed.status).toBe(200);
    expect(listed.body.map((p: { name: string }) => p.name)).not.toContain('Ann Lee');
  });
});
