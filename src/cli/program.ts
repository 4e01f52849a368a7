// The `hookwarden` command line: commands, flags and the help text that teaches them. Each
// command's implementation is imported when that command runs: `--help`, `--version` and a
// `dispatch` load nothing they do not use (start-up time is the latency of a one-shot CLI call).
import { Command } from 'commander';
import { VERSION } from '../contract/version.js';
import { addClaudeCodeCommands } from './claude-code/commands.js';
import { addPackCommands } from './commands/pack.js';
import { addServeCommand } from './commands/serve-command.js';
import { UsageError } from './usage-error.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function buildProgram(setExitCode: (code: number) => void): Command {
  const program = new Command('hookwarden')
    .description(
      'Run lifecycle hooks safely and fast: command hooks in restricted subprocesses, JS hooks in QuickJS isolates, one deterministic verdict (allow, deny, ask or passthrough).',
    )
    .version(VERSION, '-V, --version')
    .showHelpAfterError('(run with --help for usage)')
    .configureHelp({ sortSubcommands: false })
    // `bench compare --json` is compare's flag, not bench's: options belong to the command before them.
    .enablePositionalOptions();

  program
    .command('dispatch')
    .description('run every hook registered for <event> and print the folded DispatchResult as JSON')
    .argument('<event>', 'event name or alias, e.g. BeforeTool or PreToolUse')
    .option(
      '-c, --config <file>',
      'hooks.json (project scope); repeat to layer files, later ones win',
      collect,
    )
    .option(
      '--user-config <file>',
      'hooks.json loaded as user scope (lowest precedence); repeatable',
      collect,
    )
    .option(
      '-p, --policy <file>',
      'policy file: its hooks always run first and cannot be replaced; repeatable',
      collect,
    )
    .option(
      '-i, --input <file>',
      'HookInput JSON file, or - for stdin (default: stdin when it is a pipe or a file, else {})',
    )
    .option(
      '--tenant <id>',
      'tenant the dispatch runs for: policy hooks plus the tenant\'s own (config "tenants"), never the others',
    )
    .option('--strict', 'a config entry that would be skipped (invalid, unknown event…) is an error: exit 1')
    .option('--audit <file.jsonl>', 'append one JSON line per executed hook (metadata only, never content)')
    .option(
      '--audit-key <file>',
      'key the --audit file: every record gets an HMAC-SHA-256 under this key (mode 0600 file, from `audit keygen`)',
    )
    .option('--root <dir>', 'sandbox root: the working directory of command hooks (default: cwd)')
    .option(
      '--pack-cache <dir>',
      "cache of packs pinned by url (default ~/.cache/hookwarden/packs); a bundle checked less than its pin's pollSeconds ago is used without asking the server",
    )
    .option('--pretty', 'indent the JSON result')
    .addHelpText(
      'after',
      `
Exit status: 0 proceed (allow, ask, passthrough), 2 deny, 1 usage or config error.
stdout carries only the JSON result; warnings and errors go to stderr.
The input: --input <file>; else stdin when it is a pipe or a file (read to its end: a caller that
keeps stdin open without writing must pass --input); else {} (a terminal, /dev/null). Input that is
not a JSON object is an error. Missing fields are filled in: sessionId "cli", cwd = current
directory, timestamp = now.
Ctrl-C or SIGTERM at any moment kills running hooks and prints the interrupted result: deny (exit 2)
on events that can deny (and on an event not known yet); otherwise the result so far with
"interrupted": true, exit 130 (SIGINT) or 143 (SIGTERM).

Examples:
  $ echo '{"toolName":"Bash","toolInput":{"command":"rm -rf /"}}' \\
      | hookwarden dispatch BeforeTool --config hooks.json
  $ hookwarden dispatch PreToolUse -c ~/.claude/settings.json -i event.json --pretty
  $ hookwarden dispatch SessionStart -c hooks.json -p /etc/hookwarden/policy.json --audit audit.jsonl
  $ hookwarden dispatch BeforeTool -c hooks.json -i event.json \\
      --audit /var/log/hookwarden/audit.jsonl --audit-key /etc/hookwarden/audit.key`,
    )
    .action(async (event: string, flags) => {
      const { runDispatch } = await import('./commands/dispatch.js');
      setExitCode(await runDispatch(event, flags));
    });

  program
    .command('validate')
    .description(
      "check config files without running any hook but pinned packs' fixtures; every problem is listed with its JSON path",
    )
    .argument('[config...]', 'hooks.json files (hookwarden, Claude Code settings.json or FreeCode form)')
    .option('-p, --policy <file>', 'a policy file to validate (alone or with configs); repeatable', collect)
    .option('--strict', 'exit 1 on warnings too')
    .option('--json', 'print the report as JSON')
    .option('--no-tests', 'do not run the fixtures (tests/*.json) of the packs that verified')
    .option('--pack-cache <dir>', 'cache of packs pinned by url (default ~/.cache/hookwarden/packs)')
    .addHelpText(
      'after',
      `
Every pinned pack is verified (and fetched, for a url pin); the fixtures of each pack that verified
are run, as \`hookwarden pack test\` runs them, and a failing fixture is an error.
Exit status: 0 valid (warnings allowed unless --strict), 1 errors found (or no file given).

Examples:
  $ hookwarden validate hooks.json
  $ hookwarden validate .claude/settings.json --strict
  $ hookwarden validate --policy /etc/hookwarden/policy.json --no-tests`,
    )
    .action(async (files: string[], flags) => {
      const { runValidate } = await import('./commands/validate.js');
      setExitCode(await runValidate(files, flags));
    });

  program
    .command('test')
    .description(
      'run fixtures (the format of `pack test`) against any config: one line per fixture, then coverage',
    )
    .argument('<config>', 'hooks.json (project scope)')
    .argument('<fixtures...>', 'fixture files, or directories of them (every .json file inside)')
    .option('-p, --policy <file>', 'policy file loaded with the config; repeatable', collect)
    .option('--root <dir>', 'sandbox root: the working directory of command hooks (default: cwd)')
    .option('--pack-cache <dir>', 'cache of packs pinned by url (default ~/.cache/hookwarden/packs)')
    .option('--json', 'print the results as JSON (for CI)')
    .addHelpText(
      'after',
      `
A fixture: {"name": "blocks rm -rf", "event": "BeforeTool", "input": {"toolName": "Bash",
"toolInput": {"command": "rm -rf /"}}, "expect": {"decision": "deny", "reasonMatches": "rm"}}.
A file holds one fixture or an array of them; names must be unique. "expect" may also name
decidedBy, additionalContext (or additionalContextMatches), mutatedToolInput, mutatedPrompt,
modelOverride, mutatedText, updatedToolOutput, mutatedRequest, continueWork (null: must be absent)
and hooks: {"<hook id>": "<outcome>"}. Each fixture is its own session (sessionId "fixture-<n>").
The config loads as \`hookwarden dispatch\` loads it, and must load without errors.
Exit status: 0 when every fixture passes (and there is at least one), 1 otherwise.

Examples:
  $ hookwarden test hooks.json tests/
  $ hookwarden test .claude/settings.json tests/bash.json tests/write.json --json`,
    )
    .action(async (config: string, fixtures: string[], flags) => {
      const { runConfigTest } = await import('./commands/test.js');
      setExitCode(await runConfigTest(config, fixtures, flags));
    });

  const audit = program
    .command('audit')
    .description('work with audit files written by --audit / the audit option');
  audit
    .command('verify')
    .description("check an audit file's chain and report the first edited, deleted or reordered record")
    .option('-k, --key <file>', 'the key the file was written with (--audit-key): checks authenticity')
    .argument('<file>', 'a JSONL audit file')
    .option('--json', 'print the report as JSON')
    .addHelpText(
      'after',
      `
Every record carries seq and prev, so changing, deleting or moving a line breaks the chain.
Without --key (an unkeyed file, sha256 links): integrity only. It detects accidental corruption and
  naive edits, not a rewrite: anyone who can write the file can recompute every link.
With --key (a file written with --audit-key): authenticity. Each record's HMAC-SHA-256 must verify
  with the key, so without the key no record can be changed, added or re-chained. A keyed file needs
  its key to verify; an unkeyed file is refused with --key (a keyed file rewritten without the key
  looks like one).
A truncated tail still verifies: keep the printed head elsewhere (it changes with every record).
Exit status: 0 intact, 1 broken, unreadable or keyed without --key.

Examples:
  $ hookwarden audit verify audit.jsonl
  $ hookwarden audit verify /var/log/hookwarden/audit.jsonl --key /etc/hookwarden/audit.key`,
    )
    .action(async (file: string, flags) => {
      const { runAuditVerify } = await import('./commands/audit.js');
      setExitCode(await runAuditVerify(file, flags));
    });
  audit
    .command('keygen')
    .description('write a fresh audit key (32 random bytes as hex) for --audit-key and audit verify --key')
    .requiredOption('-o, --out <file>', 'key file to create (mode 0600; missing directories are made 0700)')
    .addHelpText(
      'after',
      `
An existing file is never overwritten. A key file may also be written by hand: at least 32 random
bytes, raw or as hex or base64 text; it must be the file itself (no symlink) with mode 0600 or
stricter. Keep it out of every hook's reach: outside the sandbox root, and command hooks in isolation
"namespace" or runAs "nobody" (a process-mode hook runs as you and can read what you can).
Exit status: 0 written, 1 error.

Example:
  $ hookwarden audit keygen --out /etc/hookwarden/audit.key`,
    )
    .action(async (flags: { out: string }) => {
      const { runAuditKeygen } = await import('./commands/audit.js');
      setExitCode(runAuditKeygen(flags));
    });

  const bench = program
    .command('bench')
    .enablePositionalOptions()
    .description(
      'dispatch one event many times; report latency percentiles, throughput and ratios to baselines',
    )
    .option('-e, --event <event>', 'event to dispatch, e.g. BeforeTool or PreToolUse (required)')
    .option('-c, --config <file>', 'hooks.json (project scope); repeatable, later ones win', collect)
    .option('--user-config <file>', 'hooks.json loaded as user scope; repeatable', collect)
    .option('-p, --policy <file>', 'policy file; repeatable', collect)
    .option(
      '-i, --input <file>',
      'HookInput JSON file, or - for stdin (default: stdin when it is a pipe or a file, else {}; defaults filled in)',
    )
    .option('-n, --iterations <n>', 'measured dispatches (default: 1000)')
    .option('--concurrency <c>', 'dispatches in flight at once (default: 1)')
    .option('--tenants <t>', 'spread dispatches round-robin over tenants t1…tT (default: 1, no tenant)')
    .option('--warmup <n>', 'unmeasured dispatches run first (default: 10)')
    .option('--blocks <b>', 'blocks the run is cut into, baselines before each (default: 20)')
    .option(
      '--vary-input',
      "give each dispatch its own timestamp (input's + n ms): seeded Math.random varies",
    )
    .option('--redact-input', 'record only the digest of the input in the result, not the input')
    .option('--root <dir>', 'sandbox root: the working directory of command hooks (default: cwd)')
    .option('--json', 'print one JSON object on stdout (schema 2, docs/bench.md)')
    .option('--report <file.html>', 'also write a self-contained HTML report (charts, stage split, tables)')
    .option('--no-progress', 'no progress on stderr (default: a bar on a terminal, else a line every 5 s)')
    .option(
      '--url <url>',
      'dispatch to a running `hookwarden serve` instead (its config and the token apply)',
    )
    .option('--token <token>', 'bearer token for --url (default: $HOOKWARDEN_TOKEN)')
    .addHelpText(
      'after',
      `
What it measures (docs/bench.md explains every figure):
  overall      latency of whole dispatches, timed around dispatch(): resolve, run every hook, fold.
  per hook     each hook's own latencyMs from the DispatchResult: a command hook spawn to exit; a JS
               hook the isolate call inside its worker (the round trip to the worker is not in it).
  per tenant   with --tenants T > 1, each tenant's dispatch latency and dispatch rate.
  stages       where a dispatch's time goes: queue, transport (thread hop or spawn), the hook's run,
               fold and result building; per dispatch and per hook (means).
  throughput   measured dispatches / wall time of the dispatch blocks.
  percentiles  p50 p90 p99 p99.9 from an HDR histogram (3 significant digits); max and mean exact.

Baselines, measured in the same run, one call at a time, in blocks between the dispatch blocks:
  echo         a raw Piscina round trip of the input to a worker that returns it: the floor of any pool.
  spawn        a raw spawn('/bin/true') to exit: the floor of any command hook.
  eval         a fresh QuickJS runtime+context evaluating a trivial hook on this thread: the floor of a
               fresh isolate per call, without any pool.
Ratios are p50 ÷ baseline p50 (2.00× = twice the baseline). The overall dispatch is compared with each
baseline and with echo + eval (a JS hook end to end); a command hook with spawn; a JS hook with eval
(like for like) and with echo + eval. At --concurrency above 1 dispatch latencies include queueing:
compare ratios at concurrency 1, and throughput at higher concurrency.

Warnings (printed, and in --json) flag high variance between blocks, baselines that moved during the
run (a busy machine), a slow first block (warm-up) and hook failures. Hook failures never stop the
run; a dispatch that is rejected (unknown event, invalid input) stops it with exit 1.

Saved results: \`bench report\` renders one again, \`bench compare\` compares two (exit 1 on a regression).

Examples:
  $ hookwarden bench -c examples/hooks.json -e BeforeTool -i examples/events/bash-rm-rf.json
  $ hookwarden bench -c hooks.json -e PreToolUse -n 20000 --concurrency 32 --tenants 4
  $ hookwarden bench -c hooks.json -e SessionStart --json > bench.json
  $ hookwarden bench -c hooks.json -e BeforeTool -i event.json --report bench.html
  $ hookwarden bench compare main.json branch.json --threshold 10%
  $ HOOKWARDEN_TOKEN=hw_… hookwarden bench --url http://127.0.0.1:8080 -e PreToolUse -i event.json --concurrency 32`,
    )
    .action(async (flags) => {
      if (flags.event === undefined)
        throw new UsageError('bench needs --event <event>: the event to dispatch, e.g. BeforeTool');
      const { runBenchCommand } = await import('./commands/bench.js');
      setExitCode(await runBenchCommand(flags));
    });

  bench
    .command('report')
    .description('render a saved bench result (bench --json) as a self-contained HTML page')
    .argument('<result.json>', 'output of hookwarden bench --json')
    .requiredOption('-o, --out <file.html>', 'the page to write')
    .addHelpText(
      'after',
      `
Exit status: 0 written, 1 unreadable result or unwritable page.

Example:
  $ hookwarden bench report bench.json --out bench.html`,
    )
    .action(async (file: string, flags: { out: string }) => {
      const { runBenchReport } = await import('./commands/bench-compare.js');
      setExitCode(runBenchReport(file, flags));
    });

  bench
    .command('compare')
    .description('compare two saved bench results series by series; exit 1 when one got slower')
    .argument('<base.json>', 'the baseline run (bench --json)')
    .argument('<new.json>', 'the run to judge')
    .option('--threshold <pct>', 'smallest p50 change that counts, in percent (default: 5%)')
    .option('--alpha <p>', 'significance level of the Mann-Whitney U test (default: 0.05)')
    .option('--no-normalize', 'compare raw latencies instead of dividing each run by its own baselines')
    .option('--json', 'print the comparison as one JSON object')
    .option('--report <file.html>', 'also write a page with both CDFs overlaid and the table')
    .addHelpText(
      'after',
      `
For each series (overall, each hook, each tenant, each baseline): the p50, p90 and p99 change, and a
two-sided Mann-Whitney U test over the two runs' per-block medians. Each run's figures are first
divided by the baselines it measured (command hooks by spawn, JS hooks by eval, dispatches by the
baselines of the hook types they ran), so a slower machine is not a slower hookwarden; when the
baselines themselves moved, a note says so. A series is "slower" or "faster" when p < alpha AND its
p50 moved more than the threshold; otherwise "no significant change".

Exit status: 0 no series got slower, 1 a series (not a baseline) got slower, or an unreadable result.

Examples:
  $ hookwarden bench -c hooks.json -e BeforeTool -i event.json -n 2000 --json > base.json
  $ hookwarden bench -c hooks.json -e BeforeTool -i event.json -n 2000 --json > new.json
  $ hookwarden bench compare base.json new.json --threshold 10% --report compare.html`,
    )
    .action(async (baseFile: string, newFile: string, flags) => {
      const { runBenchCompare } = await import('./commands/bench-compare.js');
      setExitCode(runBenchCompare(baseFile, newFile, flags));
    });

  program
    .command('doctor')
    .description('check which isolation levels work on this host, and how to fix the ones that do not')
    .option('--json', 'print the report as JSON')
    .addHelpText(
      'after',
      `
Each check runs a real hook: a command hook in process and namespace isolation, as user nobody,
and a JS hook in a QuickJS worker. It also says what starts command hooks: the spawn server, or
(without a C compiler at build time, or with HOOKWARDEN_SPAWN_SERVER=off) Node's spawn on the
main thread, and what that costs.
Exit status: 0 when every level works, 1 otherwise.`,
    )
    .action(async (flags) => {
      const { runDoctor } = await import('./commands/doctor.js');
      setExitCode(await runDoctor(flags));
    });
  addPackCommands(program, setExitCode);
  addServeCommand(program, setExitCode);
  addClaudeCodeCommands(program, setExitCode);

  program
    .command('schema')
    .description('print the JSON Schema of hooks.json (for editor validation via "$schema")')
    .action(async () => {
      const { hooksJsonSchema } = await import('../config/json-schema.js');
      process.stdout.write(`${JSON.stringify(hooksJsonSchema(), null, 2)}\n`);
    });

  program.addHelpText(
    'after',
    `
Examples:
  $ hookwarden dispatch BeforeTool --config examples/hooks.json --input examples/events/bash-rm-rf.json
  $ hookwarden validate examples/hooks.json
  $ hookwarden pack test examples/packs/guard
  $ hookwarden pack verify packs/guard --pubkey keys/reviewer.pub
Run \`hookwarden <command> --help\` for each command's flags.`,
  );
  return program;
}
