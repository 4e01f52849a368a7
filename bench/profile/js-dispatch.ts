// Profile driver (not a scenario of `npm run bench`): N dispatches of one JS hook at a concurrency,
// reporting CPU per dispatch per thread (from /proc: robust to a busy machine, unlike wall time).
// Run under `--cpu-prof` for profiles of the main thread and each worker, then summarise them with
// bench/profile/summarize.ts. Reproduce the figures in bench/README.md:
//   node --cpu-prof --cpu-prof-dir=/tmp/p dist/bench/profile/js-dispatch.js trivial 10000 1
//   node dist/bench/profile/summarize.js /tmp/p/*.cpuprofile
// `wasm` instead of `trivial` dispatches the trivial wasm hook (bench/wasm/trivial.wasm, issue 40).
// `HOOKWARDEN_BENCH_BEFORE=<another checkout>/bin/hookwarden` profiles that build instead.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createExecutor } from '../../src/index.js';
import { TRIVIAL_HOOK } from '../../src/measure/baselines.js';
import { beforeBuild } from '../builds.js';
import { BENCH_INPUT } from '../harness.js';
import { POLICY_HOOK } from '../policy-hook.js';

const [which = 'trivial', n = '10000', concurrency = '1'] = process.argv.slice(2);
const before = await beforeBuild();
const create = before?.create ?? createExecutor;
const code = which === 'policy' ? POLICY_HOOK : TRIVIAL_HOOK;
const wasmDir = fileURLToPath(new URL('../../../bench/wasm/', import.meta.url));
const executor = await create({
  config: {
    hooks: {
      BeforeTool: [
        { hooks: [which === 'wasm' ? { type: 'wasm', source: 'trivial.wasm' } : { type: 'js', code }] },
      ],
    },
  },
  ...(which === 'wasm' ? { root: wasmDir } : {}),
  onWarning: () => {},
});

/** CPU time (ms) of each thread of this process, by thread id. */
function threadCpu(): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(Number(tid), (Number(f[11]) + Number(f[12])) * 10);
    } catch {}
  }
  return out;
}

const dispatches = async (count: number) => {
  let next = 0;
  await Promise.all(
    Array.from({ length: Number(concurrency) }, async () => {
      while (next++ < count) await executor.dispatch('BeforeTool', BENCH_INPUT);
    }),
  );
};
await dispatches(3000);
const cpu0 = threadCpu();
const t0 = performance.now();
const N = Number(n);
await dispatches(N);
const wall = performance.now() - t0;
const per: string[] = [];
let total = 0;
for (const [tid, ms] of threadCpu()) {
  const us = ((ms - (cpu0.get(tid) ?? 0)) * 1000) / N;
  total += us;
  if (us >= 1) per.push(`${tid === process.pid ? 'main' : `thread ${tid}`} ${us.toFixed(1)}`);
}
console.log(
  `${before?.label ?? 'this build'}, ${which} hook, c${concurrency}: ${((wall * 1000) / N).toFixed(1)} µs wall per dispatch (${Math.round((N / wall) * 1000)}/s); CPU per dispatch ${total.toFixed(1)} µs: ${per.join(', ')}`,
);
await executor.close();
