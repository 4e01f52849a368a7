// `hookwarden bench` through the real binary: tiny runs, shapes and messages (no timing assertions).
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isolationLevels } from '../../src/executor/isolation-levels.js';
import { readRecording } from '../../src/measure/replay-file.js';
import { benchJsonSchema } from '../helpers/bench-json-schema.js';
import { runAsClaudeCode } from '../helpers/claude-code.js';
import { runCli } from '../helpers/cli.js';
import { hooksOn, tempDir, writeConfig } from '../helpers/fixture.js';

const example = (path: string) => fileURLToPath(new URL(`../../examples/${path}`, import.meta.url));
const SESSION = example('sessions/claude-code-session.jsonl');

function setup() {
  const dir = tempDir();
  const cfg = writeConfig(
    dir,
    'hooks.json',
    hooksOn('BeforeTool', [
      {
        type: 'js',
        name: 'guard',
        code: "export default (i) => ({ decision: i.toolName === 'rm' ? 'deny' : 'allow' })",
      },
      { type: 'command', name: 'noop', argv: ['/bin/true'] },
    ]),
  );
  const event = writeConfig(dir, 'event.json', { toolName: 'Bash', toolInput: { command: 'ls' } });
  return { dir, cfg, event };
}

const TINY = ['-n', '4', '--warmup', '1'];
/** A bound for a hang only: whole bench runs on a busy machine take a while. */
const HANG_MS = 120_000;

