// Entry of the `hookwarden` binary (bin/hookwarden). Its only static import is the interrupt
// handler, installed before anything else loads; every command's modules load when it runs, so
// `--version` and `--help` cost little more than Node's own start-up.
import { installInterrupts, signalExitCode, unclaimedInterrupt } from './interrupt.js';

installInterrupts(process.argv[2]);
// Test-only: lets a test send a signal at this exact stage (see test/cli/interrupt.test.ts).
if (process.env.HOOKWARDEN_TEST_STAGE_MARKERS === '1')
  process.stderr.write('hookwarden: test-stage: interrupts-installed\n');

const { main } = await import('./run.js');
const code = await main(process.argv);
const held = unclaimedInterrupt();
process.exitCode = held === undefined ? code : signalExitCode(held);
