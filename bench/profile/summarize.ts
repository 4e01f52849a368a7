// Summarises V8 .cpuprofile files (from `--cpu-prof`): self time by bucket (postMessage and structured
// clone, QuickJS, Piscina, zod, hookwarden's stages, GC…) and the top functions. The samples are
// wall-clock: on a busy machine a thread's time off the CPU lands on whatever it was running, so read
// shares, and take CPU totals from bench/profile/js-dispatch.ts.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const BUCKETS: [string, (n: ProfileNode['callFrame']) => boolean][] = [
  ['idle', (f) => f.functionName === '(idle)'],
  ['GC', (f) => f.functionName === '(garbage collector)'],
  ['VM (program)', (f) => f.functionName === '(program)'],
  [
    'postMessage / structured clone',
    (f) => f.url === '' && /postMessage|serialize|deserialize/i.test(f.functionName),
  ],
  ['QuickJS (wasm)', (f) => f.url.startsWith('wasm://') || /^wasm-function/.test(f.functionName)],
  ['emscripten glue', (f) => f.url.includes('emscripten-module')],
  ['quickjs-emscripten-core', (f) => f.url.includes('quickjs-emscripten-core')],
  ['piscina', (f) => f.url.includes('piscina')],
  ['zod', (f) => f.url.includes('/zod/') || (f.url === '' && f.functionName === '')],
  ['hookwarden sandbox/js', (f) => f.url.includes('/sandbox/js/')],
  ['hookwarden contract', (f) => f.url.includes('/src/contract/')],
  ['hookwarden dispatch', (f) => f.url.includes('/src/dispatch/')],
  ['hookwarden pool', (f) => f.url.includes('/src/pool/')],
  ['hookwarden other', (f) => f.url.includes('/src/')],
  ['node internals', (f) => f.url.startsWith('node:')],
  ['other', () => true],
];

for (const file of process.argv.slice(2)) {
  const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  for (const [i, id] of p.samples.entries()) self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0));
  const buckets = new Map<string, number>();
  const fns = new Map<string, number>();
  let busy = 0;
  for (const [id, t] of self) {
    const f = byId.get(id)!.callFrame;
    const bucket = BUCKETS.find(([, test]) => test(f))![0];
    if (bucket === 'idle') continue;
    busy += t;
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + t);
    const k = `${f.functionName || '(anonymous)'} ${basename(f.url)}:${f.lineNumber}`;
    fns.set(k, (fns.get(k) ?? 0) + t);
  }
  const pct = (t: number) => `${((100 * t) / busy).toFixed(1).padStart(5)}%`;
  console.log(`\n${basename(file)}: busy ${(busy / 1000).toFixed(0)} ms`);
  for (const [b, t] of [...buckets].sort((a, b) => b[1] - a[1])) console.log(`  ${pct(t)}  ${b}`);
  console.log('  top functions (self):');
  for (const [k, t] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`    ${pct(t)}  ${k}`);
}
