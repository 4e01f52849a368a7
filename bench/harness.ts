// Shared benchmark harness: interleaved variants (the machine is shared and noisy), medians and
// percentiles, ratios to a baseline measured in the same run, and a markdown table writer.
import { execSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describeMachine } from '../src/bench/machine.js';

/** The HookInput every scenario dispatches (a Bash tool call), pinned for determinism. */
export const BENCH_INPUT = {
  sessionId: 's',
  cwd: '/',
  timestamp: '2026-11-29T00:00:00Z',
  toolName: 'Bash',
  toolInput: { command: 'ls' },
};

export interface Stats {
  n: number;
  p50: number;
  p90: number;
  p99: number;
  mean: number;
}

export function stats(samples: number[]): Stats {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
  return {
    n: s.length,
    p50: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
    mean: s.reduce((a, b) => a + b, 0) / s.length,
  };
}

export type Variant = () => Promise<unknown>;

/**
 * Latency of each variant, one call at a time, round-robin so that drift and noise hit every variant
 * alike. Returns per-variant stats in milliseconds.
 */
export async function interleavedLatency(
  variants: Record<string, Variant>,
  options: { warmup: number; iterations: number },
): Promise<Record<string, Stats>> {
  const names = Object.keys(variants);
  for (let i = 0; i < options.warmup; i++) for (const n of names) await variants[n]!();
  const samples: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let i = 0; i < options.iterations; i++) {
    // Rotate the starting variant so none always runs first.
    for (let k = 0; k < names.length; k++) {
      const n = names[(i + k) % names.length]!;
      const t = performance.now();
      await variants[n]!();
      samples[n]!.push(performance.now() - t);
    }
  }
  return Object.fromEntries(names.map((n) => [n, stats(samples[n]!)]));
}

/** Throughput (ops/s) of each variant, in interleaved blocks; returns the median block rate. */
export async function interleavedThroughput(
  variants: Record<string, () => Promise<unknown>>,
  options: { blockOps: number; blocks: number; concurrency?: number },
): Promise<Record<string, { median: number; min: number; max: number }>> {
  const names = Object.keys(variants);
  const rates: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  const c = options.concurrency ?? 1;
  const block = async (fn: () => Promise<unknown>) => {
    let next = 0;
    const worker = async () => {
      while (next < options.blockOps) {
        next++;
        await fn();
      }
    };
    const t = performance.now();
    await Promise.all(Array.from({ length: c }, worker));
    return options.blockOps / ((performance.now() - t) / 1000);
  };
  for (const n of names) await block(variants[n]!); // warm-up block
  for (let b = 0; b < options.blocks; b++) {
    for (let k = 0; k < names.length; k++) {
      const n = names[(b + k) % names.length]!;
      rates[n]!.push(await block(variants[n]!));
    }
  }
  return Object.fromEntries(
    names.map((n) => {
      const s = [...rates[n]!].sort((a, b) => a - b);
      return [n, { median: s[Math.floor(s.length / 2)]!, min: s[0]!, max: s[s.length - 1]! }];
    }),
  );
}

export function machine(): string {
  let commit = 'unknown';
  try {
    commit = execSync('git rev-parse --short HEAD', {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    const dirty = execSync('git status --porcelain -- src sandbox', {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    if (dirty !== '') commit += '+dirty';
  } catch {}
  const m = describeMachine();
  return `${m.cpus} × ${m.cpuModel}, Node ${m.node}, ${m.platform}/${m.arch}, commit ${commit}, ${new Date().toISOString().slice(0, 16)}Z`;
}

export const fmt = (n: number, digits = 3) => n.toFixed(digits);
export const fmtRate = (n: number) => Math.round(n).toLocaleString('en-US');

/** One scenario's result: a markdown section for bench/README.md. */
export interface ScenarioReport {
  title: string;
  markdown: string;
  /** Goal lines like "p50 ratio 1.31× ≤ 1.5× — met". */
  goals: string[];
}

// tsc does not copy .mjs files: from dist/bench/ the worker is found in the source tree.
const NODE_HOOK = [
  new URL('./workers/hook.mjs', import.meta.url),
  new URL('../../bench/workers/hook.mjs', import.meta.url),
]
  .map((u) => fileURLToPath(u))
  .find((p) => existsSync(p));

/**
 * The trivial hook as a per-call `node hook.js` process (what command-hook systems do today): the
 * input on stdin, the answer parsed from stdout. Rejects on a non-zero exit, so a broken setup
 * cannot pass for a measurement.
 */
export function nodeHookProcess(input: object): Promise<{ decision?: string }> {
  if (NODE_HOOK === undefined) return Promise.reject(new Error('bench/workers/hook.mjs not found'));
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, [NODE_HOOK]);
    let out = '';
    let err = '';
    c.stdout.on('data', (d) => (out += d));
    c.stderr.on('data', (d) => (err += d));
    c.on('error', reject);
    c.on('close', (code) => {
      if (code === 0) resolve(JSON.parse(out));
      else reject(new Error(`node hook.mjs exited ${code}: ${err.trim().split('\n')[0]}`));
    });
    c.stdin.end(JSON.stringify(input));
  });
}

/**
 * Runs one process to its end; rejects on an exit code other than `expectCode` (default 0) so a
 * broken setup cannot pass for a figure. `stdin` is written to it (default: none, /dev/null);
 * `file` is the program (default: this node); `env` its environment (default: this process's).
 */
export function runProcess(
  argv: readonly string[],
  options: { stdin?: string; expectCode?: number; file?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(options.file ?? process.execPath, argv, {
      stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'ignore', 'pipe'],
      ...(options.env === undefined ? {} : { env: options.env }),
    });
    let stderr = '';
    child.stderr?.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === (options.expectCode ?? 0)) resolve();
      else reject(new Error(`${argv.join(' ')} exited ${code}: ${stderr.trim().split('\n')[0]}`));
    });
    // A program that exits without reading its input (the hook alone: /bin/true) is no failure.
    child.stdin?.on('error', () => {});
    child.stdin?.end(options.stdin);
  });
}
