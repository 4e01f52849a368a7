// The library facade: createExecutor() loads the configuration, owns the pool, and dispatches.
// Hot reload builds a complete new generation and swaps one reference: a dispatch reads the
// generation once when it starts, so it finishes on the configuration it started with.

import type { AsyncQueue } from '../async/async-queue.js';
import { auditFailureDiagnostic } from '../audit/audit-failure.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { DecisionLog } from '../audit/decision-log.js';
import { type HookEventMap, type HookEventName, HookEvents } from '../audit/hook-events.js';
import type { Limits } from '../config/defaults.js';
import { type Diagnostic, formatDiagnostic } from '../config/diagnostics.js';
import type { LoadedConfig } from '../config/load.js';
import { optionKeys, refuseUnknownOptions } from '../config/option-keys.js';
import { HookwardenError } from '../contract/hookwarden-error.js';
import type { DispatchResult } from '../contract/result.js';
import type { DispatchInput } from '../contract/types.js';
import type { DispatchContext } from '../dispatch/context.js';
import { checkDispatchOptions, type DispatchOptions, dispatch } from '../dispatch/dispatcher.js';
import type { Generation } from '../dispatch/generation.js';
import { RemotePacks } from '../packs/remote/remote-packs.js';
import type { HookPool } from '../pool/pool.js';
import { type OnceStore, OnceTracker, type TrustedDefinition } from '../registry/registry.js';
import type { CloseOptions, Executor, ExecutorInternals } from './api.js';
import { asyncParts, closeQueue } from './async-parts.js';
import { buildGeneration } from './build-generation.js';
import { closePool, defaultWarning, openAudit } from './executor-parts.js';
import { openPool } from './executor-pool.js';
import { internalsOf, setInternalsReader } from './internals.js';
import { loadResolvedConfig } from './load-options.js';
import { loadRedisModule, type RedisModule } from './make-queue.js';
import { OnceFileStore } from './once-file.js';
import { type ExecutorOptions, type ResolvedOptions, resolveOptions } from './options.js';
import type { PackPoller } from './poll-packs.js';
import {
  judgeReload,
  newDiagnostics,
  poolLimitWarnings,
  type ReloadResult,
  refusalReason,
} from './reload.js';
import { startReloadTriggers } from './reload-triggers.js';
import { loadRuntimeTenant, reloadTenants } from './set-tenant.js';
import { keepGoodTenants } from './tenant-carry.js';
import type { TenantRate } from './tenant-rate.js';
import type { RuntimeTenant, TenantSpec } from './tenants.js';
import { loadTracing, type TracingFactory } from './tracing-option.js';
import { type TrustedHookSpec, trustedDefinition } from './trusted-hook.js';
import { UncontainedWarning } from './uncontained-warning.js';
import type { ConfigWatcher } from './watch.js';

export type { CloseOptions, Executor } from './api.js';

const CLOSE_OPTION_KEYS = optionKeys<CloseOptions>()(['drainMs', 'signal']);

class HookExecutor implements Executor {
  readonly #options: ResolvedOptions;
  readonly #pool: HookPool;
  readonly #audit: AuditLog | undefined;
  readonly #decisions: DecisionLog | undefined;
  readonly #once: OnceStore;
  readonly #events = new HookEvents();
  readonly #trusted: TrustedDefinition[] = [];
  readonly #tenants = new Map<string, RuntimeTenant>();
  readonly #warn: (d: Diagnostic) => void;
  /** Warns once that process-mode hooks ran uncontained (docs/security.md), and why. */
  readonly #uncontained: UncontainedWarning;
  /** The limits the pool was built with (a reload cannot change them). */
  readonly #poolLimits: Limits;
  readonly #watcher: ConfigWatcher | undefined;
  readonly #remote: RemotePacks;
  readonly #poller: PackPoller;
  readonly #queue: AsyncQueue;
  readonly #rate: TenantRate;
  /** What every dispatch runs with (the parts above; fixed for the executor's life). */
  readonly #ctx: DispatchContext;
  #loaded: LoadedConfig;
  #generation: Generation;
  #generationNumber = 1;
  #reloads: Promise<unknown> = Promise.resolve();
  #closed: Promise<void> | undefined;

