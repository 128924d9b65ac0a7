import { BULK_LIMITS, type TBulkRow } from '#shared/schemas/bulk';
import { ValidationError } from '../errors';

/**
 * Bulk rows from CSV text (RFC 4180: comma-separated, `"` quotes, `""` inside quotes, CRLF or LF)
 * with a header row naming the columns: `<signer key>.<attribute>` (`emp.name`, `emp.email`,
 * `emp.phone`, any packet attribute) fills that signer, any other column is a field value by its
 * key. An empty cell sets nothing. A fault answers with the line and the column it is in. A
 * record of more than BULK_LIMITS.csvColumns columns is refused as soon as it is read that far.
 */
export function parseRowsCsv(text: string): TBulkRow[] {
  const records = readRecords(text.replace(/^\uFEFF/, ''));
  const header = records.shift();
  if (!header || header.cells.every((c) => c.trim() === ''))
    throw csvError('The CSV needs a header row naming its columns.');
  const columns = header.cells.map((name, i) => columnOf(name.trim(), i + 1));
  const seen = new Set<string>();
  for (const c of columns) {
    if (seen.has(c.name)) throw csvError(`Line 1, column ${c.index}: the column "${c.name}" appears twice.`);
    seen.add(c.name);
  }
  const rows = records.filter((r) => r.cells.some((c) => c !== ''));
  return rows.map((r) => {
    if (r.cells.length !== columns.length)
      throw csvError(`Line ${r.line}: ${r.cells.length} columns where the header has ${columns.length}.`);
    const row: Required<Pick<TBulkRow, 'signers' | 'fields'>> = { signers: {}, fields: {} };
    r.cells.forEach((value, i) => {
      if (value === '') return;
      const c = columns[i]!;
      if (!c.signer) {
        row.fields[c.name] = value;
        return;
      }
      row.signers[c.signer] = { ...row.signers[c.signer], [c.attribute!]: value };
    });
    return row;
  });
}

type TColumn = { name: string; index: number; signer?: string; attribute?: string };

function columnOf(name: string, index: number): TColumn {
  if (name === '') throw csvError(`Line 1, column ${index}: the column has no name.`);
  const dot = name.indexOf('.');
  if (dot < 0) return { name, index };
  const signer = name.slice(0, dot);
  const attribute = name.slice(dot + 1);
  if (!signer || !attribute || attribute.includes('.'))
    throw csvError(`Line 1, column ${index}: "${name}" is not <signer key>.<attribute>.`);
  return { name, index, signer, attribute };
}

const csvError = (message: string) => new ValidationError('Invalid input.', [{ field: 'rows', message }]);

/** The records of the text, each with the line it starts on (1-based). */
function readRecords(text: string): { line: number; cells: string[] }[] {
  const records: { line: number; cells: string[] }[] = [];
  let cells: string[] = [];
  let cell = '';
  let line = 1;
  let start = 1;
  let i = 0;
  const endRecord = () => {
    cells.push(cell);
    records.push({ line: start, cells });
    cells = [];
    cell = '';
  };
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '"' && cell === '') {
      const opened = line;
      i++;
      for (;;) {
        if (i >= text.length)
          throw csvError(`Line ${opened}, column ${cells.length + 1}: a quoted value is never closed.`);
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            cell += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        if (text[i] === '\n') line++;
        cell += text[i++];
      }
      const next = text[i];
      if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r')
        throw csvError(`Line ${line}, column ${cells.length + 1}: text after a closing quote.`);
      continue;
    }
    if (ch === ',') {
      cells.push(cell);
      cell = '';
      if (cells.length >= BULK_LIMITS.csvColumns)
        throw csvError(
          `Line ${line}: more than ${BULK_LIMITS.csvColumns} columns; a bulk send's CSV has at most ${BULK_LIMITS.csvColumns}.`,
        );
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      endRecord();
      line++;
      start = line;
    } else if (ch === '"') {
      throw csvError(`Line ${line}, column ${cells.length + 1}: a quote inside an unquoted value.`);
    } else {
      cell += ch;
    }
    i++;
  }
  if (cell !== '' || cells.length > 0) endRecord();
  return records;
}
