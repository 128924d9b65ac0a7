// How the bench prints its figures, shared by every section.

export const mark = (ok: boolean) => (ok ? '✓' : '✗');
export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
export const ms = (v: number) => (Number.isFinite(v) ? `${v.toFixed(v < 10 ? 2 : 1)} ms` : '—');

/** Columns padded to their widest cell; 'r' aligns a column right. */
export function table(rows: string[][], aligns: ('l' | 'r')[]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  return rows
    .map((r) =>
      r
        .map((cell, c) => (aligns[c] === 'r' ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