describe('hookwarden bench', () => {
  it(
    '--json prints one JSON object of the documented schema on stdout; off a TTY stderr gets only progress lines',
    async () => {
      const { cfg, event } = setup();
      // More dispatches in flight (32) than Node's default listener limit (10) share one abort signal:
      // Node must not warn about a leak. Kept small (64 dispatches, 64 samples per baseline): on a
      // loaded machine the run takes seconds, and the test waits for the process to end, whenever.
      const flags = ['-n', '64', '--warmup', '1', '--concurrency', '32', '--tenants', '2', '--json'];
      const r = await runCli(['bench', '-c', cfg, '-e', 'PreToolUse', '-i', event, ...flags]);
      expect(r.code, r.stderr).toBe(0);
      // A line every 5 s at most (none when the run is quick), never a bar's control characters.
      for (const line of r.stderr.split('\n').filter(Boolean))
        expect(line).toMatch(/^bench: \d+\/64 dispatches \(\d+%\), \d+\/s, about .* left$/);
      expect(r.stdout.trim().split('\n')).toHaveLength(1);
      const result = benchJsonSchema.parse(JSON.parse(r.stdout));
      expect(result).toMatchObject({ config: [cfg], event: 'PreToolUse', iterations: 64, concurrency: 32 });
      expect(Object.keys(result.perHook)).toEqual(['guard', 'noop']);
      expect(Object.keys(result.perTenant ?? {})).toEqual(['t1', 't2']);
      expect(result.decisions).toEqual({ allow: 64 });
      expect([result.perTenant?.t1?.count, result.perTenant?.t2?.count]).toEqual([32, 32]);
      expect(result.hooks.map((h) => h.id)).toEqual(['guard', 'noop']);
      expect(result.blocks).toHaveLength(20);
      expect(result.blocks.every((b) => Object.keys(b.perTenant ?? {}).length === 2)).toBe(true);
      expect(result.warnings.join('\n')).toMatch(/concurrency 32: dispatch latencies include queueing/);
    },
    HANG_MS,
  );

  it('--report writes a self-contained HTML page with the histogram and percentile plot as inline SVG', async () => {
    const { dir, cfg, event } = setup();
    const out = join(dir, 'report.html');
    const r = await runCli(['bench', '-c', cfg, '-e', 'BeforeTool', '-i', event, ...TINY, '--report', out]);
    expect(r.code, r.stderr).toBe(0);
    const html = readFileSync(out, 'utf8');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html.match(/<svg /g)).toHaveLength(4);
    for (const text of ['Dispatch latency by percentile', 'Where the time goes', 'Latency over the run'])
      expect(html).toContain(text);
    expect(html).not.toMatch(/https?:\/\/|src=|<script/i);
    expect(r.stdout).toContain(`report: ${out}`);
  });

  it('runs without git: the result says commit null', async () => {
    const { cfg, event } = setup();
    // No git on PATH (command hooks get their own PATH; node is called by its absolute path).
    const env = { ...process.env, PATH: '/nonexistent' };
    const r = await runCli(['bench', '-c', cfg, '-e', 'BeforeTool', '-i', event, ...TINY, '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).hookwarden).toMatchObject({ commit: null, dirty: null });
  });

  it('prints a table of the figures, ratios and stages without --json', async () => {
    const { cfg, event } = setup();
    const r = await runCli(['bench', '-c', cfg, '-e', 'BeforeTool', '-i', event, ...TINY, '--no-progress']);
    expect(r.code, r.stderr).toBe(0);
    for (const text of [
      'dispatch, overall',
      'hook guard (js)',
      'hook noop (command)',
      "raw spawn('/bin/true')",
      '÷ echo+eval',
      'stages (mean ms)',
      'fold & result',
    ])
      expect(r.stdout).toContain(text);
  });
});

describe('hookwarden bench: flags and help', () => {
  it('exits 1 with one line naming the flag and the value on bad flags, events and inputs', async () => {
    const { dir, cfg, event } = setup();
    const cases: [string[], RegExp][] = [
      [['-n', '0'], /--iterations: expected a whole number ≥ 1, got "0"/],
      [['--concurrency', 'lots'], /--concurrency: expected a whole number ≥ 1, got "lots"/],
      [['--tenants', '-2'], /--tenants: expected a whole number ≥ 1, got "-2"/],
      [['--warmup', '1.5'], /--warmup: expected a whole number ≥ 0, got "1.5"/],
      [['--blocks', '0'], /--blocks: expected a whole number ≥ 1, got "0"/],
      [['--report', join(dir, 'missing', 'r.html')], /--report .*: directory .*missing does not exist/],
      [['-e', 'NoSuchEvent'], /unknown event "NoSuchEvent"/],
    ];
    for (const [extra, message] of cases) {
      const r = await runCli(['bench', '-c', cfg, '-e', 'BeforeTool', '-i', event, '-n', '2', ...extra]);
      expect([extra.join(' '), r.code, r.stdout]).toEqual([extra.join(' '), 1, '']);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    const noConfig = await runCli(['bench', '-e', 'BeforeTool']);
    expect([noConfig.code, noConfig.stderr]).toEqual([
      1,
      expect.stringMatching(/needs at least one --config/),
    ]);
    const noEvent = await runCli(['bench', '-c', cfg]);
    expect([noEvent.code, noEvent.stderr]).toEqual([
      1,
      expect.stringMatching(/bench needs --event <event> .* or --replay <file.jsonl\|dir>/),
    ]);
  });

  it('--help explains the figures, the baselines and the ratios, with examples', async () => {
    const r = await runCli(['bench', '--help']);
    expect(r.code).toBe(0);
    for (const text of [
      'p50 p90 p99 p99.9',
      'Baselines',
      'Ratios are p50 ÷ baseline p50',
      'Examples:',
      '--report',
      '--vary-input',
      'bench compare',
    ])
      expect(r.stdout).toContain(text);
  });
});

/** `bench --replay` of a recording with the shipped config, one pass in two blocks. */
const replay = (recording: string, ...extra: string[]) =>
  runCli(['bench', '-c', example('hooks.json'), '--replay', recording, '-n', '1', '--blocks', '2', ...extra]);

describe('hookwarden bench --replay', () => {
  it(
    'replays the shipped example session: per event and the session cost, in text and in --json',
    async () => {
      const text = await replay(SESSION, '--no-progress');
      expect(text.code, text.stderr).toBe(0);
      for (const t of [
        'replay of ',
        '(87 events, 1 session, 1 pass)',
        'per event (ms)',
        'PreToolUse (BeforeTool)',
        'PostToolUseFailure (AfterTool)',
        'session cost (s)',
        'recorded mix',
        'shares: queue',
        'p90 ',
        "hookwarden's default: the median and 90th percentile of tool calls per session over 102 Claude Code sessions",
      ])
        expect(text.stdout).toContain(t);
      // The text names where a figure comes from in words and the docs, never a link to someone's issue.
      expect(text.stdout).not.toMatch(/https?:|github\.com|\/issues\//);
      const json = await replay(SESSION, '--json', '--tool-calls', 'p50=25,p90=176');
      expect(json.code, json.stderr).toBe(0);
      const r = benchJsonSchema.parse(JSON.parse(json.stdout));
      expect(r.event).toBe('replay');
      expect(r.replay).toMatchObject({ source: SESSION, sessions: 1, events: 87, passes: 1 });
      expect(r.session?.rows.map((row) => [row.label, row.toolCalls])).toEqual([
        ['recorded', 40],
        ['p50', 25],
        ['p90', 176],
      ]);
      expect(Object.keys(r.perEvent)).toContain('PreToolUse');
    },
    HANG_MS,
  );

  it(
    'replays what the documented recording hook wrote, run the way Claude Code runs hooks',
    async () => {
      const home = tempDir('hw-record-');
      mkdirSync(join(home, '.claude'));
      const settings = JSON.parse(readFileSync(example('sessions/record-settings.json'), 'utf8'));
      const lines = readFileSync(SESSION, 'utf8').trim().split('\n').slice(0, 12);
      const prev = process.env.HOME;
      process.env.HOME = home;
      try {
        for (const line of lines)
          await runAsClaudeCode(settings.hooks, JSON.parse(line), { projectDir: home });
      } finally {
        process.env.HOME = prev;
      }
      const recorded = join(home, '.claude', 'hook-events.jsonl');
      const r = await replay(recorded, '--json');
      expect(r.code, r.stderr).toBe(0);
      const result = benchJsonSchema.parse(JSON.parse(r.stdout));
      expect(result.replay?.events).toBe(12);
      expect(result.perEvent.PreToolUse?.perSession).toBe(
        lines.filter((l) => l.includes('"PreToolUse"')).length,
      );
      // What the hook wrote is every input as Claude Code sent it, one per line.
      expect(readRecording(recorded).events.map((e) => e.input)).toEqual(lines.map((l) => JSON.parse(l)));
    },
    HANG_MS,
  );
});

describe('hookwarden bench --replay: bad input, and every isolation level', () => {
  it(
    'exits 1 with one line on a bad replay, a bad --tool-calls and misplaced flags',
    async () => {
      const { dir, cfg, event } = setup();
      const bad = writeConfig(dir, 'bad.jsonl', '{"hook_event_name":"Stop"}\nnot json\n');
      const cases: [string[], RegExp][] = [
        [['--replay', bad], /bad\.jsonl:2: not JSON/],
        [['--replay', join(dir, 'none.jsonl')], /none\.jsonl: cannot read \(ENOENT\)/],
        [
          ['--replay', SESSION, '--tool-calls', 'p50=lots'],
          /--tool-calls: expected counts such as p50=69,p90=423/,
        ],
        [['--replay', SESSION, '-e', 'Stop'], /--event and --replay: give one/],
        [['--replay', SESSION, '-i', event], /--input and --replay: give one/],
        [['-e', 'Stop', '--tool-calls', '10'], /--tool-calls needs --replay/],
        [
          ['-e', 'Stop', '--isolation', 'vm'],
          /isolation: unknown level "vm"; the levels are process, contained, namespace, or "all"/,
        ],
      ];
      for (const [extra, message] of cases) {
        const r = await runCli(['bench', '-c', cfg, '-n', '1', ...extra]);
        expect([extra.join(' '), r.code, r.stdout]).toEqual([extra.join(' '), 1, '']);
        expect(r.stderr).toMatch(message);
        expect(r.stderr.trim().split('\n')).toHaveLength(1);
      }
    },
    HANG_MS,
  );

  it(
    '--isolation all runs the command hooks at every level the host supports, in one run',
    async () => {
      const { cfg, event } = setup();
      const bench = (...extra: string[]) =>
        runCli(['bench', '-c', cfg, '-e', 'BeforeTool', '-i', event, ...TINY, '--blocks', '2', ...extra]);
      const r = await bench('--isolation', 'all', '--json');
      expect(r.code, r.stderr).toBe(0);
      const result = benchJsonSchema.parse(JSON.parse(r.stdout));
      expect(result.isolation?.[0]).toMatchObject({ level: 'process', available: true });
      expect(result.isolation?.map((l) => l.level)).toEqual(isolationLevels().map((l) => l.level));
      const text = await bench('--isolation', 'process', '--no-progress');
      expect(text.stdout).toMatch(/^isolation \(ms\)\s+p50/m);
    },
    HANG_MS,
  );
});
