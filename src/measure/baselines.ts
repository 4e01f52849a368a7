// The floors a hook's cost is measured against, run in the same process as the dispatches they are
// compared with: a raw Piscina round trip (what any worker-pool design pays), a raw
// spawn('/bin/true') (what any command hook pays), and an in-thread fresh QuickJS runtime+context
// evaluation of a trivial hook (what a fresh isolate per call pays, without any pool).

import { spawn } from 'node:child_process';
import { Piscina } from 'piscina';
import { createQuickJsModule } from '../../sandbox/js/quickjs-module.js';
import { destroyWhenLoaded } from '../pool/destroy-piscina.js';
import { findWorkerFile } from '../pool/piscina-pool.js';
import { evalFresh } from './fresh-eval.js';

/** The hook every baseline and peer comparison runs: deny `rm`, allow anything else. */
export const TRIVIAL_HOOK =
  "export default function (input) { return { decision: input.toolName === 'rm' ? 'deny' : 'allow' } }";

export type BaselineName = 'piscinaEcho' | 'spawnTrue' | 'quickJsEval';

export const BASELINE_NAMES: readonly BaselineName[] = ['piscinaEcho', 'spawnTrue', 'quickJsEval'];

/** Human labels of the baselines (CLI table, HTML report, bench/README.md). */
export const BASELINE_LABELS: Readonly<Record<BaselineName, string>> = {
  piscinaEcho: 'Piscina echo round trip',
  spawnTrue: "raw spawn('/bin/true')",
  quickJsEval: 'in-thread fresh QuickJS eval',
};

/** Spawns /bin/true and resolves when it has exited and its pipes closed. */
export function spawnTrue(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/true');
    child.on('error', reject);
    child.on('close', () => resolve());
  });
}

/** The built echo worker (dist/ when running from sources, as under vitest, or from the CLI bundle). */
function echoWorkerFile(): string {
  return findWorkerFile('src/measure', 'echo-worker.js', 'the bench echo worker');
}

/** A Piscina pool of `threads` echo workers; the caller destroys it. */
export function createEchoPool(threads = 1): Piscina {
  return new Piscina({
    filename: echoWorkerFile(),
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: 60_000,
  });
}

/**
 * Returns a function that evaluates `code` (an ES module with a default-export function) on the
 * calling thread in a fresh QuickJS runtime and context, calls it with `input`, and returns its
 * JSON answer — with the same limits hookwarden sets (32 MiB, 512 KiB stack, a deadline).
 */
export async function createQuickJsEval(
  input: unknown,
  code: string = TRIVIAL_HOOK,
): Promise<() => Promise<unknown>> {
  const qjs = await createQuickJsModule(128 << 20);
  const json = JSON.stringify(input);
  return async () => evalFresh(qjs.module, code, json);
}

/** The three baselines, ready to run one call at a time. */
export interface Baselines {
  readonly run: Readonly<Record<BaselineName, () => Promise<unknown>>>;
  /** Destroys the echo pool. */
  close(): Promise<void>;
}

/** Starts the baselines for `input` (the echo task and the QuickJS hook's input). */
export async function openBaselines(input: unknown): Promise<Baselines> {
  const pool = createEchoPool(1);
  try {
    const evalOnce = await createQuickJsEval(input);
    return {
      run: {
        piscinaEcho: () => pool.run(input),
        spawnTrue,
        quickJsEval: evalOnce,
      },
      close: async () => {
        await destroyWhenLoaded(pool, 1);
      },
    };
  } catch (err) {
    await destroyWhenLoaded(pool, 1);
    throw err;
  }
}
