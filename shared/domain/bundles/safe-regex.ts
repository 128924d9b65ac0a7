import { runInNewContext } from 'node:vm';

/**
 * Tests a sender's regular expression (v_regex) against a value with a time limit: a pattern
 * that backtracks catastrophically must not stall the process for other requests. Returns
 * undefined when the limit was hit.
 */
export function testRegex(pattern: string, value: string, timeoutMs = 50): boolean | undefined {
  try {
    return runInNewContext(
      'new RegExp(pattern, "u").test(value)',
      { pattern, value },
      { timeout: timeoutMs },
    ) as boolean;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return undefined;
    throw err;
  }
}
