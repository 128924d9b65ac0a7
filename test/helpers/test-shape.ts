// The shape of the test files, read from their text: how long each `it` is. Biome formats every
// file, so an `it` ends at the first later line indented no deeper than its first line; that
// is enough here and needs no parser.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { testFiles } from './test-groups';

export interface TItSpan {
  file: string;
  /** 1-based line of the `it(` call. */
  line: number;
  lines: number;
  name: string;
}

const IT_START = /^(\s*)(?:it|test)(?:\(|\.\w)/;

/** Every `it`/`test` call in one file's text, with how many lines it spans. */
export function itSpans(file: string, text: string): TItSpan[] {
  const lines = text.split('\n');
  const spans: TItSpan[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const m = IT_START.exec(line);
    if (!m) continue;
    const indent = m[1]?.length ?? 0;
    let end = i;
    // A one-line `it(...)` ends where it starts; otherwise at the closing line at its indent.
    if (!/\);\s*$/.test(line) || /\{\s*$/.test(line)) {
      for (let j = i + 1; j < lines.length; j++) {
        const next = lines[j] ?? '';
        if (next.trim() === '') continue;
        // The closing line: back at the call's indent, ending the statement (`});`, `}, 60_000);`,
        // `);`); an `it.each([...])(` header's own lines at that indent do not end it.
        if (next.length - next.trimStart().length <= indent && /^[})].*;\s*$/.test(next.trim())) {
          end = j;
          break;
        }
      }
    }
    const name = /\(\s*(['"`])(.*?)\1/.exec(line)?.[2] ?? lines[i + 1]?.trim() ?? '';
    spans.push({ file, line: i + 1, lines: end - i + 1, name });
  }
  return spans;
}

/** The `it`s under `dir` longer than `max` lines, longest first. */
export function longIts(dir: string, max: number): TItSpan[] {
  return testFiles(dir)
    .flatMap((f) => itSpans(join(dir, f), readFileSync(join(dir, f), 'utf8')))
    .filter((s) => s.lines > max)
    .sort((a, b) => b.lines - a.lines);
}
