// Entry of the `hookwarden` binary (bin/hookwarden). Its static imports are tiny: the interrupt
// handler is installed before anything else loads, and every command's modules load when it runs,
// so `--version` and `--help` cost little more than Node's own start-up.
import type { AgentName } from '../contract/agents/protocol.js';
import { VERSION } from '../contract/version.js';
import { isAdapterCall } from './claude-code/adapter-call.js';
import { prepareEntry } from './entry.js';
import { signalExitCode, unclaimedInterrupt } from './interrupt.js';

const only = process.argv.slice(2);
prepareEntry(only);
if (only.length === 1 && (only[0] === '--version' || only[0] === '-V')) {
  // The one answer that needs no command-line parser.
  process.stdout.write(`${VERSION}\n`);
} else if (isAdapterCall(only) && only[0] === 'claude-code') {
  const { runClaudeCodeAdapter } = await import('./claude-code/adapter.js');
  process.exitCode = await runClaudeCodeAdapter(only.slice(1));
} else if (isAdapterCall(only)) {
  const { runAgentAdapter } = await import('./adapter/agent-spec.js');
  process.exitCode = await runAgentAdapter(only[0] as AgentName, only.slice(1));
} else {
  const { main } = await import('./run.js');
  const code = await main(process.argv);
  const held = unclaimedInterrupt();
  process.exitCode = held === undefined ? code : signalExitCode(held);
}
