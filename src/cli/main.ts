// Entry of the `hookwarden` binary (bin/hookwarden). Its static imports are tiny: the interrupt
// handler is installed before anything else loads, and every command's modules load when it runs,
// so `--version` and `--help` cost little more than Node's own start-up.
import nodeModule from 'node:module';
import { VERSION } from '../contract/version.js';
import { installInterrupts, signalExitCode, unclaimedInterrupt } from './interrupt.js';

installInterrupts(process.argv.slice(2));
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

const only = process.argv.slice(2);
/** The Claude Code adapter proper (not its help, not `install`): run once per event, without commander. */
const adapter =
  only[0] === 'claude-code' &&
  only[1] !== 'install' &&
  only[1] !== 'help' &&
  !only.some((a) => a === '--help' || a === '-h');
if (only.length === 1 && (only[0] === '--version' || only[0] === '-V')) {
  // The one answer that needs no command-line parser.
  process.stdout.write(`${VERSION}\n`);
} else if (adapter) {
  const { runClaudeCodeAdapter } = await import('./claude-code/adapter.js');
  process.exitCode = await runClaudeCodeAdapter(only.slice(1));
} else {
  const { main } = await import('./run.js');
  const code = await main(process.argv);
  const held = unclaimedInterrupt();
  process.exitCode = held === undefined ? code : signalExitCode(held);
}
