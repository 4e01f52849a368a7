// `hookwarden bench compare` through the real binary on saved results, made in memory: what the
// verdict is for a given set of figures, whatever the machine is doing while the test runs. A real
// 15 ms slowdown between two quiet runs is a regression (exit 1); a run compared with itself, or with
// a run of the same commit and config, is named so; bad input gets one line and exit 1. The real
// runs (one beside CPU burners, and bench ab's windows) are in bench-compare.test.ts.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BenchResult } from '../../src/measure/index.js';
import { benchResult, busy, otherBuild } from '../helpers/bench-result.js';
import { runCli } from '../helpers/cli.js';
import { hooksOn, tempDir, writeConfig } from '../helpers/fixture.js';

/** Only a hang fails on time: each run of the binary can take 10 s or more on a busy machine. */
const HANG_MS = 600_000;
const dir = tempDir();
const event = writeConfig(dir, 'event.json', { toolName: 'Bash', toolInput: { command: 'ls' } });
const fast = writeConfig(dir, 'fast.json', hooksOn('BeforeTool', [{ name: 'check', command: 'true' }]));

/** 20 blocks whose hook `noop` took `ms` (command) and `guard` took `js` ms, ± a few %. */
function run(ms: number, js: number, extra: Partial<BenchResult> = {}): BenchResult {
  const jitter = (v: number) => Array.from({ length: 20 }, (_, i) => v * (1 + (((i * 7) % 11) - 5) / 100));
  return benchResult({ noop: jitter(ms), guard: jitter(js), overall: jitter(ms + js + 0.5) }, extra);
}

/** `bench compare` of two results written to files, default settings unless `extra` says. */
function compare(base: BenchResult, next: BenchResult, ...extra: string[]) {
  const d = tempDir();
  const files = [writeConfig(d, 'base.json', base), writeConfig(d, 'new.json', next)];
  return runCli(['bench', 'compare', ...files, ...extra]);
}

describe('hookwarden bench compare: a real 15 ms slowdown between two quiet runs', () => {
  it.each([
    ['a 3 ms command hook', 'noop', [3, 0.3], [18, 0.3]],
    ['a 40 ms command hook', 'noop', [40, 0.3], [55, 0.3]],
    ['a 0.3 ms JS hook', 'guard', [1.5, 0.3], [1.5, 15.3]],
  ] as const)(
    '%s made 15 ms slower is a regression, exit 1',
    async (_name, hook, was, is) => {
      const r = await compare(run(was[0], was[1]), run(is[0], is[1], otherBuild));
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(r.stdout).toMatch(new RegExp(`^hook ${hook} .* slower$`, 'm'));
      expect(r.stdout).toMatch(/^machine: base CPU wait 0%.*; new CPU wait 0%/m);
      expect(r.stdout).toMatch(new RegExp(`REGRESSION: .*hook ${hook}.* got slower\n$`));
      expect(r.stdout).not.toMatch(/inconclusive|same commit/i);
    },
    HANG_MS,
  );

  it(
    'a 40 ms hook 15 ms slower with one run under load is within its floor: inconclusive, exit 3, never 1',
    async () => {
      for (const load of [0.3, 0.6]) {
        const r = await compare(
          run(40, 0.3),
          run(55, 0.3, { ...otherBuild, conditions: busy(load) }),
          '--json',
        );
        expect(r.code, r.stdout + r.stderr).toBe(3);
        const c = JSON.parse(r.stdout);
        expect(c).toMatchObject({
          regression: false,
          inconclusive: true,
          outcome: 'inconclusive',
          same: null,
        });
        const noop = c.series.find((s: { id: string }) => s.id === 'noop');
        expect(noop.verdict).toBe('inconclusive');
        expect(noop.reason).toMatch(
          /within the noise floor .*main thread spent \d+% of the run waiting for a CPU/,
        );
      }
    },
    HANG_MS,
  );
});

