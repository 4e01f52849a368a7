// Entry of the `hookwarden` binary (bin/hookwarden). Its only static import is the interrupt
// handler, installed before anything else loads; every command's modules load when it runs, so
// `--version` and `--help` cost little more than Node's own start-up.
import { installInterrupts, signalExitCode, unclaimedInterrupt } from './interrupt.js';
import { VERSION } from './version.js';

installInterrupts(process.argv[2]);
// Test-only: lets a test send a signal at this exact stage (see test/cli/interrupt.test.ts).
if (process.env.HOOKWARDEN_TEST_STAGE_MARKERS === '1')
  process.stderr.write('hookwarden: test-stage: interrupts-installed\n');

// A reader that goes away (`hookwarden --help | head`) is no error of ours: stop quietly.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});

const only = process.argv.slice(2);
if (only.length === 1 && (only[0] === '--version' || only[0] === '-V')) {
  // The one answer that needs no command-line parser.
  process.stdout.write(`${VERSION}\n`);
} else {
  const { main } = await import('./run.js');
  const code = await main(process.argv);
  const held = unclaimedInterrupt();
  process.exitCode = held === undefined ? code : signalExitCode(held);
}
