// Prometheus metrics of the service (prom-client), on one registry per server. Label values are
// bounded: `event` is a catalogue name (only a dispatch that resolved its event is observed),
// `tenant` is a tenant the configuration names, `none` for a dispatch without a tenant (admin
// tokens, or no --auth) or `other` (a token's tenant that has no hooks of its own in the config);
// `decision`, `type`, `outcome` and `error_code` come from closed unions; `route` is a route
// pattern or `unmatched`. So no request can create a new series. Lane gauges are read from the pool
// when scraped, not kept up to date on every hook.
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { QueueStatus } from '../async/async-queue.js';
import type { DecisionLogStats } from '../audit/decision-log.js';
import type { DispatchResult } from '../contract/result.js';
import { tenantLabel } from '../contract/tenant-label.js';
import type { LaneLoad } from '../pool/lane.js';
import { decisionLogMetrics } from './decision-log-metrics.js';

/** What the gauges read at scrape time. */
export interface MetricsSource {
  /** Each lane's load (pool). */
  readonly load: () => { readonly command: LaneLoad; readonly js: LaneLoad };
  /** Tenants the configuration names (their own label value). */
  readonly tenants: () => ReadonlySet<string>;
  readonly inFlight: () => number;
  readonly draining: () => boolean;
  /** The async queue's status (Redis mode: reachable, failures). */
  readonly queue: () => QueueStatus;
  /** The decision-log sink's counts (undefined without one). */
  readonly decisionLog: () => DecisionLogStats | undefined;
}

/** Dispatch latency buckets, seconds: from a fast path (~50 µs) to a command hook's 60 s default deadline. */
const DISPATCH_BUCKETS = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60,
];

export class ServerMetrics {
  readonly registry = new Registry();
  readonly #source: MetricsSource;
  readonly #dispatchSeconds: Histogram<'event' | 'tenant' | 'decision'>;
  readonly #hooks: Counter<'type' | 'outcome' | 'error_code'>;
  readonly #requests: Counter<'route' | 'method' | 'status'>;
  readonly #reloads: Counter<'what' | 'result'>;
  readonly #auditFailures: Counter<'denied'>;
  /** Labelled children, by their label values (prom-client hashes a label object on every call). */
  readonly #dispatchChildren = new Map<string, { observe(v: number): void }>();
  readonly #requestChildren = new Map<string, { inc(): void }>();

