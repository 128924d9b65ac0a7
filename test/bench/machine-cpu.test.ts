import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  cpuBelow,
  cpuBetween,
  cpuPartOf,
  cpuPartsP50,
  cpuSince,
  descendantsOf,
  type TCpuPart,
} from '../../bench/machine-cpu';

describe('the CPU time of the processes the bench started', () => {
  it('finds every process below the root, through each parent, and none beside it', () => {
    // 1 → 10 → 11 → 12, 1 → 20; 30 is another tree; a loop (40 ↔ 41) is walked once.
    const parents = new Map([
      [10, 1],
      [11, 10],
      [12, 11],
      [20, 1],
      [30, 2],
      [40, 41],
      [41, 40],
    ]);
    expect(descendantsOf(parents, 1).sort((a, b) => a - b)).toEqual([10, 11, 12, 20]);
    expect(descendantsOf(parents, 11)).toEqual([12]);
    expect(descendantsOf(parents, 40)).toEqual([41]);
    expect(descendantsOf(parents, 12)).toEqual([]);
  });

  it('adds what each thread spent between two snapshots, a new thread whole, an ended one not at all', () => {
    const at = (ms: number, part: TCpuPart = 'pageMain') => ({ ms, part });
    const before = new Map([
      ['7/7', at(100)],
      ['7/8', at(50, 'pageWorkers')],
      ['9/9', at(30, 'servers')],
    ]);
    const after = new Map([
      ['7/7', at(160)],
      ['7/8', at(50, 'pageWorkers')],
      ['11/11', at(25, 'servers')],
    ]);
    const spent = cpuBetween(before, after);
    expect(spent.total).toBe(60 + 0 + 25);
    expect(spent.parts).toMatchObject({ pageMain: 60, pageWorkers: 0, servers: 25, browser: 0 });
    expect(cpuBetween(after, after).total).toBe(0);
    // Medians per part over loads; none for no load.
    const load = (pageMain: number) => ({ ...spent, parts: { ...spent.parts, pageMain } });
    expect(cpuPartsP50([load(10), load(30), load(20)])).toMatchObject({ pageMain: 20, servers: 25 });
    expect(cpuPartsP50([]).pageMain).toBeNaN();
  });

  it("tells a thread's part from its process's arguments and its name", () => {
    const chromium = (...args: string[]) => ['/usr/lib/chromium/chromium', ...args].join('\0');
    expect(cpuPartOf(chromium('--type=renderer', '--lang=en'), 'chromium', true)).toBe('pageMain');
    expect(cpuPartOf(chromium('--type=renderer'), 'DedicatedWorker', false)).toBe('pageWorkers');
    expect(cpuPartOf(chromium('--type=renderer'), 'ThreadPoolForeg', false)).toBe('pageOther');
    expect(cpuPartOf(chromium('--type=gpu-process'), 'VizCompositorTh', false)).toBe('gpu');
    expect(
      cpuPartOf(chromium('--type=utility', '--utility-sub-type=network.mojom.NetworkService'), 'x', true),
    ).toBe('utility');
    expect(cpuPartOf(chromium('--headless', '--remote-debugging-pipe'), 'chromium', true)).toBe('browser');
    // Chromium's child processes rewrite their title: one line, spaces between the arguments.
    expect(cpuPartOf('/usr/lib/chromium/chromium --type=renderer --lang=en\0\0', 'chromium', true)).toBe(
      'pageMain',
    );
    expect(cpuPartOf('/usr/lib/chromium/chromium --type=gpu-process --no-sandbox', 'chromium', true)).toBe(
      'gpu',
    );
    // A server the bench started, whatever its arguments say.
    expect(
      cpuPartOf(
        ['/usr/bin/node', '--import', 'tsx', 'bench/signing-servers.ts', '--type=renderer'].join('\0'),
        'node',
        true,
      ),
    ).toBe('servers');
  });

  it('reads the time a child process spends on the CPU from /proc', async () => {
    // The child spins until it has used 300 ms of CPU, once told to: measured in CPU time, not
    // on the clock, so a busy machine cannot make it spend less.
    const child = spawn(
      process.execPath,
      [
        '-e',
        `process.stdout.write('ready\\n');
         process.stdin.once('data', () => {
           const start = process.cpuUsage().user;
           while (process.cpuUsage().user - start < 300_000);
           process.stdout.write('done\\n');
         });`,
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    const said = (word: string) =>
      new Promise<void>((resolve) => {
        let out = '';
        const hear = (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes(word)) {
            child.stdout.off('data', hear);
            resolve();
          }
        };
        child.stdout.on('data', hear);
      });
    try {
      await said('ready');
      const before = cpuBelow();
      expect(before && [...before.keys()].some((k) => k.startsWith(`${child.pid}/`))).toBe(true);
      const done = said('done');
      child.stdin.write('go\n');
      await done;
      // A node process is a server to the bench.
      expect(cpuSince(before)?.parts.servers).toBeGreaterThanOrEqual(300);
      // Nothing below a process that started none.
      expect(cpuBelow(child.pid!)).toBeUndefined();
    } finally {
      child.kill();
    }
  });
});
