// What every entry of the CLI does first (main.ts, and the adapter's CommonJS entry adapter-main.ts):
// the interrupt handlers before anything else loads, and a quiet end when the reader goes away.
import nodeModule from 'node:module';
import { guardHostProcess, hideSecretArguments } from '../native/host-guard.js';
import { holdBuild } from './build-hold.js';
import { installInterrupts } from './interrupt.js';

/** Commands that run for long: they hold the build they run from (build-hold.ts). */
const longLived = (args: readonly string[]) =>
  args[0] === 'serve' ||
  (args[0] === 'daemon' && args[1] === 'run') ||
  (args[0] === 'claude-code' && args[1] === 'daemon' && args[2] === 'run');

export function prepareEntry(args: readonly string[]): void {
  installInterrupts(args);
  if (longLived(args)) holdBuild();
  // Before anything reads a secret: no hook of this user reads them from /proc (host-guard.ts).
  guardHostProcess();
  hideSecretArguments();
  // Node ≥ 22.1 keeps compiled code on disk between runs (its docs recommend it to CLIs); a no-op on 20.
  (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
  // Test-only: lets a test send a signal at this exact stage (see test/cli/interrupt.test.ts).
  if (process.env.HOOKWARDEN_TEST_STAGE_MARKERS === '1')
    process.stderr.write('hookwarden: test-stage: interrupts-installed\n');
  // A reader that goes away (`hookwarden --help | head`) is no error of ours: stop quietly.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
}
