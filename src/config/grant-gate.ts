// A gated hook (a project file's, a tenant's: grants.ts) held to what the policy granted: every field
// that would loosen its sandbox or reach further than the strict default takes effect only when
// granted; otherwise the hook still runs, at the stricter value, and the load names each refusal
// (a warning at the field's JSON path, saying where the operator grants it). Applied once, to the
// hook as normalised (normalize-hook.ts), so every kind and every field is judged in one place.
import { DIALECT_RULES, type Dialect } from '../contract/dialects.js';
import { joinPath } from '../contract/messages.js';
import type {
  CommandHookSpec,
  HookDefinition,
  HttpHookSpec,
  JsHookSpec,
  WasmHookSpec,
} from '../registry/hook-definition.js';
import { DEFAULTS } from './defaults.js';
import type { DiagnosticSink } from './diagnostics.js';
import type { HookGate } from './grants.js';
import type { HookContext } from './hook-context.js';
import { defaultTimeoutMs, type HookKind } from './hook-kind-specs.js';
import type { RawHookSpec } from './schema.js';

type Mutable<T> = T extends unknown ? { -readonly [K in keyof T]: T[K] } : never;

class Judge {
  constructor(
    readonly gate: HookGate,
    readonly path: string,
    readonly sink: DiagnosticSink,
  ) {}

  /** A refusal: the field's path, what was asked, what runs instead, and the grant that allows it. */
  refuse(field: string, asked: string, instead: string, grant: string): void {
    this.sink.warn(
      field.split('.').reduce((at, key) => joinPath(at, key), this.path),
      `${asked} is not granted to ${this.gate.who}: ${instead}; a policy file grants it with ${this.gate.where}.${grant}`,
    );
  }

  /** `value` held under `ceiling` (a cap the grant may raise). */
  cap(field: string, value: number, ceiling: number): number {
    if (value <= ceiling) return value;
    this.refuse(field, `"${field}" ${value}`, `it runs with ${ceiling}`, `${field}: ${value}`);
    return ceiling;
  }
}

/**
 * The longest deadline a hook gets without a grant: what its kind and dialect allow without a
 * declared budget (command and http hooks: the dialect's default, 60 s in hookwarden's files and
 * 600 s in Claude Code's; JS: 30 s; prompt and agent: their defaults). A budget that widens it is the grant's.
 */
function ungrantedDeadlineMs(kind: HookKind, dialect: Dialect): number {
  if (kind === 'js') return DEFAULTS.js.maxTimeoutMs;
  if (kind === 'wasm') return DEFAULTS.wasm.maxTimeoutMs;
  if (kind === 'prompt' || kind === 'agent') return defaultTimeoutMs(kind, dialect, '');
  return DIALECT_RULES[dialect].defaultTimeoutMs;
}

function gateDeadline(def: Mutable<HookDefinition>, spec: RawHookSpec, j: Judge, ctx: HookContext): void {
  const kind = def.type as HookKind;
  const ceiling = j.gate.grant.timeoutMs ?? ungrantedDeadlineMs(kind, ctx.dialect ?? 'hookwarden');
  if (def.deadlineMs <= ceiling) return;
  const field =
    spec.budgetMs !== undefined ? 'budgetMs' : spec.timeout !== undefined ? 'timeout' : 'timeoutMs';
  j.refuse(
    field,
    `a deadline of ${def.deadlineMs} ms`,
    `it runs with ${ceiling} ms`,
    `timeoutMs: ${def.deadlineMs}`,
  );
  def.deadlineMs = ceiling;
  def.timeoutMs = Math.min(def.timeoutMs, ceiling);
  def.budgetMs = undefined;
}

/** An explicit cpuSeconds above the grant (or, ungranted, above what the deadline derives): derived instead. */
function gateCpu(cpuSeconds: number, granted: number | undefined, deadlineMs: number, j: Judge): number {
  if (cpuSeconds === 0) return 0;
  const ceiling = granted ?? Math.ceil(deadlineMs / 1000) + 1;
  if (cpuSeconds <= ceiling) return cpuSeconds;
  j.refuse(
    'rlimits.cpuSeconds',
    `"rlimits.cpuSeconds" ${cpuSeconds}`,
    granted === undefined ? 'it is derived from the deadline' : `it runs with ${granted}`,
    `rlimits.cpuSeconds: ${cpuSeconds}`,
  );
  return granted ?? 0;
}

