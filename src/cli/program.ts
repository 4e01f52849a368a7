// The `hookwarden` command line: commands, flags and the help text that teaches them.
import { Command } from 'commander';
import { hooksJsonSchema } from '../config/json-schema.js';
import { runAuditVerify } from './commands/audit.js';
import { runDispatch } from './commands/dispatch.js';
import { runDoctor } from './commands/doctor.js';
import { addPackCommands } from './commands/pack.js';
import { runValidate } from './commands/validate.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function buildProgram(setExitCode: (code: number) => void): Command {
  const program = new Command('hookwarden')
    .description(
      'Run lifecycle hooks safely and fast: command hooks in restricted subprocesses, JS hooks in QuickJS\nisolates, one deterministic verdict (allow, deny, ask or passthrough).',
    )
    .version('0.1.0', '-V, --version')
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
    .option('-i, --input <file>', 'HookInput JSON file, or - for stdin (default: {})')
    .option('--tenant <id>', 'tenant the dispatch runs for (recorded in audit records)')
    .option('--audit <file.jsonl>', 'append one JSON line per executed hook (metadata only, never content)')
    .option('--root <dir>', 'sandbox root: the working directory of command hooks (default: cwd)')
    .option('--pretty', 'indent the JSON result')
    .addHelpText(
      'after',
      `
Exit status: 0 proceed (allow, ask, passthrough), 2 deny, 1 usage or config error.
stdout carries only the JSON result; warnings and errors go to stderr.
Missing input fields are filled in: sessionId "cli", cwd = current directory, timestamp = now.

Examples:
  $ echo '{"toolName":"Bash","toolInput":{"command":"rm -rf /"}}' \\
      | hookwarden dispatch BeforeTool --config hooks.json --input -
  $ hookwarden dispatch PreToolUse -c ~/.claude/settings.json -i event.json --pretty
  $ hookwarden dispatch SessionStart -c hooks.json -p /etc/hookwarden/policy.json --audit audit.jsonl`,
    )
    .action(async (event: string, flags) => setExitCode(await runDispatch(event, flags)));

  program
    .command('validate')
    .description('check config files without running any hook; every problem is listed with its JSON path')
    .argument('<config...>', 'hooks.json files (hookwarden, Claude Code settings.json or FreeCode form)')
    .option('-p, --policy <file>', 'also validate a policy file; repeatable', collect)
    .option('--strict', 'exit 1 on warnings too')
    .option('--json', 'print the report as JSON')
    .addHelpText(
      'after',
      `
Exit status: 0 valid (warnings allowed unless --strict), 1 errors found.

Examples:
  $ hookwarden validate hooks.json
  $ hookwarden validate .claude/settings.json --strict`,
    )
    .action(async (files: string[], flags) => setExitCode(await runValidate(files, flags)));

  const audit = program
    .command('audit')
    .description('work with audit files written by --audit / the audit option');
  audit
    .command('verify')
    .description("check an audit file's hash chain and report the first edited, deleted or reordered record")
    .argument('<file>', 'a JSONL audit file')
    .option('--json', 'print the report as JSON')
    .addHelpText(
      'after',
      `
Every record carries seq and prev (the sha256 of the previous line), so changing, deleting or moving
a line breaks the chain at the next one. A truncated tail still verifies: keep the printed head hash
elsewhere (it changes with every appended record) to detect that.
Exit status: 0 intact, 1 broken or unreadable.

Example:
  $ hookwarden audit verify audit.jsonl`,
    )
    .action(async (file: string, flags) => setExitCode(await runAuditVerify(file, flags)));

  program
    .command('doctor')
    .description('check which isolation levels work on this host, and how to fix the ones that do not')
    .option('--json', 'print the report as JSON')
    .addHelpText(
      'after',
      `
Each check runs a real hook: a command hook in process and namespace isolation, as user nobody,
and a JS hook in a QuickJS worker.
Exit status: 0 when every level works, 1 otherwise.`,
    )
    .action(async (flags) => setExitCode(await runDoctor(flags)));
  addPackCommands(program, setExitCode);

  program
    .command('schema')
    .description('print the JSON Schema of hooks.json (for editor validation via "$schema")')
    .action(() => {
      process.stdout.write(`${JSON.stringify(hooksJsonSchema(), null, 2)}\n`);
    });

  program.addHelpText(
    'after',
    `
Examples:
  $ hookwarden dispatch BeforeTool --config examples/hooks.json --input examples/events/rm-rf.json
  $ hookwarden validate examples/hooks.json
  $ hookwarden pack verify packs/guard --pubkey keys/reviewer.pub
Run \`hookwarden <command> --help\` for each command's flags.`,
  );
  return program;
}
