// `npm run bench`: runs every scenario (or those named: `npm run bench -- fast-path`) and rewrites
// bench/README.md with the tables. `--quick` runs a tiny smoke version and writes nothing.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { machine, type ScenarioReport } from './harness.js';

const SCENARIOS: Record<string, () => Promise<{ run: (quick?: boolean) => Promise<ScenarioReport> }>> = {
  'fast-path': () => import('./fast-path.js'),
  'command-hook': () => import('./command-hook.js'),
  'namespace-hook': () => import('./namespace-hook.js'),
  'contained-hook': () => import('./contained-hook.js'),
  'fork-bomb': () => import('./fork-bomb.js'),
  'namespace-cpu': () => import('./namespace-cpu.js'),
  'js-hook': () => import('./js-hook.js'),
  'js-cold-warm': () => import('./js-cold-warm.js'),
  'js-chain': () => import('./js-chain.js'),
  'js-memory': () => import('./js-memory.js'),
  'wasm-hook': () => import('./wasm-hook.js'),
  'tenants-mixed': () => import('./tenants-mixed.js'),
  'mixed-load': () => import('./mixed-load.js'),
  peers: () => import('./peers.js'),
  'cli-startup': () => import('./cli-startup.js'),
  regex: () => import('./regex.js'),
  'url-pin': () => import('./url-pin.js'),
  'http-hook': () => import('./http-hook.js'),
  serve: () => import('./serve.js'),
  'serve-storm': () => import('./serve-storm.js'),
  traces: () => import('./traces.js'),
  'async-hook': () => import('./async-hook.js'),
  'async-replicas': () => import('./async-replicas.js'),
  'async-failover': () => import('./async-failover.js'),
  'claude-code-adapter': () => import('./claude-code-adapter.js'),
  'session-replay': () => import('./session-replay.js'),
  'claude-code-client': () => import('./claude-code-client.js'),
  'agent-client': () => import('./agent-client.js'),
};

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const names = args.filter((a) => !a.startsWith('--'));
const selected = names.length > 0 ? names : Object.keys(SCENARIOS);
for (const n of selected)
  if (!(n in SCENARIOS))
    throw new Error(`unknown scenario "${n}"; known: ${Object.keys(SCENARIOS).join(', ')}`);

const reports: ScenarioReport[] = [];
for (const name of selected) {
  process.stderr.write(`bench: ${name}…\n`);
  const report = await (await SCENARIOS[name]!()).run(quick);
  reports.push(report);
  process.stderr.write(`${report.markdown}\n${report.goals.map((g) => `  goal: ${g}`).join('\n')}\n\n`);
}

if (!quick && names.length === 0) {
  const header = [
    '# Benchmarks',
    '',
    'Latest results of `npm run bench` (it rebuilds and rewrites this file; `npm run bench -- <scenario>` runs one',
    'without writing). Every scenario measures its baselines in the same process and run, interleaved with the',
    'variants (round-robin, rotating which goes first); latencies are medians (p50) with p90/p99, throughputs',
    'medians of interleaved blocks; percentiles are nearest-rank, as `hookwarden bench` reads them (`src/measure/quantile.ts`).',
    'The machine is shared and noisy: compare ratios within a table, not across runs.',
    '',
    `Machine: ${machine()}`,
    '',
  ].join('\n');
  const body = reports
    .map((r) => `## ${r.title}\n\n${r.markdown}\n\n${r.goals.map((g) => `- ${g}`).join('\n')}\n`)
    .join('\n');
  const out = fileURLToPath(new URL('../../bench/README.md', import.meta.url));
  writeFileSync(out, `${header}\n${body}`);
  process.stderr.write(`bench: wrote ${out}\n`);
}
