// `npx esign-verify <file.pdf>` (or `npm run verify -- <file.pdf>`): checks a signed PDF from the
// file alone, offline, with nothing of this service (shared/verify/verify-pdf.ts says what).
//
// Exit codes: 0 every check holds; 1 a check failed; 2 the command line is wrong or the file (or
// a --trust file) cannot be read as what it should be.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { PdfTooComplexError } from '#shared/pdf/untrusted-limits';
import { certOf } from '#shared/verify/certificates';
import { reportText } from '#shared/verify/report-text';
import { UnreadablePdfError, verifyPdf } from '#shared/verify/verify-pdf';

const USAGE = `Usage: esign-verify [--trust root.pem]… [--original file.pdf]… [--online] [--json] <file.pdf>

Verifies every signature and timestamp in a PDF from the file alone.
  --trust FILE  a root (or intermediate) certificate you trust, PEM or DER; repeat for more.
                Without it, each chain's root is shown but not checked against a trust list.
  --original F  a document as it was uploaded, to match against the file's evidence record; repeat for more.
  --online      also ask each certificate's CA (OCSP, CRL over http/https) whether it is revoked now.
  --json        print the machine-readable report instead of text.
Exit codes: 0 every check holds, 1 a check failed, 2 wrong usage or unreadable file.`;

class UsageError extends Error {}

/** The certificates in a PEM file (one or more), or the file itself as DER. */
function certificatesIn(path: string): Uint8Array[] {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    throw new UsageError(
      `Cannot read the trust file ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}.`,
    );
  }
  const pem = [
    ...bytes.toString('latin1').matchAll(/-----BEGIN CERTIFICATE-----([^-]+)-----END CERTIFICATE-----/g),
  ];
  const ders = pem.length ? pem.map((m) => Buffer.from(m[1]!.replace(/\s+/g, ''), 'base64')) : [bytes];
  if (!ders.every((der) => certOf(der))) {
    throw new UsageError(
      `The trust file ${path} is not a certificate (PEM or DER): pass the root certificate's file.`,
    );
  }
  return ders;
}

/** An original document given to match against the evidence record. */
function originalIn(path: string): Uint8Array {
  try {
    return readFileSync(path);
  } catch (err) {
    throw new UsageError(
      `Cannot read the original ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}.`,
    );
  }
}

function commandLine(argv: string[]) {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        trust: { type: 'string', multiple: true },
        original: { type: 'string', multiple: true },
        online: { type: 'boolean' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (values.help) return { help: true as const };
    if (positionals.length !== 1) throw new UsageError('Name exactly one PDF file to verify.');
    return {
      help: false as const,
      file: positionals[0]!,
      trust: (values.trust ?? []).flatMap(certificatesIn),
      originals: (values.original ?? []).map(originalIn),
      online: Boolean(values.online),
      json: Boolean(values.json),
    };
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError((err as Error).message);
  }
}

async function main(argv: string[]): Promise<number> {
  let args: ReturnType<typeof commandLine>;
  try {
    args = commandLine(argv);
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  let pdf: Buffer;
  try {
    pdf = readFileSync(args.file);
  } catch (err) {
    process.stderr.write(
      `Cannot read ${args.file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}. Check the path.\n`,
    );
    return 2;
  }
  try {
    const report = await verifyPdf(pdf, {
      trust: args.trust,
      online: args.online,
      originals: args.originals,
    });
    process.stdout.write(args.json ? `${JSON.stringify(report, null, 2)}\n` : reportText(report, args.file));
    return report.result === 'pass' ? 0 : 1;
  } catch (err) {
    if (err instanceof PdfTooComplexError) {
      // The same caps as the service's check: a file past them is not one this service sealed.
      process.stderr.write(
        `${err.message} It is too complex to check; ask the sender for the file as it was sealed.\n`,
      );
      return 2;
    }
    if (!(err instanceof UnreadablePdfError)) throw err;
    process.stderr.write(`${err.message} Check that ${args.file} is the PDF you meant to verify.\n`);
    return 2;
  }
}

process.exitCode = await main(process.argv.slice(2));
