// The builds a before/after scenario compares in one run, in one process: this build as it runs by
// default, this build with command hooks spawned by Node on the main thread (the fallback, forced
// with HOOKWARDEN_SPAWN_SERVER=off), and, when HOOKWARDEN_BENCH_BEFORE names another built
// checkout's bin/hookwarden, that build's executor (imported from its dist/).
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createExecutor, type Executor, type ExecutorOptions } from '../src/index.js';

export interface Build {
  readonly label: string;
  readonly create: (options: ExecutorOptions) => Promise<Executor>;
}

/** Runs `create` with HOOKWARDEN_SPAWN_SERVER set to `value` (read when an executor is created). */
async function withSpawnServer<T>(value: string | undefined, create: () => Promise<T>): Promise<T> {
  const saved = process.env.HOOKWARDEN_SPAWN_SERVER;
  if (value === undefined) delete process.env.HOOKWARDEN_SPAWN_SERVER;
  else process.env.HOOKWARDEN_SPAWN_SERVER = value;
  try {
    return await create();
  } finally {
    if (saved === undefined) delete process.env.HOOKWARDEN_SPAWN_SERVER;
    else process.env.HOOKWARDEN_SPAWN_SERVER = saved;
  }
}

/** The label of another checkout: HOOKWARDEN_BENCH_BEFORE_LABEL, else `before (<commit>)`. */
function beforeLabel(root: string): string {
  if (process.env.HOOKWARDEN_BENCH_BEFORE_LABEL) return process.env.HOOKWARDEN_BENCH_BEFORE_LABEL;
  try {
    const commit = execSync('git rev-parse --short HEAD', { cwd: root, encoding: 'utf8', stdio: 'pipe' });
    return `before (${commit.trim()})`;
  } catch {
    return 'before';
  }
}

/**
 * This build (spawn server), its Node-spawn fallback, and the before build if one is named;
 * HOOKWARDEN_BENCH_ONLY=<label> keeps one of them (e.g. to profile it alone).
 */
export async function builds(options: { fallback?: boolean } = {}): Promise<Build[]> {
  const only = process.env.HOOKWARDEN_BENCH_ONLY;
  const all = await allBuilds(options);
  if (only === undefined || only === '') return all;
  const kept = all.filter((b) => b.label === only);
  if (kept.length === 0)
    throw new Error(
      `HOOKWARDEN_BENCH_ONLY: no build "${only}"; known: ${all.map((b) => b.label).join(', ')}`,
    );
  return kept;
}

async function allBuilds(options: { fallback?: boolean }): Promise<Build[]> {
  const out: Build[] = [
    { label: 'spawn server', create: (o) => withSpawnServer(undefined, () => createExecutor(o)) },
  ];
  if (options.fallback !== false) {
    out.push({
      label: 'Node spawn (fallback)',
      create: (o) => withSpawnServer('off', () => createExecutor(o)),
    });
  }
  const before = await beforeBuild();
  if (before !== undefined) out.push(before);
  return out;
}

/**
 * The build named by `HOOKWARDEN_BENCH_BEFORE=<another checkout>/bin/hookwarden` (built: its library
 * is `dist/src/index.js` next to it), or undefined when none is named.
 */
export async function beforeBuild(): Promise<Build | undefined> {
  const bin = process.env.HOOKWARDEN_BENCH_BEFORE;
  if (bin === undefined || bin === '') return undefined;
  const root = dirname(dirname(bin));
  const index = join(root, 'dist', 'src', 'index.js');
  if (!existsSync(index))
    throw new Error(`HOOKWARDEN_BENCH_BEFORE: ${index} not found (build that checkout)`);
  const mod = (await import(pathToFileURL(index).href)) as { createExecutor: typeof createExecutor };
  return { label: beforeLabel(root), create: (o) => withSpawnServer(undefined, () => mod.createExecutor(o)) };
}
