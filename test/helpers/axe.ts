// axe-core in the page, for WCAG 2.2 AA: every rule tagged for levels A and AA of WCAG 2.0, 2.1
// and 2.2. A violation reads as its rule, the elements it hit and what to fix, so a failing test
// says what is wrong without opening a report.
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** One line a violation: `rule (impact): summary — target, target`. */
export interface TAxeViolation {
  rule: string;
  impact: string;
  summary: string;
  targets: string[];
}

/** The WCAG A/AA violations on the page now; `include` limits the check to one part of it. */
export async function axeViolations(page: Page, opts: { include?: string } = {}): Promise<TAxeViolation[]> {
  let builder = new AxeBuilder({ page }).withTags(WCAG_TAGS);
  if (opts.include) builder = builder.include(opts.include);
  const result = await builder.analyze();
  return result.violations.map((v) => ({
    rule: v.id,
    impact: v.impact ?? 'unknown',
    summary: v.help,
    targets: v.nodes.map(
      (n) => `${n.target.join(' >>> ')}${n.failureSummary ? ` [${firstFix(n.failureSummary)}]` : ''}`,
    ),
  }));
}

/** The first concrete fix axe suggests (its summaries start with "Fix any/all of the following:"). */
const firstFix = (summary: string) =>
  summary
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('Fix '))[0] ?? '';

/** Violations as lines a person reads in a failed assertion. */
export const describeViolations = (list: TAxeViolation[]) =>
  list.map((v) => `${v.rule} (${v.impact}): ${v.summary} — ${v.targets.join('; ')}`);

/**
 * Checks the page in its current state and records a failure naming `state` when axe finds any
 * violation. Soft: the test goes on to the next state, so one run lists every state's problems.
 */
export async function expectAccessible(page: Page, state: string, opts: { include?: string } = {}) {
  const found = describeViolations(await axeViolations(page, opts));
  expect.soft(found.length, `axe violations in ${state}:\n${found.join('\n')}\n`).toBe(0);
}