function gateCommand(c: CommandHookSpec, deadlineMs: number, j: Judge): CommandHookSpec {
  const g = j.gate.grant;
  const out: Mutable<CommandHookSpec> = { ...c };
  if (c.writable && g.writable !== true) {
    j.refuse('writable', '"writable"', 'the sandbox root stays read-only', 'writable: true');
    out.writable = false;
  }
  if (c.runAs !== undefined && g.runAs !== true) {
    j.refuse(
      'runAs',
      `"runAs": "${c.runAs}"`,
      "it runs as hookwarden's own user, in its sandbox",
      'runAs: true',
    );
    out.runAs = undefined;
  }
  const allowed = new Set(g.inheritEnv ?? []);
  for (const name of c.inheritEnv.filter((n) => !allowed.has(n)))
    j.refuse(
      'inheritEnv',
      `the host variable "${name}"`,
      'the hook does not see it',
      `inheritEnv: ["${name}"]`,
    );
  out.inheritEnv = Object.freeze(c.inheritEnv.filter((name) => allowed.has(name)));
  out.maxOutputBytes = j.cap(
    'maxOutputBytes',
    c.maxOutputBytes,
    g.maxOutputBytes ?? DEFAULTS.command.maxOutputBytes,
  );
  const r = c.rlimits;
  const rl = g.rlimits ?? {};
  out.rlimits = Object.freeze({
    cpuSeconds: gateCpu(r.cpuSeconds, rl.cpuSeconds, deadlineMs, j),
    openFiles: j.cap('rlimits.openFiles', r.openFiles, rl.openFiles ?? DEFAULTS.command.openFiles),
    fileSizeBytes: j.cap(
      'rlimits.fileSizeBytes',
      r.fileSizeBytes,
      rl.fileSizeBytes ?? DEFAULTS.command.fileSizeBytes,
    ),
    // A cap that only tightens: never gated.
    addressSpaceBytes: r.addressSpaceBytes,
  });
  return Object.freeze(out);
}

function gateJs(js: JsHookSpec, j: Judge): JsHookSpec {
  const g = j.gate.grant;
  return Object.freeze({
    ...js,
    memoryBytes: j.cap('memoryBytes', js.memoryBytes, g.memoryBytes ?? DEFAULTS.js.memoryBytes),
    maxOutputBytes: j.cap(
      'maxOutputBytes',
      js.maxOutputBytes,
      g.maxOutputBytes ?? DEFAULTS.js.maxOutputBytes,
    ),
  });
}

/** A wasm hook's output cap (its memory cap is judged before its module is compiled: grantedCap). */
function gateWasm(wasm: WasmHookSpec, j: Judge): WasmHookSpec {
  const g = j.gate.grant;
  const ceiling = g.maxOutputBytes ?? DEFAULTS.wasm.maxOutputBytes;
  return Object.freeze({ ...wasm, maxOutputBytes: j.cap('maxOutputBytes', wasm.maxOutputBytes, ceiling) });
}

/**
 * `value` of a gated hook's `field` held under the grant's `granted` (or `fallback`, not granted),
 * the refusal named; unchanged when the hook's file is not gated. For what must be judged before
 * the hook is built (a wasm hook's memory cap is compiled into its module).
 */
export function grantedCap(
  ctx: HookContext,
  path: string,
  field: 'memoryBytes',
  value: number,
  fallback: number,
): number {
  const gate = ctx.gate;
  if (gate === undefined) return value;
  return new Judge(gate, path, ctx.sink).cap(field, value, gate.grant[field] ?? fallback);
}

function gateHttp(http: HttpHookSpec, j: Judge): HttpHookSpec {
  const g = j.gate.grant;
  let envVars = http.envVars;
  // Names the policy's httpHookAllowedEnvVars listed were vouched for by the operator already.
  if (!http.envVouched) {
    const allowed = new Set(g.inheritEnv ?? []);
    for (const name of envVars.filter((n) => !allowed.has(n)))
      j.refuse(
        'allowedEnvVars',
        `the host variable "${name}"`,
        'its headers send it empty',
        `inheritEnv: ["${name}"]`,
      );
    envVars = Object.freeze(envVars.filter((n) => allowed.has(n)));
  }
  return Object.freeze({
    ...http,
    envVars,
    maxOutputBytes: j.cap(
      'maxOutputBytes',
      http.maxOutputBytes,
      g.maxOutputBytes ?? DEFAULTS.http.maxOutputBytes,
    ),
  });
}

/** `def` held to its gate (ctx.gate); unchanged when the hook's file is not gated. */
export function applyGrant(
  def: HookDefinition,
  spec: RawHookSpec,
  path: string,
  ctx: HookContext,
): HookDefinition {
  const gate = ctx.gate;
  if (gate === undefined) return def;
  const j = new Judge(gate, path, ctx.sink);
  const out = { ...def } as Mutable<HookDefinition>;
  gateDeadline(out, spec, j, ctx);
  if (out.type === 'command') out.command = gateCommand(out.command, out.deadlineMs, j);
  else if (out.type === 'js') out.js = gateJs(out.js, j);
  else if (out.type === 'http') out.http = gateHttp(out.http, j);
  else if (out.type === 'wasm') out.wasm = gateWasm(out.wasm, j);
  return out;
}
