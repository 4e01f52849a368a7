// The adapter's CommonJS entry: scripts/bundle-cli.ts bundles it, with the adapter's fast path
// (adapter.ts and what it imports statically), into ONE CommonJS file, dist/cli/bundle/claude-code.cjs,
// and the one-shot dispatch (full-dispatch.ts) into one more, loaded only when a hook must run here.
// bin/hookwarden requires it for `hookwarden claude-code …`.
//
// Why CommonJS: Claude Code starts the adapter once per event, and Node 20 spends ~7 ms setting up
// its ES module loader before the first line of an ES module entry runs, plus a facade per built-in
// module imported. A CommonJS process never sets it up: not when no hook can match (quick-scan.ts),
// not when the dispatch is forwarded to `serve --socket` (forward.ts), not when it runs here.
import { prepareEntry } from '../entry.js';
import { runClaudeCodeAdapter } from './adapter.js';
import { isAdapterCall } from './adapter-call.js';

const args = process.argv.slice(2);

/** False when the arguments are not the adapter proper (`claude-code install`, its help): bin/hookwarden then runs main.js. */
export const started = isAdapterCall(args);

if (started) {
  prepareEntry(args);
  runClaudeCodeAdapter(args.slice(1)).then((code) => {
    process.exitCode = code;
  });
}
