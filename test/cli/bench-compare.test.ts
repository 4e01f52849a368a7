// `hookwarden bench compare` gating a CI job, and `bench report`, through the real binary.
//
// Made to hold on a busy 2-core machine: the two runs of each comparison run at the same time (so
// both see the same machine, whatever else runs), each run is cut into 20 blocks with baselines
// measured before every block (so each block is divided by its own baselines), the threshold is 25%
// and the significance level 0.01. Measured on such a machine (load 4-7): two runs of one config
// differed by at most 20% after normalisation, with p ≥ 0.15; a `sleep 0.01` added to the ~10 ms
// command hook made it +100% to +170% slower with p ≤ 6e-5. The assertions are verdicts, never timings.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { benchResult } from '../helpers/bench-result.js';
import { type CliResult, runCli } from '../helpers/cli.js';
import { hooksOn, tempDir, writeConfig } from '../helpers/fixture.js';

const HANG_MS = 300_000;
/** The CI gate: a change counts when p < 0.01 and it is larger than 25%. */
const GATE = ['--threshold', '25%', '--alpha', '0.01'];
const dir = tempDir();
const event = writeConfig(dir, 'event.json', { toolName: 'Bash', toolInput: { command: 'ls' } });
const fast = writeConfig(dir, 'fast.json', hooksOn('BeforeTool', [{ name: 'check', command: 'true' }]));
const slow = writeConfig(
  dir,
  'slow.json',
  hooksOn('BeforeTool', [{ name: 'check', command: 'sleep 0.01; true' }]),
);
const out = (name: string) => join(dir, name);

async function bench(config: string, file: string, ...extra: string[]): Promise<void> {
  const r = await runCli([
    'bench',
    '-c',
    config,
    '-e',
    'BeforeTool',
    '-i',
    event,
    '-n',
    '200',
    '--json',
    '--no-progress',
    ...extra,
  ]);
  if (r.code !== 0) throw new Error(`bench failed: ${r.stderr}`);
  writeFileSync(file, r.stdout);
}

/** `bench compare` of two results made below, with the CI gate's settings. */
const compare = (base: string, next: string, ...extra: string[]) =>
  runCli(['bench', 'compare', out(base), out(next), ...GATE, ...extra]);

const verdicts = (r: CliResult) =>
  Object.fromEntries(
    (JSON.parse(r.stdout) as { series: { kind: string; id: string; verdict: string }[] }).series.map((s) => [
      `${s.kind}:${s.id}`,
      s.verdict,
    ]),
  );

describe('hookwarden bench compare, gating CI', () => {
  beforeAll(async () => {
    await Promise.all([bench(fast, out('a.json')), bench(fast, out('b.json'))]);
    await Promise.all([bench(fast, out('base.json')), bench(slow, out('slowed.json'))]);
  }, HANG_MS);

  it('two runs of the same config: no significant change, exit 0', async () => {
    const r = await compare('a.json', 'b.json', '--json');
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const v = verdicts(r);
    expect([v['overall:dispatch'], v['hook:check']]).toEqual([
      'no significant change',
      'no significant change',
    ]);
    expect(JSON.parse(r.stdout)).toMatchObject({
      regression: false,
      threshold: 0.25,
      alpha: 0.01,
      normalize: true,
    });
  });

  it('two runs of one event.json have one input digest; with a threshold no noise crosses, no note at all', async () => {
    const digest = (name: string) => JSON.parse(readFileSync(out(name), 'utf8')).input.digest as string;
    expect(digest('b.json')).toBe(digest('a.json'));
    const r = await compare('a.json', 'b.json', '--threshold', '1000%', '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ notes: [], regression: false });
    const text = await compare('a.json', 'b.json', '--threshold', '1000%');
    expect(text.stdout).not.toContain('note:');
  });

  it('a hook slowed by `sleep 0.01`: reported slower, exit 1; the other way round it is faster, exit 0', async () => {
    const r = await compare('base.json', 'slowed.json');
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^hook check .* slower$/m);
    expect(r.stdout).toMatch(/^dispatch, overall .* slower$/m);
    expect(r.stdout).toMatch(/note: hook "check" changed \(digest /);
    expect(r.stdout).toMatch(/REGRESSION: dispatch, overall, hook check got slower\n$/);
    const back = await compare('slowed.json', 'base.json', '--json');
    expect(back.code, back.stderr).toBe(0);
    expect(verdicts(back)['hook:check']).toBe('faster');
  });

  it('--report writes a page with both CDFs overlaid', async () => {
    const page = out('compare.html');
    const r = await compare('base.json', 'slowed.json', '--report', page);
    expect(r.code).toBe(1);
    const html = readFileSync(page, 'utf8');
    expect(html).toContain('class="cdf base"');
    expect(html).toContain('class="cdf new"');
    expect(html).not.toMatch(/https?:\/\/|src=|<script/i);
    expect(r.stdout).toContain(`report: ${page}`);
  });

  it('bench report renders a saved run as the same page bench --report writes', async () => {
    const page = out('a.html');
    const r = await runCli(['bench', 'report', out('a.json'), '--out', page]);
    expect([r.code, r.stdout]).toEqual([0, `report: ${page}\n`]);
    const html = readFileSync(page, 'utf8');
    for (const text of ['Where the time goes', 'Latency over the run', 'hook check'])
      expect(html).toContain(text);
  });
});

describe('hookwarden bench compare, a script edited between two runs', () => {
  it(
    'notes the hook changed, though its command line is the same',
    async () => {
      const d = tempDir();
      const config = writeConfig(
        d,
        'hooks.json',
        hooksOn('BeforeTool', [{ name: 'check', command: './check.sh' }]),
      );
      const script = join(d, 'check.sh');
      const run = (file: string) => bench(config, join(d, file), '-n', '10', '--blocks', '5');
      writeFileSync(script, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
      await run('before.json');
      writeFileSync(script, '#!/bin/sh\n# now it checks more\nexit 0\n', { mode: 0o755 });
      await run('after.json');
      const r = await runCli([
        'bench',
        'compare',
        join(d, 'before.json'),
        join(d, 'after.json'),
        '--threshold',
        '1000%',
      ]);
      expect(r.stdout).toMatch(/note: hook "check" changed \(digest [0-9a-f]{12} → [0-9a-f]{12}\)/);
      expect(r.stdout).not.toContain('the input differs');
    },
    HANG_MS,
  );
});

describe('hookwarden bench compare and report, bad input', () => {
  it('exit 1 with one line naming the file or the flag', async () => {
    const d = tempDir();
    const good = writeConfig(d, 'good.json', benchResult());
    const old = writeConfig(d, 'old.json', { ...benchResult(), schema: undefined });
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
    ];
    for (const [args, message] of cases) {
      const r = await runCli(['bench', ...args]);
      expect([args.join(' '), r.code, r.stdout]).toEqual([args.join(' '), 1, '']);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    const same = await runCli(['bench', 'compare', good, good]);
    expect(same.code).toBe(0);
    expect(same.stdout).toMatch(/no regression\n$/);
  });

  it('--help explains the test, the normalisation and the exit status', async () => {
    const r = await runCli(['bench', 'compare', '--help']);
    for (const text of ['Mann-Whitney U', 'baselines', 'Exit status: 0 no series got slower', '--threshold'])
      expect(r.stdout).toContain(text);
  });
});
