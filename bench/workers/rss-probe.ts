// Run as a process of its own by bench/js-hook.ts, so nothing else the bench made weighs on it: the
// process RSS after the first 1,000 JS dispatches and after N (64 in flight), printed as JSON.
// `echo` measures a Piscina echo pool the same way (what any worker-pool design weighs), `before`
// the build named by HOOKWARDEN_BENCH_BEFORE, `wasm <n> <module.wasm>` a wasm hook (bench/wasm-hook.ts).
import { availableParallelism } from 'node:os';
import { basename, dirname } from 'node:path';
import { createExecutor } from '../../src/index.js';
import { createEchoPool, TRIVIAL_HOOK } from '../../src/measure/baselines.js';
import { beforeBuild } from '../builds.js';
import { BENCH_INPUT } from '../harness.js';

const [kind = 'hookwarden', n = '100000', module] = process.argv.slice(2);
let call: () => Promise<unknown>;
let close: () => Promise<unknown>;
if (kind === 'echo') {
  const pool = createEchoPool(availableParallelism());
  call = () => pool.run(BENCH_INPUT);
  close = () => pool.destroy();
} else if (kind === 'wasm') {
  const executor = await createExecutor({
    root: dirname(module!),
    config: { hooks: { BeforeTool: [{ hooks: [{ type: 'wasm', source: basename(module!) }] }] } },
    onWarning: () => {},
  });
  call = () => executor.dispatch('BeforeTool', BENCH_INPUT);
  close = () => executor.close();
} else {
  const create = kind === 'before' ? (await beforeBuild())!.create : createExecutor;
  const executor = await create({
    config: { hooks: { BeforeTool: [{ hooks: [{ type: 'js', code: TRIVIAL_HOOK }] }] } },
    onWarning: () => {},
  });
  call = () => executor.dispatch('BeforeTool', BENCH_INPUT);
  close = () => executor.close();
}
const runs = async (count: number) => {
  for (let done = 0; done < count; ) {
    const batch = Math.min(64, count - done);
    await Promise.all(Array.from({ length: batch }, call));
    done += batch;
  }
};
await runs(1000);
const rss1k = process.memoryUsage().rss;
await runs(Number(n) - 1000);
const rssN = process.memoryUsage().rss;
await close();
process.stdout.write(`${JSON.stringify({ rss1k, rssN })}\n`);
