// The local runtime's permission check: every AWS call a function makes (inside invoke(), see
// ../invocation.ts) is evaluated against that function's role as the synthesized template grants
// it (infra/generated/function-policies.json), and a call the role would not allow fails with
// AccessDenied, as on AWS. Calls made outside any function (the runtime's set-up, seeding, test
// helpers) are not checked. Each allowed action is recorded, for the report of grants no test used.
import type { TFunctionPolicies } from '../../iam/function-policies';
import { currentInvocation } from '../invocation';
import { isAllowed, type TAuthzRequest, type TPolicyStatement } from './evaluate';
import { authzRequests, type TArnScope } from './requests';

/** The local names and ARNs the placeholders of function-policies.json stand for. */
export type TPlaceholders = Record<string, string>;

/** What the SDK's middleware sees of a call: the client and command names, and the input. */
interface TCallContext {
  clientName?: string;
  commandName?: string;
}
type TNext = (args: { input: object }) => Promise<unknown>;
interface TMiddlewareStack {
  add(middleware: (next: TNext, context: TCallContext) => TNext, options: object): void;
}

export interface TIamCheck {
  /** Adds the check to a client (any AWS SDK v3 client, or the DynamoDB document client). */
  attach<T>(client: T): T;
  /** Which actions each function used, for the unused-grants report. */
  used(): Record<string, string[]>;
}

/** Fills `${Name}` placeholders; one not given is left as is, and so matches nothing. */
function fill(value: unknown, names: TPlaceholders): unknown {
  if (typeof value === 'string')
    return value.replace(/\$\{([^}]+)\}/g, (all, key: string) => names[key] ?? all);
  if (Array.isArray(value)) return value.map((v) => fill(v, names));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, names)]));
  }
  return value;
}

/** An error shaped as the SDK's own for a denied call, so adapters handle it as on AWS. */
export function accessDenied(fn: string, request: TAuthzRequest, scope: TArnScope): Error {
  const err = new Error(
    `User: arn:aws:sts::${scope.account}:assumed-role/esign-local-${fn}/${fn} is not authorized to perform: ` +
      `${request.action} on resource: ${request.resource} because no identity-based policy allows the ` +
      `${request.action} action`,
  );
  const s3 = request.action.startsWith('s3:');
  return Object.assign(err, {
    name: s3 ? 'AccessDenied' : 'AccessDeniedException',
    Code: s3 ? 'AccessDenied' : 'AccessDeniedException',
    $fault: 'client',
    $metadata: { httpStatusCode: s3 ? 403 : 400, attempts: 1, totalRetryDelay: 0 },
  });
}

export function createIamCheck(options: {
  policies: TFunctionPolicies;
  placeholders: TPlaceholders;
  scope: TArnScope;
  /** Told when a function uses an action for the first time. */
  onFirstUse?: () => void;
}): TIamCheck {
  const { scope } = options;
  const roles = new Map<string, TPolicyStatement[]>(
    Object.entries(options.policies).map(([fn, st]) => [
      fn,
      fill(st, options.placeholders) as TPolicyStatement[],
    ]),
  );
  const used = new Map<string, Set<string>>();
  const check = (context: TCallContext, input: Record<string, unknown>) => {
    const fn = currentInvocation()?.fn;
    if (!fn) return;
    const statements = roles.get(fn) ?? [];
    const requests = authzRequests(String(context.clientName), String(context.commandName), input, scope);
    for (const request of requests) {
      if (!isAllowed(statements, request)) throw accessDenied(fn, request, scope);
      const actions = used.get(fn) ?? new Set<string>();
      if (actions.has(request.action)) continue;
      used.set(fn, actions.add(request.action));
      options.onFirstUse?.();
    }
  };
  const middleware =
    (next: TNext, context: TCallContext): TNext =>
    async (args) => {
      check(context, args.input as Record<string, unknown>);
      return next(args);
    };
  return {
    attach<T>(client: T): T {
      const stack = (client as { middlewareStack: TMiddlewareStack }).middlewareStack;
      stack.add(middleware, { step: 'initialize', name: 'localIamCheck', override: true });
      return client;
    },
    used: () => Object.fromEntries([...used].map(([fn, actions]) => [fn, [...actions].sort()])),
  };
}
