// A long-lived executor whose configuration each generated case replaces: the case's files are
// written over the rig's (two policy, two project and one user file, `{}` when unused) and loaded
// with reload(), so a case costs a load, not a new QuickJS pool. A case whose files bring a new
// error (which reload() refuses, keeping the last-known-good generation) runs on a fresh executor
// of the same options instead. Trusted hooks are registered for the case and removed after it.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import type { Diagnostic } from '../../src/config/diagnostics.js';
import type { DispatchResult } from '../../src/contract/result.js';
import { createExecutor, type Executor, type ExecutorOptions } from '../../src/index.js';
import { tempDir } from '../helpers/fixture.js';
import { answerOf, type Behaviour } from './gen/answers.js';
import type { ConfigModel, FileModel, HookModel, TenantModel } from './gen/config.js';
import { EVENTS } from './gen/events.js';
import { ifText } from './gen/filters.js';
import { type RenderContext, renderFile } from './gen/render.js';
import type { HttpHooks } from './http-hooks.js';
import { fromFiles, fromLogs, noteInput, type Seen } from './observe.js';
import type { PackLibrary } from './packs.js';
import { forgetWasmCalls, initWasmHooks, takeWasmCalls, wasmHookModule } from './wasm-hooks.js';

export interface RigOptions {
  readonly packs: PackLibrary;
  readonly http: HttpHooks;
  /** Extra executor options (limits, tenantIsolation…); the same for the fallback executors. */
  readonly executor?: Omit<ExecutorOptions, 'policy' | 'config' | 'root' | 'onWarning'>;
  /** Whether this rig loads the case's user and project files (false: the policy-only oracle). */
  readonly lower?: boolean;
}

const POLICY = ['policy-0.json', 'policy-1.json'];
const PROJECT = ['project-0.json', 'project-1.json'];
const USER = ['user-0.json'];
let caseCounter = 0;
export const TIMES = { reload: 0, dispatch: 0 };

export interface Dispatched {
  readonly result?: DispatchResult;
  readonly error?: unknown;
  readonly seen: Seen;
}

/** One case on a rig: the executor it runs on, its dispatches, what each hook saw. */
export class CaseRun {
  readonly tag: string;
  readonly diagnostics: readonly Diagnostic[];
  readonly fresh: boolean;
  readonly executor: Executor;
  readonly #rig: Rig;
  readonly #behaviours: Map<string, Behaviour>;
  readonly #unregister: (() => void)[];
  readonly #trustedSeen: Seen = new Map();

  constructor(
    rig: Rig,
    tag: string,
    executor: Executor,
    fresh: boolean,
    diagnostics: readonly Diagnostic[],
    behaviours: Map<string, Behaviour>,
  ) {
    this.#rig = rig;
    this.tag = tag;
    this.executor = executor;
    this.fresh = fresh;
    this.diagnostics = diagnostics;
    this.#behaviours = behaviours;
    this.#unregister = [];
  }

  /** Registers the case's trusted hooks (a refused one is returned as its error). */
  registerTrusted(model: ConfigModel): unknown[] {
    const refused: unknown[] = [];
    for (const g of model.trusted) {
      for (const h of g.hooks) {
        const cc = 'cc' in EVENTS[model.event] ? (EVENTS[model.event] as { cc: string }).cc : undefined;
        try {
          this.#unregister.push(
            this.executor.register({
              event: model.event,
              name: h.key,
              ...(g.matcher.text === undefined ? {} : { matcher: g.matcher.text }),
              ...(h.if === undefined ? {} : { if: ifText(h.if) }),
              ...(h.onError === 'skip' || h.onError === 'deny' ? { onError: h.onError } : {}),
              ...(h.timeoutMs === undefined ? {} : { timeoutMs: h.timeoutMs }),
              handler: (input) => {
                const raw = JSON.stringify([input.toolInput, input.prompt, input.request]);
                noteInput(this.#trustedSeen, h.key, h.behaviour, input as Record<string, unknown>, raw);
                const a =
                  h.behaviour.token === undefined || raw.includes(h.behaviour.token)
                    ? h.behaviour.hit
                    : h.behaviour.miss;
                return answerOf(a, input as Record<string, unknown>, cc) as never;
              },
            }),
          );
        } catch (err) {
          refused.push(err);
        }
      }
    }
    return refused;
  }

