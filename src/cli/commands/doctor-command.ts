// `hookwarden doctor`: the flags and the help text; ./doctor.js runs it.

import type { Command } from 'commander';

export function registerDoctor(program: Command, setExitCode: (code: number) => void): void {
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
      const { runDoctor } = await import('./doctor.js');
      setExitCode(await runDoctor(flags));
    });
}
