// Where each function's permissions are kept between `npm run policies` runs, and how they are
// made from a synthesized stack (function-policies.ts) and read back (the local runtime).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../bundling';
import { functionPolicies, type TFunctionPolicies } from './function-policies';

export const FUNCTION_POLICIES_FILE = path.join(REPO_ROOT, 'infra/generated/function-policies.json');

/** The permissions of `stack`'s functions (its template given), placeholders for its resources. */
// The stack as this reads it, not aws-cdk-lib's type: the local runtime and the unit tests load
// this file, and nothing of the CDK.
interface TStackNames {
  stackName: string;
  node: { tryGetContext(key: string): unknown };
}

export function policiesOfStack(template: Parameters<typeof functionPolicies>[0], stack: TStackNames) {
  const stage = stack.stackName.replace(/^Esign-/, '');
  const mailFrom = String(stack.node.tryGetContext('mailFrom') ?? 'no-reply@example.com');
  return functionPolicies(template, { name: stack.stackName, stage, mailFrom });
}

let loaded: TFunctionPolicies | undefined;

/** The committed permissions, read once per process. */
export function committedPolicies(): TFunctionPolicies {
  loaded ??= JSON.parse(readFileSync(FUNCTION_POLICIES_FILE, 'utf8')) as TFunctionPolicies;
  return loaded;
}
