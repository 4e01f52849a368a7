// Profile driver (not a scenario of `npm run bench`): `hookwarden serve` under the serve scenario's
// flood (one tenant at concurrency 32, each dispatch a `sleep 0.2` command hook, no tenant limits)
// beside a quiet tenant's /bin/true command hooks at concurrency 4, for a fixed time, with the server
// under --cpu-prof. Prints the quiet tenant's p50/p99 and where the profile went; summarise it with
// bench/cpuprofile-summary.ts. `HOOKWARDEN_BENCH_BEFORE=<another checkout>/bin/hookwarden` profiles
// that build's server instead; HOOKWARDEN_PROFILE_STORM=1 makes the flood a retry storm (300
// clients, each retrying 50 ms after every 429).
//   node dist/bench/profile/serve-flood.js /tmp/prof-after 20
//   node dist/bench/cpuprofile-summary.js /tmp/prof-after/*.cpuprofile
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { newToken } from '../../src/server/tokens.js';
import { fmt, stats } from '../harness.js';
import { flood, load, post, startProcess, storm } from '../serve-client.js';

const [outDir = '/tmp/hw-prof-serve', seconds = '20'] = process.argv.slice(2);
const BIN =
  process.env.HOOKWARDEN_BENCH_BEFORE || fileURLToPath(new URL('../../../bin/hookwarden', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'hw-prof-serve-'));
const tenants = {
  quiet: { hooks: { BeforeTool: [{ hooks: [{ type: 'command', argv: ['/bin/true'] }] }] } },
  flood: { hooks: { BeforeTool: [{ hooks: [{ type: 'command', argv: ['/bin/sleep', '0.2'] }] }] } },
};
const tokens = { quiet: newToken({ tenant: 'quiet' }), flood: newToken({ tenant: 'flood' }) };
writeFileSync(join(dir, 'hooks.json'), JSON.stringify({ tenants }));
writeFileSync(join(dir, 'auth.json'), JSON.stringify({ tokens: [tokens.quiet.entry, tokens.flood.entry] }), {
  mode: 0o600,
});
mkdirSync(outDir, { recursive: true });
const server = await startProcess([
  '--cpu-prof',
  `--cpu-prof-dir=${resolve(outDir)}`,
  BIN,
  'serve',
  '-c',
  join(dir, 'hooks.json'),
  '--listen',
  '127.0.0.1:0',
  '--auth',
  join(dir, 'auth.json'),
]);
const quietPool = new Pool(server.url, { connections: 4 });
// HOOKWARDEN_PROFILE_STORM=1: the flood is a retry storm instead (300 clients, 50 ms after every 429).
const STORM = process.env.HOOKWARDEN_PROFILE_STORM === '1';
const floodPool = new Pool(server.url, { connections: STORM ? 300 : 32 });
try {
  let stop!: () => void;
  const stopped = new Promise<void>((r) => (stop = r));
  const flooding = STORM
    ? storm(() => post(floodPool, tokens.flood.token), 300, 50, stopped)
    : flood(() => post(floodPool, tokens.flood.token), 32, stopped);
  const until = performance.now() + Number(seconds) * 1000;
  const samples: number[] = [];
  while (performance.now() < until)
    samples.push(...(await load(() => post(quietPool, tokens.quiet.token), 200, 4)));
  stop();
  const f = await flooding;
  const s = stats(samples);
  process.stdout.write(
    `${BIN}: quiet /bin/true p50 ${fmt(s.p50)} ms, p99 ${fmt(s.p99)} ms (${s.n} dispatches); flood ${f.done} done, ${f.refused} refused; profile in ${outDir}\n`,
  );
} finally {
  await Promise.all([quietPool.close(), floodPool.close()]);
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
