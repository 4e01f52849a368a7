// The `hookwarden` command line: commands, flags and the help text that teaches them. Each
// command's implementation is imported when that command runs: `--help`, `--version` and a
// `dispatch` load nothing they do not use (start-up time is the latency of a one-shot CLI call).

import { Command } from 'commander';
import { VERSION } from '../contract/version.js';
import { addAgentCommands } from './adapter/agent-commands.js';
import { addClaudeCodeCommands } from './claude-code/commands.js';
import { addDaemonCommands } from './claude-code/daemon/daemon-command.js';
import { registerAudit } from './commands/audit-command.js';
import { addBenchCommands } from './commands/bench-command.js';
import { registerDispatch } from './commands/dispatch-command.js';
import { registerDoctor } from './commands/doctor-command.js';
import { addPackCommands } from './commands/pack.js';
import { addServeCommand } from './commands/serve-command.js';
import { registerTest } from './commands/test-command.js';
import { registerValidate } from './commands/validate-command.js';

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

  registerDispatch(program, setExitCode);
  registerValidate(program, setExitCode);
  registerTest(program, setExitCode);
  registerAudit(program, setExitCode);
  addBenchCommands(program, setExitCode);
  registerDoctor(program, setExitCode);
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
