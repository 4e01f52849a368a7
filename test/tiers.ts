// The test tiers. `npm test` runs every file; `npm run test:fast` (HOOKWARDEN_TEST_TIER=fast) is the
// inner loop and leaves out the files below: the scenario smoke run, the 10,000-call test, the tests
// that start Redis replicas, and the files that took 9 s or more each in a whole-suite run on the
// 2-core machine (measured: node -e over .vitest-report.json, endTime - startTime per file). The
// full suite, in .ci/run, runs them all.
export const SLOW_TESTS: readonly string[] = [
  // Named: every bench/ scenario once; 10,000 calls of one hook; Redis replicas, a stall, TLS.
  'test/bench/bench-smoke.test.ts',
  'test/sandbox/js/fresh-state.test.ts',
  'test/server/serve-redis.test.ts',
  'test/server/serve-redis-stall.test.ts',
  'test/server/serve-traces-redis.test.ts',
  'test/async/redis-tls.test.ts',
  // Measured, 9 s or more each.
  'test/sandbox/js/js-hooks.test.ts',
  'test/sandbox/native/spawn-wire.test.ts',
  'test/sandbox/command/hostile.test.ts',
  'test/cli/cli.test.ts',
  'test/cli/pack-publish.test.ts',
  'test/cli/claude-code-socket.test.ts',
  'test/server/serve-cli.test.ts',
  'test/cli/bench.test.ts',
  // Real runs beside CPU burners, and two bench ab windows: minutes on a busy 2-core machine.
  'test/cli/bench-compare.test.ts',
  // Saved results through the binary (some 15 runs of it, one bench ab that fails): 4 min at load 34.
  'test/cli/bench-compare-saved.test.ts',
  'test/sandbox/js/hostile-text.test.ts',
  'test/cli/pack.test.ts',
  'test/audit/keyed-chain.test.ts',
  'test/cli/claude-code.test.ts',
  'test/sandbox/command/run-command.test.ts',
  // Invariant 7: each case runs the agent's hooks as processes, through its adapter.
  'test/properties/agent-edge-claude-code.test.ts',
  'test/properties/agent-edge-codex.test.ts',
  'test/properties/agent-edge-gemini.test.ts',
  'test/properties/agent-edge-cursor.test.ts',
  'test/properties/agent-edge-copilot.test.ts',
  'test/cli/agent-edges.test.ts',
  // An install's whole life (issue 39): many real installs, daemons and copied checkouts each.
  'test/cli/native-client-agents.test.ts',
  'test/cli/installation-removed.test.ts',
  'test/cli/install-lifecycle.test.ts',
  'test/scripts/build-swap.test.ts',
];
