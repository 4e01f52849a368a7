// The adapter's CommonJS entry: scripts/bundle-cli.ts bundles it, with the adapter's fast path
// (adapter.ts and what it imports statically), into ONE file, dist/cli/bundle/claude-code.cjs,
// which bin/hookwarden requires for `hookwarden claude-code …`.
//
// Why CommonJS: Claude Code starts the adapter once per event, and Node 20 spends ~7 ms setting up
// its ES module loader before the first line of an ES module entry runs (plus a facade per built-in
// module imported). A CommonJS entry skips that on the paths that answer from this file alone: no
// hook can match (quick-scan.ts), or the dispatch is forwarded to `serve --socket` (forward.ts). When
// a hook must run here, adapter.ts imports full-dispatch.js, which the bundle maps to the ES module
// bundle's chunk: the dispatcher is loaded once, as every other command loads it.

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
