// The adapters' CommonJS entry: scripts/bundle-cli.ts bundles it, with the adapters' fast path
// (adapter/run-adapter.ts, the specs and what they import statically), into ONE CommonJS file,
// dist/cli/bundle/claude-code.cjs, and the one-shot dispatch (adapter/full-dispatch.ts) into one
// more, loaded only when a hook must run here. bin/hookwarden requires it for `hookwarden claude-code
// …` and every agent's adapter (codex, gemini, cursor, copilot).
//
// Why CommonJS: an agent starts the adapter once per event, and Node 20 spends ~7 ms setting up its
// ES module loader before the first line of an ES module entry runs, plus a facade per built-in
// module imported. A CommonJS process never sets it up: not when no hook can match (quick-scan.ts),
// not when the dispatch is forwarded to `serve --socket` (forward.ts), not when it runs here.
import type { AgentName } from '../../contract/agents/protocol.js';
import { runAgentAdapter } from '../adapter/agent-spec.js';
import { prepareEntry } from '../entry.js';
import { runClaudeCodeAdapter } from './adapter.js';
import { isAdapterCall } from './adapter-call.js';

const args = process.argv.slice(2);

/** False when the arguments are not an adapter proper (`<agent> install`, its help): bin/hookwarden then runs main.js. */
export const started = isAdapterCall(args);

if (started) {
  prepareEntry(args);
  const run =
    args[0] === 'claude-code'
      ? runClaudeCodeAdapter(args.slice(1))
      : runAgentAdapter(args[0] as AgentName, args.slice(1));
  run.then((code) => {
    process.exitCode = code;
  });
}
