// Tests a reader can take in: no `it` longer than MAX_IT_LINES. A longer journey is a describe
// whose its run in order (vitest runs the its of a describe one after another), its set-up in
// beforeAll, so a failure names the step that broke.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { itSpans, longIts } from '../helpers/test-shape';

const ROOT = join(__dirname, '..', '..');
const MAX_IT_LINES = 80;

describe('the shape of the tests', () => {
  it(`has no it longer than ${MAX_IT_LINES} lines`, () => {
    const long = longIts(join(ROOT, 'test'), MAX_IT_LINES).map(
      (s) => `${s.file.slice(ROOT.length + 1)}:${s.line} (${s.lines} lines) ${s.name}`,
    );
    expect(long).toEqual([]);
  });

  it('measures an it from its first line to the line that closes it', () => {
    const text = [
      "describe('d', () => {",
      "  it('one line', () => expect(1).toBe(1));",
      "  it('three', () => {",
      '    expect(1).toBe(1);',
      '  });',
      '  it(',
      "    'wrapped',",
      '    async () => {',
      '      expect(1).toBe(1);',
      '    },',
      '    1_000,',
      '  );',
      '  it.each([',
      '    [1, 1],',
      "  ])('each %i', (a, b) => {",
      '    expect(a).toBe(b);',
      '  }, 1_000);',
      '});',
    ].join('\n');
    expect(itSpans('f', text).map((s) => [s.line, s.lines])).toEqual([
      [2, 1],
      [3, 3],
      [6, 7],
      [13, 5],
    ]);
  });
});