describe('hookwarden bench compare names runs of one commit and config', () => {
  it(
    'a result compared with itself is the same commit and config, and no regression',
    async () => {
      const r = await compare(benchResult(), benchResult());
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^note: both runs are the same commit \(aaaaaaaaaaaa\) and the same config/m);
      expect(r.stdout).toMatch(/no regression\n$/);
    },
    HANG_MS,
  );

  it(
    'a change between two runs of one commit and config is the machine: inconclusive, exit 3',
    async () => {
      const r = await compare(run(3, 0.3), run(18, 0.3));
      expect(r.code, r.stdout).toBe(3);
      expect(r.stdout).toMatch(/^note: both runs are the same commit \(aaaaaaaaaaaa\) and the same config/m);
      expect(r.stdout).toMatch(/^inconclusive, hook noop: .*the machine changed, not hookwarden/m);
    },
    HANG_MS,
  );

  it(
    'another commit, or a checkout with uncommitted changes, is not named as one build',
    async () => {
      const dirty = { hookwarden: { version: '0.1.0', commit: 'a'.repeat(40), dirty: true } };
      const other = await compare(run(3, 0.3), run(3, 0.3, otherBuild));
      expect(other.stdout).not.toMatch(/same commit/);
      expect(other.stdout).toMatch(/note: .*aaaaaaa.*bbbbbbb/);
      const changed = await compare(run(3, 0.3), run(3, 0.3, dirty));
      expect(changed.stdout).toMatch(
        /^note: both runs are the same commit \(aaaaaaaaaaaa\) and config, but a checkout had uncommitted changes: the builds may differ/m,
      );
    },
    HANG_MS,
  );
});

describe('hookwarden bench compare, ab and report, bad input', () => {
  it(
    'exit 1 with one line naming the file or the flag',
    async () => {
      const d = tempDir();
      const good = writeConfig(d, 'good.json', benchResult());
      const old = writeConfig(d, 'old.json', { ...benchResult(), schema: undefined });
      const broken = join(d, 'broken.json');
      writeFileSync(broken, '{ not json');
      const unbuilt = tempDir();
      writeFileSync(join(unbuilt, 'hookwarden'), '');
      const ab = ['ab', '-e', 'BeforeTool', '-i', event];
      const cases: [string[], RegExp][] = [
        [['compare', good, join(d, 'missing.json')], /missing\.json: cannot read \(ENOENT\)/],
        [['compare', good, old], /old\.json: a bench result of schema 1; this hookwarden reads schema 2/],
        [
          ['compare', good, good, '--threshold', 'lots'],
          /--threshold: expected a percentage such as 5%, got "lots"/,
        ],
        [['compare', good, good, '--alpha', '2'], /--alpha: expected a number between 0 and 0\.5/],
        [
          ['compare', good, good, '--report', join(d, 'no', 'x.html')],
          /--report .*: directory .*no does not exist/,
        ],
        [['report', old, '--out', join(d, 'x.html')], /old\.json: a bench result of schema 1/],
        [
          [...ab, '--base-config', fast],
          /the new side has no config: give -c <file> \(both sides\) or --new-config <file>/,
        ],
        [
          [...ab, '-c', fast, '--base-build', join(d, 'nowhere')],
          /--base-build .*nowhere: .*nowhere not found; give a hookwarden checkout \(or its bin\/hookwarden\)/,
        ],
        [
          [...ab, '-c', fast, '--new-build', join(unbuilt, 'hookwarden')],
          /--new-build .*: not built; run `npm ci && npm run build` in /,
        ],
        [['ab', '-c', fast], /bench ab needs --event <event> or --replay <file\.jsonl\|dir>/],
        [
          [...ab, '--base-config', fast, '--new-config', broken],
          /^hookwarden: error: new \(this build, .*broken\.json\): bench failed \(exit 1\): .*broken\.json/,
        ],
        [['-c', fast, '-e', 'BeforeTool', '-i', event, '--paced'], /--paced is for `hookwarden bench ab`/],
      ];
      for (const [args, message] of cases) {
        const r = await runCli(['bench', ...args]);
        expect([args.join(' '), r.code, r.stdout]).toEqual([args.join(' '), 1, '']);
        expect(r.stderr).toMatch(message);
        expect(r.stderr.trim().split('\n')).toHaveLength(1);
      }
    },
    HANG_MS,
  );

  it(
    '--help explains the test, the floor and every exit status',
    async () => {
      const r = await runCli(['bench', 'compare', '--help']);
      for (const text of [
        'Mann-Whitney U',
        'baselines',
        'noise floor',
        'inconclusive',
        'Exit status: 0 no series got slower',
        '3 inconclusive',
        '--threshold',
      ])
        expect(r.stdout).toContain(text);
      // --paced is the protocol of bench ab's sides, not a flag for people.
      expect((await runCli(['bench', '--help'])).stdout).not.toContain('--paced');
      const ab = await runCli(['bench', 'ab', '--help']);
      for (const text of [
        'Wilcoxon signed-rank',
        'gate CI',
        '--base-build',
        '--new-config',
        '3 inconclusive',
      ])
        expect(ab.stdout).toContain(text);
    },
    HANG_MS,
  );
});
