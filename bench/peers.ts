// Peer comparison: the same trivial hook (deny `rm`, allow the rest) through hookwarden, as a
// per-call `node hook.js` process (what command-hook systems do today), and through the
// @sebastianwessel/quickjs sandbox library, used as its docs recommend: loadQuickJs() once (warm),
// then runSandboxed() per call with the hook mounted as a file and the input in `env`. It runs on
// the same QuickJS build hookwarden uses (bellard's release-sync), with the same limits, so the
// difference is the machinery around the engine. Reference in the same run: an in-thread fresh
// QuickJS runtime+context evaluation with no library at all.
import RELEASE_SYNC_IMPORT from '@jitl/quickjs-wasmfile-release-sync';
import { loadQuickJs } from '@sebastianwessel/quickjs';
import type { QuickJSSyncVariant } from 'quickjs-emscripten-core';
import { createExecutor } from '../src/index.js';
import { createQuickJsEval, TRIVIAL_HOOK } from '../src/measure/baselines.js';
import { fmt, interleavedLatency, nodeHookProcess, type ScenarioReport } from './harness.js';

// The variant's types describe its CommonJS build; Node's ESM build exports the variant itself.
const RELEASE_SYNC = ((RELEASE_SYNC_IMPORT as { default?: QuickJSSyncVariant }).default ??
  RELEASE_SYNC_IMPORT) as QuickJSSyncVariant;

const inputFor = (toolName: string) => ({
  sessionId: 's',
  cwd: '/',
  timestamp: '2026-11-29T00:00:00Z',
  toolName,
  toolInput: { command: 'ls' },
});
const input = inputFor('Bash');

const HOOKWARDEN = 'hookwarden dispatch, JS hook';
const NODE = 'per-call `node hook.js` process';
const LIBRARY = '@sebastianwessel/quickjs runSandboxed, warm';
const RAW = 'in-thread fresh QuickJS eval, no library (reference)';

async function peerLibrary(): Promise<(payload: object) => Promise<unknown>> {
  const { runSandboxed } = await loadQuickJs(RELEASE_SYNC);
  const code = "import hook from './hook.js'\nexport default hook(env.input)";
  return async (payload) => {
    const r = await runSandboxed(({ evalCode }) => evalCode(code), {
      mountFs: { src: { 'hook.js': TRIVIAL_HOOK } },
      env: { input: payload },
      executionTimeout: 5000,
      memoryLimit: 32 << 20,
      maxStackSize: 512 * 1024,
    });
    if (!r.ok) throw new Error(`@sebastianwessel/quickjs: ${r.error.name}: ${r.error.message}`);
    return r.data;
  };
}

export async function run(quick = false): Promise<ScenarioReport> {
  const library = await peerLibrary();
  const raw = await createQuickJsEval(input);
  const executor = await createExecutor({
    config: { hooks: { BeforeTool: [{ hooks: [{ type: 'js', code: TRIVIAL_HOOK }] }] } },
    onWarning: () => {},
  });
  try {
    // Every peer must give the same answers before it is timed.
    for (const [tool, expected] of [
      ['rm', 'deny'],
      ['Bash', 'allow'],
    ] as const) {
      const answers = {
        [HOOKWARDEN]: (await executor.dispatch('BeforeTool', inputFor(tool))).decision,
        [NODE]: (await nodeHookProcess(inputFor(tool))).decision,
        [LIBRARY]: ((await library(inputFor(tool))) as { decision?: string } | undefined)?.decision,
      };
      for (const [peer, got] of Object.entries(answers))
        if (got !== expected) throw new Error(`${peer} answered ${got} for ${tool}, expected ${expected}`);
    }
    const fast = await interleavedLatency(
      {
        [HOOKWARDEN]: () => executor.dispatch('BeforeTool', input),
        [LIBRARY]: () => library(input),
        [RAW]: raw,
      },
      { warmup: quick ? 3 : 200, iterations: quick ? 10 : 2000 },
    );
    const slow = await interleavedLatency(
      { [HOOKWARDEN]: () => executor.dispatch('BeforeTool', input), [NODE]: () => nodeHookProcess(input) },
      { warmup: quick ? 1 : 5, iterations: quick ? 3 : 60 },
    );
    const ours = fast[HOOKWARDEN]!.p50;
    const rows = [
      ...[HOOKWARDEN, LIBRARY, RAW].map((k) => [k, fast[k]!, fast[k]!.p50 / ours] as const),
      [NODE, slow[NODE]!, slow[NODE]!.p50 / slow[HOOKWARDEN]!.p50] as const,
    ].map(([k, s, ratio]) => `| ${k} | ${fmt(s.p50)} | ${fmt(s.p90)} | ${fmt(s.p99)} | ${fmt(ratio, 2)}× |`);
    const libRatio = fast[LIBRARY]!.p50 / ours;
    const nodeRatio = slow[NODE]!.p50 / slow[HOOKWARDEN]!.p50;
    return {
      title: 'Peers: the same hook through hookwarden, `node hook.js` and @sebastianwessel/quickjs',
      markdown: [
        '| variant | p50 ms | p90 ms | p99 ms | p50 vs hookwarden |',
        '|---|---|---|---|---|',
        ...rows,
        '',
        `The \`node hook.js\` row is timed in its own interleaved run against hookwarden (its ratio is to that run's hookwarden p50, ${fmt(slow[HOOKWARDEN]!.p50)} ms). @sebastianwessel/quickjs runs on the calling thread with the same QuickJS build and limits; each call gets a fresh context, a virtual file system and its Node-compatibility globals.`,
      ].join('\n'),
      goals: [
        `@sebastianwessel/quickjs (warm) p50 vs hookwarden: ${fmt(libRatio, 2)}× (reported, no goal)`,
        `per-call node process p50 vs hookwarden: ${fmt(nodeRatio, 1)}× (reported, no goal)`,
      ],
    };
  } finally {
    await executor.close();
  }
}
