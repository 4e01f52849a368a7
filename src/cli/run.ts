// Parses the command line and runs the command. User errors: one line on stderr, exit 1.
import { CommanderError } from 'commander';
import { HookwardenError } from '../contract/hookwarden-error.js';
import { buildProgram } from './program.js';
import { UsageError } from './usage-error.js';

export async function main(argv: string[]): Promise<number> {
  let exitCode = 0;
  const program = buildProgram((code) => {
    exitCode = code;
  });
  program.exitOverride();
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
    throw err;
  }
}
