import { runBudgeted } from '#shared/adapters/untrusted/run-budgeted';
import { parseRowsCsv } from '#shared/domain/bulk/parse-rows-csv';
import { RawMultipart } from '#shared/http/body';
import { ParseError } from '#shared/http/errors';
import { jsonPart, parseMultipart } from '#shared/http/multipart';
import { BULK_LIMITS } from '#shared/schemas/bulk';

/**
 * A bulk send as JSON (`bundle` and `rows`, the rows a list or CSV text), or as multipart with
 * the JSON body in a `bundle` part and the CSV in a `rows` part (a file or a field).
 */
export async function bulkRequestOf(body: unknown): Promise<unknown> {
  if (!(body instanceof RawMultipart)) return withCsvRows(body);
  const parsed = await parseMultipart(body.raw, body.contentType, {
    maxFiles: 1,
    maxFileBytes: BULK_LIMITS.requestBytes,
    maxFieldBytes: BULK_LIMITS.requestBytes,
    maxParts: 4,
  });
  const bundle = jsonPart(parsed, 'bundle', 'bulk send');
  const file = parsed.files.find((f) => f.field === 'rows');
  const csv = file ? file.data.toString('utf8') : parsed.fields.rows?.[0];
  if (csv === undefined) throw new ParseError('A multipart bulk send needs a rows part with the CSV.');
  return { bundle, rows: await rowsOfCsv(csv) };
}

async function withCsvRows(body: unknown): Promise<unknown> {
  if (!body || typeof body !== 'object') return body;
  const rows = (body as { rows?: unknown }).rows;
  return typeof rows === 'string' ? { ...body, rows: await rowsOfCsv(rows) } : body;
}

/** Above this a CSV is read off the request's thread: megabytes of it take a while. */
const CSV_ON_THREAD_CHARS = 64 * 1024;

/** The rows of a CSV; a large one read in the untrusted-files worker, within its budget. */
function rowsOfCsv(csv: string) {
  return csv.length <= CSV_ON_THREAD_CHARS
    ? Promise.resolve(parseRowsCsv(csv))
    : runBudgeted('parseRowsCsv', [csv], 'read');
}
