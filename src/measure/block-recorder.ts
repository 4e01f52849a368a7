// Per-block medians of a bench run. A run alternates baseline blocks and dispatch blocks; each block
// gets its own small histograms, summarised when it ends. The block medians are what `bench compare`
// tests for significance, what the over-time strip of the report draws, and what the variance
// warnings read.
import { BASELINE_NAMES, type BaselineName } from './baselines.js';
import type { BlockSummary } from './bench-result.js';
import { Histogram } from './histogram.js';

const ms = (v: number) => Math.round(v * 10_000) / 10_000;
const p50 = (h: Histogram) => ms(h.valueAtQuantile(0.5));

class Block {
  readonly overall = new Histogram();
  readonly hooks = new Map<string, Histogram>();
  readonly tenants = new Map<string, Histogram>();
  readonly events = new Map<string, Histogram>();
  readonly baselines = new Map<BaselineName, Histogram>(BASELINE_NAMES.map((n) => [n, new Histogram()]));
}

function add(map: Map<string, Histogram>, key: string, value: number): void {
  let h = map.get(key);
  if (h === undefined) {
    h = new Histogram();
    map.set(key, h);
  }
  h.record(value);
}

export class BlockRecorder {
  readonly #done: BlockSummary[] = [];
  #current: Block | undefined;

  /** Starts a block (before its baseline samples). */
  start(): void {
    this.#current = new Block();
  }

  dispatch(elapsedMs: number, tenant: string | undefined, event?: string): void {
    const b = this.#current;
    if (b === undefined) return;
    b.overall.record(elapsedMs);
    if (tenant !== undefined) add(b.tenants, tenant, elapsedMs);
    if (event !== undefined) add(b.events, event, elapsedMs);
  }

  hook(id: string, latencyMs: number): void {
    if (this.#current !== undefined) add(this.#current.hooks, id, latencyMs);
  }

  baseline(name: BaselineName, elapsedMs: number): void {
    const h = this.#current?.baselines.get(name);
    h?.record(elapsedMs);
  }

  /**
   * Ends the block: `atMs` is when its dispatch block started, `durationMs` how long it took,
   * `cpuWait` the share of it the main thread waited for a CPU (null: unknown).
   */
  end(atMs: number, durationMs: number, cpuWait: number | null = null): void {
    const b = this.#current;
    if (b === undefined) return;
    this.#current = undefined;
    const perHook: Record<string, number> = Object.create(null);
    for (const [id, h] of b.hooks) perHook[id] = p50(h);
    const block: BlockSummary = {
      atMs: ms(atMs),
      durationMs: ms(durationMs),
      dispatches: b.overall.count,
      overall: {
        p50: p50(b.overall),
        p90: ms(b.overall.valueAtQuantile(0.9)),
        p99: ms(b.overall.valueAtQuantile(0.99)),
      },
      perHook,
      baselines: Object.fromEntries(BASELINE_NAMES.map((n) => [n, p50(b.baselines.get(n)!)])) as Record<
        BaselineName,
        number
      >,
    };
    if (cpuWait !== null) block.cpuWait = cpuWait;
    if (b.tenants.size > 0) {
      const perTenant: Record<string, number> = Object.create(null);
      for (const [id, h] of b.tenants) perTenant[id] = p50(h);
      block.perTenant = perTenant;
    }
    if (b.events.size > 0) {
      const perEvent: Record<string, number> = Object.create(null);
      for (const [id, h] of b.events) perEvent[id] = p50(h);
      block.perEvent = perEvent;
    }
    this.#done.push(block);
  }

  get blocks(): BlockSummary[] {
    return [...this.#done];
  }
}
