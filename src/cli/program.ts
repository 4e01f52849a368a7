// The `hookwarden` command line: commands, flags and the help text that teaches them. Each
// command's implementation is imported when that command runs: `--help`, `--version` and a
// `dispatch` load nothing they do not use (start-up time is the latency of a one-shot CLI call).

import { Command } from 'commander';
import { VERSION } from '../contract/version.js';
import { addAgentCommands } from './adapter/agent-commands.js';
import { addClaudeCodeCommands } from './claude-code/commands.js';
import { addDaemonCommands } from './claude-code/daemon/daemon-command.js';
import { allowHttpUrlOption, collect } from './collect.js';
import { addBenchCommands } from './commands/bench-command.js';
import { addPackCommands } from './commands/pack.js';
import { addServeCommand } from './commands/serve-command.js';

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
    .addOption(allowHttpUrlOption())
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
    .option(
      '--audit-required',
      'a dispatch whose --audit records cannot be written (after retries) denies on deny-capable events; without it the verdict stands, with a warning in the result',
    )
    .option('--root <dir>', 'sandbox root: the working directory of command hooks (default: cwd)')
    .option(
      '--pack-cache <dir>',
      "cache of packs pinned by url (default ~/.cache/hookwarden/packs); a bundle checked less than its pin's pollSeconds ago is used without asking the server",
    )
    .option('--pretty', 'indent the JSON result')
    .option(
      '--async-wait <ms>',
      'after printing the result, wait at most this long for async hooks to finish (default 60000; 0: abort them, each recorded not-run)',
    )
    .addHelpText(
      'after',
      `
Exit status: 0 proceed (allow, ask, passthrough), 2 deny, 1 usage or config error.
Async hooks ("async": true) run after the result is printed; the process exits when they have
finished (at most --async-wait ms). Each "rewake" (an asyncRewake hook said no) is one JSON line on
stderr, prefixed "hookwarden: rewake: "; their records go to --audit. Ctrl-C or SIGTERM while
waiting for them aborts them: a queued one is recorded not-run, a running one is killed and recorded
"aborted"; the exit status stays the result's.
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
    .addOption(allowHttpUrlOption())
    .option(
      '--root <dir>',
      'sandbox root: where command hooks will run and $CLAUDE_PROJECT_DIR points, as for dispatch and claude-code (default: cwd)',
    )
    .option('--strict', 'exit 1 on warnings too')
    .option('--json', 'print the report as JSON')
    .option('--no-tests', 'do not run the fixtures (tests/*.json) of the packs that verified')
    .option('--pack-cache <dir>', 'cache of packs pinned by url (default ~/.cache/hookwarden/packs)')
    .addHelpText(
      'after',
      `
Command programs and scripts are looked up as the shell that runs them will (bash for a Claude Code
file: its builtins, ~/, $HOME, $CLAUDE_PROJECT_DIR = --root; exec-form args after Claude Code's
placeholders). Every pinned pack is verified (and fetched, for a url pin); the fixtures of each pack
that verified are run, as \`hookwarden pack test\` runs them, and a failing fixture is an error.
Exit status: 0 valid (warnings allowed unless --strict), 1 errors found (or no file given).

Examples:
  $ hookwarden validate hooks.json
  $ hookwarden validate .claude/settings.json --strict
  $ hookwarden validate ~/proj/.claude/settings.json --root ~/proj
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
    .addOption(allowHttpUrlOption())
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

  addBenchCommands(program, setExitCode);

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
  addDaemonCommands(program, setExitCode, 'daemon');
  addAgentCommands(program, setExitCode);

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
