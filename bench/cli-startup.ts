// CLI start-up: whole `hookwarden` processes, spawned and waited for, against `node -e 0` spawned in
// the same rounds (rotating which goes first). A one-shot CLI call (the Claude Code adapter makes one
// per event) costs this much on top of the hooks it runs. Variants: `--version`, `--help`, a dispatch
// that no hook matches, a dispatch of one command hook (/bin/true) and of one JS hook.
//
// `HOOKWARDEN_BENCH_BEFORE=/path/to/other/bin/hookwarden` adds the same variants for another build
// (e.g. an older commit, built), measured in the same rounds: before/after figures from one run.
// `HOOKWARDEN_BENCH_BEFORE_LABEL` names its rows (default `before`).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmt, interleavedLatency, machine, runProcess, type ScenarioReport } from './harness.js';

// From dist/bench/ (npm run bench) the binary is two levels up.
const BIN = fileURLToPath(new URL('../../bin/hookwarden', import.meta.url));

function fixtures(dir: string) {
  const write = (name: string, value: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(value));
    return path;
  };
  const hooks = (hook: unknown, matcher?: string) => ({
    hooks: { BeforeTool: [{ ...(matcher === undefined ? {} : { matcher }), hooks: [hook] }] },
  });
  return {
    // A real-looking config whose one hook guards another tool: nothing runs for a Read.
    noMatch: write('no-match.json', hooks({ name: 'guard', argv: ['/bin/true'] }, 'Bash')),
    command: write('command.json', hooks({ name: 'true', argv: ['/bin/true'] })),
    js: write('js.json', hooks({ name: 'js', type: 'js', code: 'export default () => ({})' })),
    input: write('input.json', { toolName: 'Read', toolInput: { file_path: 'README.md' } }),
  };
}

/** The variants of one build, by name. */
function variantsOf(label: string, bin: string, f: ReturnType<typeof fixtures>) {
  const dispatch = (config: string) => [bin, 'dispatch', 'BeforeTool', '-c', config, '-i', f.input];
  const prefix = label === '' ? '' : `${label}: `;
  return {
    [`${prefix}hookwarden --version`]: () => runProcess([bin, '--version']),
    [`${prefix}hookwarden --help`]: () => runProcess([bin, '--help']),
    [`${prefix}dispatch, no hook matches`]: () => runProcess(dispatch(f.noMatch)),
    [`${prefix}dispatch, one command hook`]: () => runProcess(dispatch(f.command)),
    [`${prefix}dispatch, one JS hook`]: () => runProcess(dispatch(f.js)),
  };
}

const BASELINE = 'node -e 0';

export async function run(quick = false): Promise<ScenarioReport> {
  const dir = mkdtempSync(join(tmpdir(), 'hw-bench-startup-'));
  try {
    const f = fixtures(dir);
    const before = process.env.HOOKWARDEN_BENCH_BEFORE;
    const beforeLabel = process.env.HOOKWARDEN_BENCH_BEFORE_LABEL ?? 'before';
    const variants = {
      [BASELINE]: () => runProcess(['-e', '0']),
      ...(before === undefined ? {} : variantsOf(beforeLabel, before, f)),
      ...variantsOf('', BIN, f),
    };
    const r = await interleavedLatency(variants, { warmup: quick ? 1 : 3, iterations: quick ? 3 : 30 });
    const base = r[BASELINE]!.p50;
    const rows = Object.entries(r).map(
      ([name, s]) => `| ${name} | ${fmt(s.p50, 1)} | ${fmt(s.p90, 1)} | ${fmt(s.p50 / base, 2)}× |`,
    );
    const p50 = (name: string) => r[name]!.p50;
    const goal = (what: string, value: number, limit: number, unit: string) =>
      `${what} ≤ ${limit}${unit}: ${fmt(value, unit === '×' ? 3 : 1)}${unit} — ${value <= limit ? 'met' : 'NOT met'}`;
    return {
      title: 'CLI start-up (whole processes, vs node -e 0)',
      markdown: [
        `${r[BASELINE]!.n} rounds; every variant is a fresh process, stdin /dev/null, input from a file;`,
        `measured on ${machine()}. Reproduce: \`npm run bench -- cli-startup\`; with`,
        '`HOOKWARDEN_BENCH_BEFORE=<another checkout>/bin/hookwarden` (built) its rows are measured in the same rounds.',
        '',
        '| variant | p50 ms | p90 ms | p50 vs node -e 0 |',
        '|---|---|---|---|',
        ...rows,
      ].join('\n'),
      goals: [
        goal('--version p50', p50('hookwarden --version'), 100, ' ms'),
        goal('--help p50', p50('hookwarden --help'), 100, ' ms'),
        goal('dispatch, no hook matches, p50', p50('dispatch, no hook matches'), 150, ' ms'),
        goal('dispatch, no hook matches, p50 vs node -e 0', p50('dispatch, no hook matches') / base, 2, '×'),
      ],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
