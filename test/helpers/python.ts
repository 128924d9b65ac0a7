// Python with pikepdf and asn1crypto (Debian's python3-pikepdf, python3-asn1crypto): readers of
// PDFs and ASN.1 we did not write, strict where ours are lenient. The system interpreter is used
// when there is one, since a version manager's python3 on PATH may lack those packages.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

/**
 * Runs `script` with `pdf` written to a file whose path is `sys.argv[1]`; the script prints one
 * JSON value, which is answered.
 */
export function pythonOnPdf<T>(script: string, pdf: Uint8Array): T {
  const dir = mkdtempSync(path.join(tmpdir(), 'python-'));
  try {
    const file = path.join(dir, 'in.pdf');
    writeFileSync(file, pdf);
    const out = execFileSync(PYTHON, ['-c', script, file], { encoding: 'utf8', maxBuffer: 64 << 20 });
    return JSON.parse(out) as T;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
