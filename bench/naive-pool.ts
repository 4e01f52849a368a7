// The naive pool (bench/workers/naive-quickjs.ts): a Piscina pool whose workers create a fresh
// QuickJS runtime and context and evaluate the hook for every task. The comparison hookwarden must
// clearly beat: it keeps the same guarantee (fresh state per call) with a few lines of code.
import { Piscina } from 'piscina';
import { findWorkerFile } from '../src/pool/piscina-pool.js';

export interface NaivePool {
  run(code: string, input: unknown): Promise<unknown>;
  readonly pool: Piscina;
}

export function createNaivePool(threads: number): NaivePool {
  const pool = new Piscina({
    filename: findWorkerFile('bench/workers', 'naive-quickjs.js', 'the naive QuickJS bench worker'),
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: 60_000,
  });
  return { pool, run: (code, input) => pool.run({ code, inputJson: JSON.stringify(input) }) };
}
