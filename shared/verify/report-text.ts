// The report as a person reads it in a terminal: one PASS/FAIL/WARN/INFO line per check, what to
// do next under each that needs it, and the verdict last, where the eye lands.
import type { TCheckStatus, TVerifyReport } from './report';

const LABEL: Record<TCheckStatus, string> = { pass: 'PASS', fail: 'FAIL', warn: 'WARN', info: 'INFO' };

export function reportText(report: TVerifyReport, fileName: string): string {
  const lines = [
    `esign-verify ${fileName}`,
    `  SHA-256 ${report.file.sha256}, ${report.file.bytes} bytes`,
    '',
  ];
  for (const check of report.checks) {
    lines.push(`${LABEL[check.status]}  ${check.title}`);
    if (check.next && check.status !== 'pass') lines.push(`      → ${check.next}`);
  }
  lines.push('');
  const failed = report.checks.filter((c) => c.status === 'fail').length;
  lines.push(
    report.result === 'pass'
      ? 'RESULT: PASS — every check holds.'
      : `RESULT: FAIL — ${failed} check${failed === 1 ? '' : 's'} failed; see the lines marked FAIL.`,
  );
  return `${lines.join('\n')}\n`;
}
