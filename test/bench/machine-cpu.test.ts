import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cpuBelow, cpuBetween, cpuSince, descendantsOf } from '../../bench/machine-cpu';

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
    const before = new Map([
      ['7/7', 100],
      ['7/8', 50],
      ['9/9', 30],
    ]);
    const after = new Map([
      ['7/7', 160],
      ['7/8', 50],
      ['11/11', 25],
    ]);
    expect(cpuBetween(before, after)).toBe(60 + 0 + 25);
    expect(cpuBetween(after, after)).toBe(0);
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
      expect(cpuSince(before)).toBeGreaterThanOrEqual(300);
      // Nothing below a process that started none.
      expect(cpuBelow(child.pid!)).toBeUndefined();
    } finally {
      child.kill();
    }
  });
});
