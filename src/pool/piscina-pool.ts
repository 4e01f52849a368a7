// The Piscina side of the QuickJS lane: where the built worker file is, how idle workers are picked,
// and the pool's options. Piscina is loaded when the first pool is made: a process that never runs a
// JS hook (a one-shot CLI dispatch of command hooks) does not pay for loading it.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Piscina } from 'piscina';
import { DEFAULTS } from '../config/defaults.js';

type LoadBalancer = NonNullable<NonNullable<ConstructorParameters<typeof Piscina>[0]>['loadBalancer']>;

/** Piscina is CommonJS: a synchronous require keeps pool creation synchronous. */
const loadPiscina = (): typeof Piscina =>
  (createRequire(import.meta.url)('piscina') as { Piscina: typeof Piscina }).Piscina;

/**
 * A built worker module (`dist/<dir>/<name>.js`), from wherever this code runs: dist/src/<stage>/,
 * the sources under vitest (src/<stage>/), or the CLI bundle (dist/cli/bundle/).
 */
export function findWorkerFile(dir: string, name: string, what: string): string {
  const candidates = [
    new URL(`../../${dir}/${name}`, import.meta.url),
    new URL(`../../dist/${dir}/${name}`, import.meta.url),
  ];
  const found = candidates.find((u) => existsSync(fileURLToPath(u)));
  if (found === undefined) throw new Error(`${what} is not built: run \`npm run build\``);
  return found.href;
}

/**
 * The idle worker used most recently: at low load one thread stays warm (its caches, its place on a
 * core), which measured ~15–20% less latency per JS dispatch than alternating threads. A worker puts
 * its last hook's image back right after answering, so whichever is picked is ready.
 */
function mostRecentlyUsed(): LoadBalancer {
  const used = new Map<number, number>();
  let clock = 0;
  return (_task, workers) => {
    let chosen: (typeof workers)[number] | null = null;
    for (const w of workers) {
      if (w.currentUsage !== 0 || w.terminating || w.destroyed) continue;
      if (chosen === null || (used.get(w.id) ?? 0) > (used.get(chosen.id) ?? 0)) chosen = w;
    }
    if (chosen !== null) {
      if (used.size > 256) used.clear();
      used.set(chosen.id, ++clock);
    }
    return chosen;
  };
}

/** The QuickJS worker: its one-file bundle (faster for a thread to load), else the tsc output. */
function quickJsWorkerFile(): string {
  try {
    return findWorkerFile('sandbox/js/bundle', 'worker.js', 'the bundled QuickJS worker');
  } catch {
    return findWorkerFile('sandbox/js', 'worker.js', 'the QuickJS worker');
  }
}

/** A warm pool of QuickJS workers (sandbox/js/worker.ts), one task at a time per worker. */
export function createQuickJsPool(options: {
  threads: number;
  heapCeilingBytes: number;
  specCapacity?: number | undefined;
}): Piscina {
  const { piscina } = DEFAULTS;
  return new (loadPiscina())({
    filename: quickJsWorkerFile(),
    minThreads: options.threads,
    maxThreads: options.threads,
    idleTimeout: piscina.idleTimeoutMs,
    concurrentTasksPerWorker: 1,
    loadBalancer: mostRecentlyUsed(),
    // The worker's event loop must run between tasks: it prepares the next sandbox while idle.
    atomics: 'disabled',
    workerData: {
      heapCeilingBytes: options.heapCeilingBytes,
      ...(options.specCapacity === undefined ? {} : { specCapacity: options.specCapacity }),
    },
    resourceLimits: {
      maxOldGenerationSizeMb: piscina.maxOldGenerationSizeMb,
      maxYoungGenerationSizeMb: piscina.maxYoungGenerationSizeMb,
      stackSizeMb: piscina.stackSizeMb,
    },
  });
}

/** A pool of wasm workers (sandbox/wasm/worker.ts), one batch at a time per worker. */
export function createWasmPool(options: { threads: number; progress: SharedArrayBuffer }): Piscina {
  const { piscina } = DEFAULTS;
  return new (loadPiscina())({
    filename: findWorkerFile('sandbox/wasm', 'worker.js', 'the wasm worker'),
    minThreads: options.threads,
    maxThreads: options.threads,
    idleTimeout: piscina.idleTimeoutMs,
    concurrentTasksPerWorker: 1,
    loadBalancer: mostRecentlyUsed(),
    // The worker zeroes the memories calls gave back while idle: its event loop must run.
    atomics: 'disabled',
    // The progress cells the lane's deadline timer reads (wasm-batch.ts).
    workerData: { progress: options.progress },
    resourceLimits: {
      maxOldGenerationSizeMb: piscina.maxOldGenerationSizeMb,
      // Small, as the QuickJS workers': measured 16 MB against 4 MB, the larger one only added RSS.
      maxYoungGenerationSizeMb: piscina.maxYoungGenerationSizeMb,
      stackSizeMb: piscina.stackSizeMb,
    },
  });
}
