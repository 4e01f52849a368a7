// Parses the command line and runs the command. User errors: one line on stderr, exit 1.
import { type Command, CommanderError } from 'commander';
import { HookwardenError } from '../contract/hookwarden-error.js';
import { buildProgram } from './program.js';
import { UsageError } from './usage-error.js';

export async function main(argv: string[]): Promise<number> {
  let exitCode = 0;
  const program = buildProgram((code) => {
    exitCode = code;
  });
  // Every command, subcommands too: a usage mistake anywhere is a CommanderError returned as exit 1
  // (commander would otherwise call process.exit() from inside a subcommand).
  const override = (c: Command): void => {
    c.exitOverride();
    for (const sub of c.commands) override(sub);
  };
  override(program);
  try {
    await program.parseAsync(argv);
    return exitCode;
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and version end with code 0; usage mistakes were already printed by commander.
      return err.exitCode === 0 ? 0 : 1;
    }
    if (err instanceof UsageError || err instanceof HookwardenError) {
      process.stderr.write(`hookwarden: error: ${err.message}\n`);
      return 1;
    }
    // Never a stack trace: one line, and the details only when asked for (HOOKWARDEN_DEBUG=1).
    const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    process.stderr.write(`hookwarden: internal error: ${message.split('\n')[0]}\n`);
    if (process.env.HOOKWARDEN_DEBUG === '1' && err instanceof Error) process.stderr.write(`${err.stack}\n`);
    return 1;
  }
}
