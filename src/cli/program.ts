// The `hookwarden` command line: commands, flags and the help text that teaches them. Each
// command's implementation is imported when that command runs: `--help`, `--version` and a
// `dispatch` load nothing they do not use (start-up time is the latency of a one-shot CLI call).
import { Command } from 'commander';
import { addPackCommands } from './commands/pack.js';
import { VERSION } from './version.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function buildProgram(setExitCode: (code: number) => void): Command {
  const program = new Command('hookwarden')
    .description(
      'Run lifecycle hooks safely and fast: command hooks in restricted subprocesses, JS hooks in QuickJS isolates, one deterministic verdict (allow, deny, ask or passthrough).',
    )
    .version(VERSION, '-V, --version')
    .showHelpAfterError('(run with --help for usage)')
    .configureHelp({ sortSubcommands: false });

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
    .description('check config files without running any hook; every problem is listed with its JSON path')
    .argument('[config...]', 'hooks.json files (hookwarden, Claude Code settings.json or FreeCode form)')
    .option('-p, --policy <file>', 'a policy file to validate (alone or with configs); repeatable', collect)
    .option('--strict', 'exit 1 on warnings too')
    .option('--json', 'print the report as JSON')
    .addHelpText(
      'after',
      `
Exit status: 0 valid (warnings allowed unless --strict), 1 errors found (or no file given).

Examples:
  $ hookwarden validate hooks.json
  $ hookwarden validate .claude/settings.json --strict
  $ hookwarden validate --policy /etc/hookwarden/policy.json`,
    )
    .action(async (files: string[], flags) => {
      const { runValidate } = await import('./commands/validate.js');
      setExitCode(await runValidate(files, flags));
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

  program
    .command('bench')
    .description(
      'dispatch one event many times; report latency percentiles, throughput and ratios to baselines',
    )
    .requiredOption('-e, --event <event>', 'event to dispatch, e.g. BeforeTool or PreToolUse')
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
    .option('--root <dir>', 'sandbox root: the working directory of command hooks (default: cwd)')
    .option('--json', 'print one JSON object on stdout (schema in README, "hookwarden bench")')
    .option('--report <file.html>', 'also write a self-contained HTML report (tables, histogram, CDF)')
    .addHelpText(
      'after',
      `
What it measures:
  overall      latency of whole dispatches, timed around dispatch(): resolve, run every hook, fold.
  per hook     each hook's own latencyMs from the DispatchResult: a command hook spawn to exit; a JS
               hook the isolate call inside its worker (the round trip to the worker is not in it).
  per tenant   with --tenants T > 1, each tenant's dispatch latency and dispatch rate.
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

Hook failures are counted by error code and never stop the run; a dispatch that is rejected (unknown
event, invalid input) stops it with exit 1. A progress bar is drawn on stderr when it is a terminal.

Examples:
  $ hookwarden bench -c examples/hooks.json -e BeforeTool -i examples/events/bash-rm-rf.json
  $ hookwarden bench -c hooks.json -e PreToolUse -n 20000 --concurrency 32 --tenants 4
  $ hookwarden bench -c hooks.json -e SessionStart --json > bench.json
  $ hookwarden bench -c hooks.json -e BeforeTool -i event.json --report bench.html`,
    )
    .action(async (flags) => {
      const { runBenchCommand } = await import('./commands/bench.js');
      setExitCode(await runBenchCommand(flags));
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
  $ hookwarden pack verify packs/guard --pubkey keys/reviewer.pub
Run \`hookwarden <command> --help\` for each command's flags.`,
  );
  return program;
}
