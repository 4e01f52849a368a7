// `npm run fuzz`: the property tier at fuzzing strength (docs/development.md "Properties"). Runs the
// property files of test/properties/ with 10⁵ cases per property (`--runs`; invariant 7's five
// agent properties: 10⁴ each, `--agent-runs`), one seed for all
// (`--seed`, printed), optionally only some invariants (`--only 1,3`), and replays one shrunk
// counterexample (`--path`, with the seed fast-check printed).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Command, InvalidArgumentError } from 'commander';

/** Each invariant's property file(s). */
const FILES: Readonly<Record<string, readonly string[]>> = {
  '1': ['test/properties/tighten.test.ts'],
  '2': ['test/properties/final-input.test.ts'],
  '3': ['test/properties/run-the-guard.test.ts'],
  '4': ['test/properties/bad-input.test.ts'],
  '5': ['test/properties/clean-machinery.test.ts'],
  '6': ['test/properties/tenants.test.ts'],
  // One property per agent: the agent's adapter against an oracle written from the agent's code.
  '7': [
    'test/properties/agent-edge-claude-code.test.ts',
    'test/properties/agent-edge-codex.test.ts',
    'test/properties/agent-edge-gemini.test.ts',
    'test/properties/agent-edge-cursor.test.ts',
    'test/properties/agent-edge-copilot.test.ts',
  ],
};

const integer = (what: string) => (raw: string) => {
  const n = Number(raw);
  if (!Number.isSafeInteger(n)) throw new InvalidArgumentError(`${what}: expected an integer, got ${raw}`);
  return n;
};

const program = new Command('npm run fuzz --')
  .description(
    "Runs the seven invariants of docs/security.md as properties over generated configurations, inputs, tenants and each agent's own hook answers, at fuzzing strength. A failure prints the shrunk counterexample and the line that replays it.",
  )
  .option('--runs <n>', 'cases per property', integer('--runs'), 100_000)
  .option('--seed <n>', 'the seed of every property (default: a fresh one, printed)', integer('--seed'))
  .option(
    '--only <list>',
    'only these invariants, e.g. "1,3" (default: all seven; 7 is one property per agent)',
  )
  .option(
    '--binary-runs <n>',
    'cases of invariant 4 through the real binaries (two Node start-ups a case; the same inputs reach the same code in process at --runs)',
    integer('--binary-runs'),
    1_000,
  )
  .option(
    '--agent-runs <n>',
    "cases of each of invariant 7's agent properties (each case runs the agent's hooks as processes)",
    integer('--agent-runs'),
    10_000,
  )
  .option('--path <path>', "replay one counterexample: fast-check's path, with the --seed it printed")
  .option(
    '--minutes <n>',
    'stop each property after n minutes, reporting the cases that passed',
    integer('--minutes'),
  )
  .option('--until <time>', 'stop every property at this time (ISO 8601, e.g. 2026-12-02T03:30Z)', (raw) => {
    const t = Date.parse(raw);
    if (Number.isNaN(t)) throw new InvalidArgumentError(`--until: expected an ISO 8601 time, got ${raw}`);
    return t;
  })
  .option(
    '--parallel <n>',
    'property files run at once (default: vitest decides, one per core)',
    integer('--parallel'),
  )
  .addHelpText(
    'after',
    '\nExamples:\n  npm run fuzz\n  npm run fuzz -- --runs 20000 --only 2,6\n  npm run fuzz -- --minutes 30 --parallel 6      (every property at once, 30 minutes each)\n  npm run fuzz -- --seed 1234 --only 3 --path "17:3:0"   (replay a counterexample)\n',
  )
  .showHelpAfterError('(npm run fuzz -- --help lists every option)');

program.parse(process.argv);
const opts = program.opts<{
  runs: number;
  agentRuns: number;
  binaryRuns: number;
  seed?: number;
  only?: string;
  path?: string;
  minutes?: number;
  until?: number;
  parallel?: number;
}>();
if (opts.runs < 1) program.error('error: --runs: expected at least 1 case');
if (opts.binaryRuns < 1) program.error('error: --binary-runs: expected at least 1 case');
if (opts.agentRuns < 1) program.error('error: --agent-runs: expected at least 1 case');
const only = (opts.only ?? Object.keys(FILES).join(','))
  .split(',')
  .map((s) => s.trim())
  .filter((s) => s !== '');
for (const k of only)
  if (FILES[k] === undefined) program.error(`error: --only: no invariant "${k}" (the invariants are 1 to 7)`);
const seed = opts.seed ?? (Date.now() ^ (Math.random() * 0x100000000)) | 0;
process.stdout.write(
  `fuzz: invariants ${only.join(', ')}: ${opts.runs} cases per property (${opts.binaryRuns} through the real binaries, ${opts.agentRuns} per agent for invariant 7), seed ${seed}\n`,
);

const root = fileURLToPath(new URL('../..', import.meta.url));
const vitest = fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url));
const r = spawnSync(
  process.execPath,
  [
    vitest,
    'run',
    ...only.flatMap((k) => FILES[k]!),
    '--reporter',
    'default',
    ...(opts.parallel === undefined ? [] : [`--maxWorkers=${opts.parallel}`]),
  ],
  {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      HOOKWARDEN_PROPERTY_RUNS: String(opts.runs),
      HOOKWARDEN_PROPERTY_BINARY_RUNS: String(opts.binaryRuns),
      HOOKWARDEN_PROPERTY_AGENT_RUNS: String(opts.agentRuns),
      HOOKWARDEN_PROPERTY_SEED: String(seed),
      ...(opts.path === undefined ? {} : { HOOKWARDEN_PROPERTY_PATH: opts.path }),
      ...(opts.minutes === undefined ? {} : { HOOKWARDEN_PROPERTY_MINUTES: String(opts.minutes) }),
      ...(opts.until === undefined ? {} : { HOOKWARDEN_PROPERTY_DEADLINE: String(opts.until) }),
    },
  },
);
process.exit(r.status ?? 1);
