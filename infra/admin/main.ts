// `npm run admin -- <command> …`: the operator's tool for accounts, users, teams, brands and API
// keys, which the public API never hands out. `--help` lists the commands (cli.ts).
//
// Exit codes: 0 done; 1 the command failed (not found, data folder busy, AWS refused); 2 the
// command line or the input is wrong. Messages go to stderr, without stack traces (DEBUG=1
// prints them).

// The SDK warns that its releases after January 2027 need Node 22; the pinned ones run on 20.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

import { ConflictError, NotFoundError, ValidationError } from '#shared/domain/errors';
import {
  commandIn,
  flagOfField,
  parseCommandLine,
  type TCommandLine,
  type TCommandName,
  UsageError,
  usage,
} from './cli';

const write = (stream: NodeJS.WriteStream, text: string) =>
  new Promise<void>((resolve) => (text === '' ? resolve() : stream.write(`${text}\n`, () => resolve())));

/** The message for an error, and the exit code it earns. */
function explain(err: unknown, command: TCommandName | undefined): { message: string; code: number } {
  const e = err as Error & { $metadata?: unknown };
  if (err instanceof UsageError) {
    const help = command ? `npm run admin -- ${command} --help` : 'npm run admin -- --help';
    return { message: `${e.message}\nSee: ${help}`, code: 2 };
  }
  if (err instanceof ValidationError) {
    const fields = err.fieldErrors.map((f) =>
      command && f.field !== 'non_field_errors'
        ? `  ${flagOfField(command, f.field)}: ${f.message}`
        : `  ${f.message}`,
    );
    return { message: [err.message, ...fields].join('\n'), code: 2 };
  }
  if (err instanceof NotFoundError || err instanceof ConflictError) return { message: e.message, code: 1 };
  if (e?.name === 'ResourceNotFoundException') {
    return { message: `DynamoDB table not found (check --table and --region): ${e.message}`, code: 1 };
  }
  if (e?.name === 'CredentialsProviderError') return { message: `No AWS credentials: ${e.message}`, code: 1 };
  if (e?.$metadata) {
    // A service's answer has its own error name; a plain Error is the network (or the endpoint).
    const message =
      e.name && e.name !== 'Error'
        ? `AWS refused the request (${e.name}): ${e.message}`
        : `AWS request failed: ${e.message}`;
    return { message, code: 1 };
  }
  return { message: e instanceof Error ? e.message : String(err), code: 1 };
}

async function main(argv: string[]): Promise<number> {
  let line: TCommandLine;
  try {
    line = parseCommandLine(argv);
  } catch (err) {
    await write(process.stderr, explain(err, commandIn(argv)).message);
    return 2;
  }
  if (line.help) {
    await write(process.stdout, usage(line.command).trimEnd());
    return 0;
  }
  const { command, flags, json, target: choice } = line;

  // Loaded only now: they bring the AWS SDK, which --help and usage errors do without.
  const { openAwsTarget, openLocalTarget } = await import('./target');
  const { runCommand } = await import('./run');

  let target: Awaited<ReturnType<typeof openLocalTarget>> | undefined;
  try {
    target = choice.kind === 'aws' ? openAwsTarget(choice) : await openLocalTarget(choice.dataDir);
    const out = await runCommand(command, flags, target.deps);
    if (json) await write(process.stdout, JSON.stringify(out.data, null, 2));
    else {
      await write(process.stdout, out.text);
      if (out.note) await write(process.stderr, out.note);
    }
    return 0;
  } catch (err) {
    if (process.env.DEBUG) console.error(err);
    const { message, code } = explain(err, command);
    await write(process.stderr, message);
    return code;
  } finally {
    await target?.close().catch(() => undefined);
  }
}

// Exit explicitly: an SDK socket or a closing server must not keep a finished command waiting.
// A bug that escapes main() still gets a message, not a stack trace (unless DEBUG is set).
const code = await main(process.argv.slice(2)).catch(async (err: unknown) => {
  if (process.env.DEBUG) console.error(err);
  await write(process.stderr, `Unexpected error: ${err instanceof Error ? err.message : String(err)}`);
  return 1;
});
process.exit(code);