  constructor(source: MetricsSource) {
    this.#source = source;
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.#dispatchSeconds = new Histogram({
      name: 'hookwarden_dispatch_duration_seconds',
      help: 'Time from a dispatch request to its result, by event, tenant and decision.',
      labelNames: ['event', 'tenant', 'decision'],
      buckets: DISPATCH_BUCKETS,
      registers,
    });
    this.#hooks = new Counter({
      name: 'hookwarden_hook_outcomes_total',
      help: 'Hooks run by dispatches, by hook type, outcome and error code ("none" when it did not fail).',
      labelNames: ['type', 'outcome', 'error_code'],
      registers,
    });
    this.#requests = new Counter({
      name: 'hookwarden_http_requests_total',
      help: 'HTTP requests answered, by route pattern ("unmatched" for none), method and status.',
      labelNames: ['route', 'method', 'status'],
      registers,
    });
    this.#reloads = new Counter({
      name: 'hookwarden_reloads_total',
      help: 'Reloads of the configuration ("config") and of the auth file ("auth"), by result (ok, refused).',
      labelNames: ['what', 'result'],
      registers,
    });
    this.#auditFailures = new Counter({
      name: 'hookwarden_audit_failures_total',
      help: 'Audit appends that failed after their retries (records kept for the next append), by whether the dispatch denied (audit.required).',
      labelNames: ['denied'],
      registers,
    });
    this.#auditFailures.inc({ denied: 'false' }, 0);
    this.#laneGauges(registers);
    new Gauge({
      name: 'hookwarden_dispatches_in_flight',
      help: 'Dispatch requests being answered.',
      registers,
      collect() {
        this.set(source.inFlight());
      },
    });
    this.#queueMetrics(registers);
    decisionLogMetrics(registers, source.decisionLog);
    new Gauge({
      name: 'hookwarden_draining',
      help: '1 while the server drains (after SIGTERM or SIGINT), else 0.',
      registers,
      collect() {
        this.set(source.draining() ? 1 : 0);
      },
    });
  }

  #queueMetrics(registers: Registry[]): void {
    const queue = this.#source.queue;
    let counted = 0;
    new Counter({
      name: 'hookwarden_queue_unavailable_total',
      help: 'Redis mode: operations (enqueue, rate check, worker) that failed because Redis did not answer.',
      registers,
      collect() {
        const now = queue().unavailable;
        if (now > counted) this.inc(now - counted);
        counted = now;
      },
    });
    new Gauge({
      name: 'hookwarden_async_running',
      help: 'Async hook runs in flight in this replica.',
      registers,
      collect() {
        this.set(queue().running);
      },
    });
    new Gauge({
      name: 'hookwarden_queue_redis_up',
      help: 'Redis mode: 1 while the queue reaches Redis, else 0 (absent in the embedded mode).',
      registers,
      collect() {
        const r = queue().redis;
        if (r !== undefined) this.set(r === 'up' ? 1 : 0);
      },
    });
  }

  #laneGauges(registers: Registry[]): void {
    const tenantLabel = (t: string) => this.tenantLabel(t === '' ? undefined : t);
    const load = this.#source.load;
    const perTenant = (name: string, help: string, pick: 'queued' | 'running') =>
      new Gauge({
        name,
        help,
        labelNames: ['tenant', 'lane'],
        registers,
        collect() {
          this.reset();
          const lanes = load();
          for (const lane of ['command', 'js'] as const) {
            const sums = new Map<string, number>();
            for (const t of lanes[lane].tenants) {
              const label = tenantLabel(t.tenant);
              sums.set(label, (sums.get(label) ?? 0) + t[pick]);
            }
            for (const [tenant, n] of sums) this.set({ tenant, lane }, n);
          }
        },
      });
    perTenant(
      'hookwarden_lane_queued',
      'Hook runs waiting for a slot, by tenant and lane (command: one per hook; js: one per task).',
      'queued',
    );
    perTenant('hookwarden_lane_running', 'Hook runs in flight, by tenant and lane.', 'running');
    const perLane = (name: string, help: string, value: (l: LaneLoad) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ['lane'],
        registers,
        collect() {
          const lanes = load();
          for (const lane of ['command', 'js'] as const) this.set({ lane }, value(lanes[lane]));
        },
      });
    perLane(
      'hookwarden_pool_slots',
      'Slots of each lane (command processes, QuickJS threads).',
      (l) => l.capacity,
    );
    perLane('hookwarden_pool_busy_slots', 'Slots in use.', (l) => l.busy);
    perLane('hookwarden_pool_utilization_ratio', 'Slots in use ÷ slots (0 to 1).', (l) =>
      l.capacity === 0 ? 0 : l.busy / l.capacity,
    );
  }

  /** The label of a tenant: its id when the configuration names it, else `other`; `none` without one. */
  tenantLabel(tenant: string | undefined): string {
    return tenantLabel(tenant, (t) => this.#source.tenants().has(t));
  }

  observeDispatch(result: DispatchResult, tenant: string | undefined, seconds: number): void {
    const t = this.tenantLabel(tenant);
    const key = `${result.event}\0${t}\0${result.decision}`;
    let child = this.#dispatchChildren.get(key);
    if (child === undefined) {
      child = this.#dispatchSeconds.labels(result.event, t, result.decision);
      this.#dispatchChildren.set(key, child);
    }
    child.observe(seconds);
    for (const h of result.hooks)
      this.#hooks.inc({ type: h.type, outcome: h.outcome, error_code: h.error?.code ?? 'none' });
  }

  countRequest(route: string, method: string, status: number): void {
    const key = `${route}\0${method}\0${status}`;
    let child = this.#requestChildren.get(key);
    if (child === undefined) {
      child = this.#requests.labels(route, method, String(status));
      this.#requestChildren.set(key, child);
    }
    child.inc();
  }

  countAuditFailure(denied: boolean): void {
    this.#auditFailures.inc({ denied: String(denied) });
  }

  countReload(what: 'config' | 'auth', ok: boolean): void {
    this.#reloads.inc({ what, result: ok ? 'ok' : 'refused' });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }
}