  constructor(
    options: ResolvedOptions,
    loaded: LoadedConfig,
    remote: RemotePacks,
    redis: RedisModule | undefined,
    tracing: TracingFactory | undefined,
  ) {
    this.#options = options;
    this.#once =
      options.onceStateDir === undefined ? new OnceTracker() : new OnceFileStore(options.onceStateDir);
    this.#remote = remote;
    this.#loaded = loaded;
    this.#warn = options.onWarning ?? defaultWarning;
    this.#uncontained = new UncontainedWarning(this.#warn);
    this.#poolLimits = loaded.limits;
    // Before the pool: an audit file that is refused must not leave a pool (threads, a spawn server) open.
    const opened = openAudit(options.audit, this.#events, this.#warn);
    this.#audit = opened.audit;
    this.#decisions = opened.decisions;
    // A failed audit append is never silent: the log (onWarning) has it, besides the result.
    this.#events.on('audit.failed', (e) => this.#warn(auditFailureDiagnostic(e)));
    // Read live: a reload or setTenant() changes a tenant's limits for its next hooks.
    this.#pool = openPool(
      loaded.limits,
      options.scratchRoot,
      (tenant) => this.#generation.tenants.get(tenant)?.limits ?? {},
    );
    // Idle QuickJS and wasm workers are kept warm: start them now when such hooks are configured (unless
    // the caller dispatches once and would rather not load QuickJS for a dispatch that runs none).
    if (options.prestartJsWorkers) this.#pool.warmFor(loaded.hooks);
    this.#generation = this.#buildGeneration();
    const jobs = {
      pool: this.#pool,
      root: options.root,
      audit: this.#audit,
      decisions: this.#decisions,
      events: this.#events,
      evaluators: options.evaluators,
      tenantIsolation: options.tenantIsolation,
      tracing: tracing?.((t) => this.#generation.tenants.has(t)),
    };
    const host = { context: () => jobs, generation: () => this.#generation };
    const parts = asyncParts(host, options.queue, redis, this.#warn);
    this.#queue = parts.queue;
    this.#rate = parts.rate;
    this.#ctx = { ...jobs, async: parts.queue };
    const triggers = startReloadTriggers(options.watch, remote, loaded, this.#warn, () => this.reload());
    this.#watcher = triggers.watcher;
    this.#poller = triggers.poller;
  }

  get diagnostics(): readonly Diagnostic[] {
    return this.#loaded.diagnostics;
  }

  get tenants(): readonly string[] {
    return [...this.#generation.tenants.keys()].sort();
  }

  #buildGeneration(): Generation {
    return buildGeneration(this.#loaded, this.#tenants, this.#trusted, this.#once);
  }

  async setTenant(id: string, spec: TenantSpec = {}): Promise<void> {
    if (this.#closed !== undefined)
      throw new HookwardenError('closed', 'setTenant() after close(): create a new executor');
    const tenant = await loadRuntimeTenant(id, spec, this.#options, this.#warn, this.#loaded, this.#remote);
    if (this.#closed !== undefined)
      throw new HookwardenError('closed', 'the executor was closed during setTenant()');
    this.#tenants.set(id, tenant);
    if (this.#options.prestartJsWorkers) this.#pool.warmFor(tenant.hooks);
    this.#generation = this.#buildGeneration();
  }

  removeTenant(id: string): boolean {
    const had = this.#tenants.delete(id);
    if (had) this.#generation = this.#buildGeneration();
    return had;
  }

  async dispatch(
    event: string,
    input: DispatchInput = {},
    options0: DispatchOptions = {},
  ): Promise<DispatchResult> {
    if (this.#closed !== undefined)
      throw new HookwardenError('closed', 'dispatch() after close(): create a new executor');
    // Before the rate bucket reads the tenant: options of the wrong shape are a typed error.
    const options = checkDispatchOptions(options0);
    const gen = this.#generation;
    const admitted = this.#rate.admit(gen, options.tenant);
    if (admitted !== undefined) await admitted;
    const result = await dispatch(gen, this.#ctx, event, input, options);
    this.#uncontained.check(result);
    return result;
  }

  on<K extends HookEventName>(name: K, listener: (e: HookEventMap[K]) => void): () => void {
    return this.#events.on(name, listener);
  }

  register(spec: TrustedHookSpec): () => void {
    const def = trustedDefinition(spec, this.#loaded.catalogue);
    const existing = this.#trusted.findIndex((t) => t.event === def.event && t.id === def.id);
    if (existing >= 0) this.#trusted.splice(existing, 1, def);
    else this.#trusted.push(def);
    this.#generation = this.#buildGeneration();
    return () => {
      const i = this.#trusted.indexOf(def);
      if (i < 0) return;
      this.#trusted.splice(i, 1);
      this.#generation = this.#buildGeneration();
    };
  }

  reload(): Promise<ReloadResult> {
    if (this.#closed !== undefined)
      return Promise.reject(new HookwardenError('closed', 'reload() after close(): create a new executor'));
    // One reload at a time, in call order: each one loads what the files say when it starts.
    const run = this.#reloads.then(() => this.#reloadOnce());
    this.#reloads = run.catch(() => {});
    return run;
  }

  async #reloadOnce(): Promise<ReloadResult> {
    const o = this.#options;
    let next: LoadedConfig;
    try {
      next = await loadResolvedConfig(o, this.#remote);
    } catch (err) {
      // Not a config problem (those are diagnostics) but e.g. EMFILE: the generation in force stays.
      const reason = `reload failed, generation ${this.#generationNumber} stays in force: ${(err as Error).message}`;
      this.#warn({ severity: 'error', file: '<reload>', path: '', message: reason, skipped: false });
      const result: ReloadResult = { ok: false, generation: this.#generationNumber, reason, diagnostics: [] };
      o.onReload?.(result);
      return result;
    }
    const previous = this.#loaded;
    const verdict = judgeReload(previous, next);
    let result: ReloadResult;
    if (this.#closed !== undefined) {
      const reason = 'the executor was closed during the reload';
      result = { ok: false, generation: this.#generationNumber, reason, diagnostics: next.diagnostics };
    } else if (!verdict.ok) {
      // Keep watching the old sources and the new ones: fixing either triggers the next reload.
      this.#watcher?.update([...previous.watchTargets, ...next.watchTargets]);
      const reason = refusalReason(verdict.causes, this.#generationNumber);
      for (const d of verdict.causes) this.#warn({ ...d, message: `reload refused: ${d.message}` });
      result = { ok: false, generation: this.#generationNumber, reason, diagnostics: next.diagnostics };
    } else {
      next = keepGoodTenants(previous, next, this.#warn);
      this.#loaded = next;
      await reloadTenants(this.#tenants, previous, next, this.#options, this.#warn, this.#remote);
      this.#generation = this.#buildGeneration();
      this.#generationNumber++;
      this.#watcher?.update(next.watchTargets);
      this.#poller.update(next.remotePins);
      if (o.prestartJsWorkers) this.#pool.warmFor(next.hooks);
      const fresh = newDiagnostics(previous, next);
      for (const d of [...fresh, ...poolLimitWarnings(this.#poolLimits, previous.limits, next.limits)])
        this.#warn(d);
      result = { ok: true, generation: this.#generationNumber, diagnostics: next.diagnostics };
    }
    o.onReload?.(result);
    return result;
  }

  close(options: CloseOptions = {}): Promise<void> {
    try {
      refuseUnknownOptions(options, CLOSE_OPTION_KEYS, 'close options');
    } catch (err) {
      return Promise.reject(err);
    }
    this.#watcher?.close();
    this.#poller.close();
    this.#remote.close();
    const stop = () => closePool(this.#pool, this.#decisions, options.signal);
    this.#closed ??= closeQueue(this.#queue, options.drainMs, options.signal).then(stop);
    return this.#closed;
  }

  static {
    setInternalsReader((e) => (e instanceof HookExecutor ? e.#internals() : undefined));
  }

  #internals(): ExecutorInternals {
    return {
      pool: this.#pool,
      generation: () => this.#generation,
      queue: this.#queue,
      loaded: () => this.#loaded,
      reads: () => this.#loaded.reads,
      hooks: () => this.#loaded.hooks,
      decisionLog: () => this.#decisions?.stats(),
    };
  }
}

/**
 * Loads the configuration and returns an executor. Rejects with a HookwardenError (`invalid_options`
 * or `config_error`) on misuse; problems inside config files are reported through `onWarning` and the
 * offending entries skipped, except that a policy source that fails makes deny-capable events deny.
 */
export async function createExecutor(options: ExecutorOptions = {}): Promise<Executor> {
  const resolved = resolveOptions(options);
  const remote = new RemotePacks(resolved.remote);
  const loaded = await loadResolvedConfig(resolved, remote);
  if (loaded.fatal.length > 0) {
    // Fatal problems stop the load: nothing is "skipped", so the message does not say so.
    const problems = loaded.fatal.map((d) => formatDiagnostic({ ...d, skipped: false }));
    throw new HookwardenError('config_error', problems.join('; '), { problems });
  }
  const warn = resolved.onWarning ?? defaultWarning;
  for (const d of loaded.diagnostics) warn(d);
  const redis = await loadRedisModule(resolved.queue);
  const executor = new HookExecutor(resolved, loaded, remote, redis, await loadTracing(resolved.tracer));
  await internalsOf(executor).queue.ready(); // Redis mode: connected, or gave up waiting
  return executor;
}
