// Summarises a V8 .cpuprofile (node --cpu-prof): the top functions by self time, and the share of
// samples spent in process spawning (fork/spawn inside child_process) and in garbage collection.
//   node dist/bench/cpuprofile-summary.js <file.cpuprofile> [top=15]
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, topArg] = process.argv.slice(2);
if (file === undefined) {
  process.stderr.write('usage: node dist/bench/cpuprofile-summary.js <file.cpuprofile> [top]\n');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const self = new Map<number, number>();
for (const [i, id] of profile.samples.entries())
  self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
const total = [...self.values()].reduce((a, b) => a + b, 0);

const label = (n: ProfileNode) => {
  const f = n.callFrame;
  const where =
    f.url === '' ? '' : ` ${f.url.replace(/^.*\/(node_modules|dist)\//, '$1/')}:${f.lineNumber + 1}`;
  return `${f.functionName || '(anonymous)'}${where}`;
};
const perFunction = new Map<string, number>();
for (const [id, t] of self) {
  const key = label(byId.get(id)!);
  perFunction.set(key, (perFunction.get(key) ?? 0) + t);
}
/** Self time of samples with a frame matching `re` on their stack. */
const under = (re: RegExp) => {
  let t = 0;
  for (const [id, time] of self) {
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      if (re.test(byId.get(cur)!.callFrame.functionName)) {
        t += time;
        break;
      }
    }
  }
  return t;
};
const pct = (t: number) => `${((100 * t) / total).toFixed(1)}%`;
const idle = perFunction.get('(idle)') ?? 0;
process.stdout.write(`samples: ${(total / 1e6).toFixed(2)} s, idle ${pct(idle)}\n`);
process.stdout.write(
  `under ChildProcess.spawn (fork+exec on this thread): ${pct(under(/^(spawn|ChildProcess\.spawn)$/))}\n`,
);
process.stdout.write(`garbage collector: ${pct(perFunction.get('(garbage collector)') ?? 0)}\n`);
process.stdout.write(`top ${topArg ?? 15} by self time:\n`);
for (const [name, t] of [...perFunction].sort((a, b) => b[1] - a[1]).slice(0, Number(topArg ?? 15)))
  process.stdout.write(`  ${pct(t).padStart(6)}  ${name}\n`);
