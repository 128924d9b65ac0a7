// Each function's permissions as the synthesized template grants them, in a form the local
// runtime can evaluate without synthesizing: CloudFormation references become placeholders
// (`${Table}`, `${Bucket:documents}`, `${Queue:notifications}`, `${Key:SealKey}`, …) that the
// local permission check (infra/local/iam/) fills with its stand-ins' names. `npm run policies`
// writes infra/generated/function-policies.json from the dev template;
// test/infra/template-function-policies.test.ts fails when that file is out of date.
import type { TPolicyStatement } from '../local/iam/evaluate';

export type TFunctionPolicies = Record<string, TPolicyStatement[]>;

interface TResource {
  Type: string;
  Properties?: Record<string, unknown>;
}
interface TTemplate {
  Resources: Record<string, TResource>;
}

/** The statements of every function's role in `template`, by function name (`bundles`, …). */
export function functionPolicies(
  template: TTemplate,
  stack: { name: string; stage: string; mailFrom: string },
): TFunctionPolicies {
  const all = template.Resources;
  const out: TFunctionPolicies = {};
  const prefix = `${stack.name}-`;
  for (const r of Object.values(all)) {
    if (r.Type !== 'AWS::Lambda::Function') continue;
    const name = r.Properties?.FunctionName;
    if (typeof name !== 'string' || !name.startsWith(prefix)) continue;
    const role = (r.Properties!.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    const render = renderer(all, stack);
    const statements = roleStatements(all, role).map((s) => render(s) as TPolicyStatement);
    out[name.slice(prefix.length)] = statements.sort((a, b) =>
      JSON.stringify(a).localeCompare(JSON.stringify(b)),
    );
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

function roleStatements(all: Record<string, TResource>, role: string): unknown[] {
  const statements: unknown[] = [];
  const inline = (all[role]!.Properties!.Policies ?? []) as { PolicyDocument: { Statement: unknown[] } }[];
  for (const p of inline) statements.push(...p.PolicyDocument.Statement);
  for (const r of Object.values(all)) {
    if (r.Type !== 'AWS::IAM::Policy') continue;
    if (!(r.Properties!.Roles as { Ref: string }[]).some((ref) => ref.Ref === role)) continue;
    statements.push(...(r.Properties!.PolicyDocument as { Statement: unknown[] }).Statement);
  }
  return statements;
}

/** A placeholder the local check fills: `${name}`. */
const ph = (name: string) => `\${${name}}`;

/** A construct's id without CDK's hash: `SealKey94782D95` → `SealKey`. */
const idOf = (logicalId: string) => logicalId.replace(/[0-9A-F]{8}$/, '');

function renderer(all: Record<string, TResource>, stack: { stage: string; mailFrom: string }) {
  const mailDomain = stack.mailFrom.split('@')[1]!;
  const named = (logicalId: string): string => {
    const r = all[logicalId];
    if (!r) throw new Error(`no resource ${logicalId}`);
    switch (r.Type) {
      case 'AWS::DynamoDB::Table':
        return ph('Table');
      case 'AWS::S3::Bucket':
        return `\${Bucket:${idOf(logicalId)}}`;
      case 'AWS::SQS::Queue':
        return `\${Queue:${String(r.Properties!.QueueName).replace(`esign-${stack.stage}-`, '')}}`;
      case 'AWS::SES::ConfigurationSet':
        return ph('ConfigurationSet');
      default:
        return `\${${r.Type.split('::')[1]}:${idOf(logicalId)}}`;
    }
  };
  const pseudo: Record<string, string> = {
    'AWS::Partition': 'aws',
    'AWS::Region': ph('Region'),
    'AWS::AccountId': ph('Account'),
  };
  const text = (s: string) =>
    s
      .replaceAll(stack.mailFrom, ph('MailFrom'))
      .replaceAll(`identity/${mailDomain}`, `identity/${ph('MailDomain')}`)
      .replaceAll(`esign-${stack.stage}-`, `esign-${ph('Stage')}-`);
  const render = (v: unknown): unknown => {
    if (typeof v === 'string') return text(v);
    if (Array.isArray(v)) return v.map(render);
    if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if ('Ref' in o) return pseudo[o.Ref as string] ?? named(o.Ref as string);
      if ('Fn::GetAtt' in o) {
        const [id, attr] = o['Fn::GetAtt'] as [string, string];
        return attr === 'Arn' ? named(id) : `${named(id)}.${attr}`;
      }
      if ('Fn::Join' in o) {
        const [sep, parts] = o['Fn::Join'] as [string, unknown[]];
        return parts.map((p) => render(p) as string).join(sep);
      }
      return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, render(x)]));
    }
    return v;
  };
  return render;
}