  /**
   * One dispatch; a rejection is returned, not thrown. `observe: false` leaves the command hooks'
   * and http hooks' observations alone (dispatches running at once would take each other's).
   */
  async dispatch(
    event: string,
    input: Record<string, unknown>,
    options: { tenant?: string } = {},
    observe = true,
  ): Promise<Dispatched> {
    const seen: Seen = new Map();
    let result: DispatchResult | undefined;
    let error: unknown;
    const t0 = performance.now();
    try {
      result = await this.executor.dispatch(event, input, options);
      TIMES.dispatch += performance.now() - t0;
    } catch (err) {
      error = err;
    }
    if (result !== undefined) fromLogs(result, seen);
    if (!observe) return { ...(result === undefined ? { error } : { result }), seen };
    fromFiles(this.#rig.obsRoot(this.tag), this.#behaviours, seen);
    takeWasmCalls(this.tag, this.#behaviours, seen);
    this.#rig.http.take(seen);
    for (const [k, v] of this.#trustedSeen) seen.set(k, v);
    this.#trustedSeen.clear();
    return { ...(result === undefined ? { error } : { result }), seen };
  }

  async finish(): Promise<void> {
    for (const u of this.#unregister.splice(0)) u();
    this.#rig.http.take(new Map()); // what was not taken is dropped
    this.#rig.http.forget(this.tag);
    rmSync(this.#rig.obsRoot(this.tag), { recursive: true, force: true });
    forgetWasmCalls(this.tag);
    if (this.fresh) await this.executor.close();
  }
}

/**
 * A directory in memory (/dev/shm) when there is one: every case writes five files, which a
 * journaled disk makes the largest part of a case. Removed after the file.
 */
function memoryDir(prefix: string): string {
  if (!existsSync('/dev/shm')) return tempDir(prefix);
  const dir = mkdtempSync(join('/dev/shm', prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export class Rig {
  readonly root: string;
  readonly http: HttpHooks;
  readonly #options: RigOptions;
  #executor: Executor | undefined;
  #warnings: Diagnostic[] = [];

  constructor(options: RigOptions) {
    this.#options = options;
    this.http = options.http;
    this.root = memoryDir('hw-prop-rig-');
    for (const f of [...POLICY, ...PROJECT, ...USER]) writeFileSync(join(this.root, f), '{}');
  }

  obsRoot(tag: string): string {
    return join(this.root, 'obs', tag);
  }

  #executorOptions(): ExecutorOptions {
    const lower = this.#options.lower !== false;
    const extra = this.#options.executor ?? {};
    return {
      ...extra,
      root: this.root,
      policy: POLICY.map((f) => join(this.root, f)),
      config: lower
        ? [
            ...PROJECT.map((f) => join(this.root, f)),
            ...USER.map((f) => ({ path: join(this.root, f), scope: 'user' as const })),
          ]
        : [],
      allowedHttpHookUrls: [this.http.pattern, ...(extra.allowedHttpHookUrls ?? [])],
      onWarning: (d) => this.#warnings.push(d),
    };
  }

  async #longLived(): Promise<Executor> {
    this.#executor ??= await createExecutor(this.#executorOptions());
    return this.#executor;
  }

  /** Writes the case's files and loads them: on the long-lived executor, or a fresh one. */
  async prepare(model: ConfigModel): Promise<CaseRun> {
    await initWasmHooks();
    const tag = `c${caseCounter++}`;
    const behaviours = new Map<string, Behaviour>();
    const ctx = {
      event: model.event,
      obsDir: (key: string) => {
        const d = join(this.obsRoot(tag), key);
        mkdirSync(d, { recursive: true });
        return d;
      },
      httpUrl: (key: string, admitted: boolean) => this.http.url(tag, key, admitted),
      pack: this.#options.packs.pin,
      wasmSource: (
        key: string,
        token: string | undefined,
        hit: readonly [string, number],
        miss: readonly [string, number],
      ) => {
        const name = `wasm/${tag}-${key}.wasm`;
        mkdirSync(join(this.root, 'wasm'), { recursive: true });
        writeFileSync(join(this.root, name), wasmHookModule(tag, key, token, hit, miss));
        return name;
      },
    };
    const lower = this.#options.lower !== false;
    const write = (names: string[], files: readonly FileModel[], scope: 'policy' | 'user' | 'project') =>
      names.forEach((name, i) => {
        const f = files[i];
        const text =
          f === undefined || (!lower && scope !== 'policy') ? {} : renderFile(f, scope, ctx, i === 0);
        if (scope === 'policy' && i === 0 && model.tenants !== undefined)
          text.tenants = renderTenants(model.tenants, ctx, behaviours, (key, b) => {
            const cc = 'cc' in EVENTS[model.event] ? (EVENTS[model.event] as { cc: string }).cc : undefined;
            this.http.register(tag, key, b, cc);
          });
        writeFileSync(join(this.root, name), JSON.stringify(text));
        for (const h of f === undefined ? [] : allHooks(f)) {
          behaviours.set(h.key, h.behaviour);
          const cc = 'cc' in EVENTS[model.event] ? (EVENTS[model.event] as { cc: string }).cc : undefined;
          if (h.kind === 'http') this.http.register(tag, h.key, h.behaviour, cc);
        }
      });
    write(POLICY, model.policy, 'policy');
    write(PROJECT, model.project, 'project');
    write(USER, model.user, 'user');
    const executor = await this.#longLived();
    this.#warnings = [];
    const t0 = performance.now();
    const reloaded = await executor.reload();
    TIMES.reload += performance.now() - t0;
    if (reloaded.ok) return new CaseRun(this, tag, executor, false, reloaded.diagnostics, behaviours);
    if (process.env.HW_PROP_DEBUG === '1') process.stderr.write(`fresh: ${reloaded.reason}\n`);
    const fresh = await createExecutor({ ...this.#executorOptions(), prestartJsWorkers: false });
    return new CaseRun(this, tag, fresh, true, fresh.diagnostics, behaviours);
  }

  async close(): Promise<void> {
    await this.#executor?.close();
  }
}

/** The `tenants` section: each tenant's hooks and packs (as a hooks file has them) and scheduling limits. */
function renderTenants(
  tenants: readonly TenantModel[],
  ctx: RenderContext,
  behaviours: Map<string, Behaviour>,
  registerHttp: (key: string, b: Behaviour) => void,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const t of tenants) {
    const file = renderFile(t.file, 'tenant', ctx, false);
    out[t.id] = {
      hooks: file.hooks ?? {},
      ...(file.packs === undefined ? {} : { packs: file.packs }),
      ...(Object.keys(t.limits).length === 0 ? {} : { limits: t.limits }),
    };
    for (const h of allHooks(t.file)) {
      behaviours.set(h.key, h.behaviour);
      if (h.kind === 'http') registerHttp(h.key, h.behaviour);
    }
  }
  return out;
}

/** A file's hooks, decoys included (every one may run, or must not). */
export function allHooks(f: FileModel): HookModel[] {
  return [...f.groups, ...f.decoys].flatMap((g) => g.hooks);
}
