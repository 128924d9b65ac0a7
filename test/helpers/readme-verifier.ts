import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from '#infra/bundling';

type TVerify = (
  secret: string,
  headers: Record<string, string | string[] | undefined>,
  rawBody: string,
) => boolean;

/**
 * The receiver's verification recipe exactly as README.md prints it (between the
 * webhook-verify markers), loaded as a module: the tests check the documentation itself.
 */
export async function readmeVerifier(): Promise<TVerify> {
  const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
  const block = /<!-- webhook-verify:start -->\s*```js\n([\s\S]*?)```\s*<!-- webhook-verify:end -->/.exec(
    readme,
  );
  if (!block) throw new Error('README.md has no webhook-verify block');
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'verify-')), 'verify.mjs');
  writeFileSync(file, block[1]!);
  const mod = (await import(pathToFileURL(file).href)) as { verifyWebhook: TVerify };
  return mod.verifyWebhook;
}
