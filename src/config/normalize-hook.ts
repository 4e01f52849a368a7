// One hook spec (any of the three accepted shapes) → a frozen HookDefinition, or a skip with
// diagnostics that name the JSON path and the value received.
import { basename, posix, sep } from 'node:path';
import { computeDeadline } from '../contract/budget.js';
import type { Dialect } from '../contract/dialects.js';
import { dialectTimeoutMs } from '../contract/dialects.js';
import type { EventDefinition } from '../contract/events.js';
import { isObject, issueMessages, joinPath, renderValue } from '../contract/messages.js';
import type { Scope } from '../contract/types.js';
import type { CommandHookSpec, HookDefinition, JsHookSpec, PackOrigin } from '../registry/hook-definition.js';
import { canonicalJson, deriveHookId } from '../registry/hook-id.js';
import { IfFilter, IfFilterError } from '../registry/if-filter.js';
import type { ToolMatcher } from '../registry/matcher.js';
import { resolveCommandPaths } from './command-paths.js';
import { DEFAULTS, type IsolationLevel } from './defaults.js';
import type { DiagnosticSink } from './diagnostics.js';
import { commandEnv, commandInheritEnv } from './hook-env.js';
import { hookSpecSchema, type RawHookSpec } from './schema.js';
import type { ScopeLimits } from './scope-limits.js';
import { MAX_SOURCE_BYTES, readHookSource } from './source-file.js';
import { didYouMean } from './suggest.js';

const KNOWN_FIELDS = new Set(Object.keys(hookSpecSchema.shape));
const UNSUPPORTED_TYPES = new Set(['prompt', 'agent', 'http', 'callback', 'mcp']);
const COMMAND_ONLY = ['env', 'inheritEnv', 'isolation', 'writable', 'runAs', 'rlimits'] as const;

export interface HookContext {
  readonly event: EventDefinition;
  readonly requireOk: boolean | undefined;
  /** The Claude Code alias used as the event key, if any. */
  readonly claudeEvent: string | undefined;
  readonly scope: Scope;
  readonly sink: DiagnosticSink;
  readonly configDir: string;
  /** The plugin root of the file (CLAUDE_PLUGIN_ROOT); default `configDir`. */
  readonly pluginRoot?: string | undefined;
  readonly limits: ScopeLimits;
  readonly matcher: ToolMatcher | undefined;
  readonly groupIf: string | undefined;
  readonly groupIfPath: string;
  /** Set when the hook comes from a verified pack. */
  readonly pack?: PackOrigin | undefined;
  /** The config file's dialect (undefined for packs). */
  readonly dialect?: Dialect | undefined;
}

/** Normalizes one hook; returns undefined (after reporting why) when it must be skipped. */
export async function normalizeHook(
  raw: unknown,
  path: string,
  ctx: HookContext,
): Promise<HookDefinition | undefined> {
  const { sink } = ctx;
  if (!isObject(raw)) {
    sink.error(
      path,
      `expected a hook object like {"type":"command","command":"..."}, got ${renderValue(raw)}`,
    );
    return undefined;
  }
  if (typeof raw.type === 'string' && UNSUPPORTED_TYPES.has(raw.type)) {
    sink.warn(
      path,
      `hook type "${raw.type}" is not supported (hookwarden runs "command" and "js" hooks)`,
      true,
    );
    return undefined;
  }
  // Unknown fields first, so one run reports every problem of the entry.
  for (const key of Object.keys(raw)) {
    if (!KNOWN_FIELDS.has(key))
      sink.warn(joinPath(path, key), `unknown field "${key}" ignored${didYouMean(key, KNOWN_FIELDS)}`);
  }
  const parsed = hookSpecSchema.safeParse(raw);
  if (!parsed.success) {
    for (const m of issueMessages(parsed.error.issues, raw, path)) sink.error(m.path, m.message);
    return undefined;
  }
  const spec = parsed.data;
  const type = spec.type ?? inferType(spec);
  if (type === undefined) {
    sink.error(
      path,
      'a hook needs "command" or "argv" (command hook) or "source" or "code" (JS hook), got none',
    );
    return undefined;
  }
  if (spec.timeout !== undefined && spec.timeoutMs !== undefined) {
    sink.error(
      joinPath(path, 'timeout'),
      `give either timeout (seconds) or timeoutMs, not both, got ${spec.timeout}`,
    );
    return undefined;
  }
  const body = type === 'command' ? commandSpec(spec, path, ctx) : await jsSpec(spec, path, ctx);
  if (body === undefined) return undefined;
  if (spec.async === true || spec.asyncRewake === true) {
    sink.warn(
      joinPath(path, spec.async === true ? 'async' : 'asyncRewake'),
      'background (async) hooks are not supported: the hook runs in the dispatch and its answer counts',
    );
  }
  // Policy hooks fail closed unless they say otherwise (trust invariant 4); a policy hook that
  // writes "skip" is reported, since its failure lets the call through.
  const written = writtenOnError(spec, path, ctx);
  if (written === null) return undefined;
  const onError = written ?? (ctx.scope === 'policy' ? 'deny' : 'skip');
  if (ctx.scope === 'policy' && written === 'skip') {
    sink.warn(
      joinPath(path, 'onError'),
      'this policy hook fails open: if it crashes, times out or answers garbage, the call proceeds (policy hooks default to "deny")',
    );
  }
  const ifFilters = buildIfFilters(spec, path, ctx);
  if (ifFilters === undefined) return undefined;
  const timing = deadlineFor(type, spec, path, ctx);
  const dedupKey = canonicalJson({
    type,
    // The same command means something else in another dialect (a crash blocks in FreeCode's).
    dialect: type === 'command' ? (ctx.dialect ?? 'hookwarden') : undefined,
    onError: onError,
    deadlineMs: timing.deadlineMs,
    requireOk: ctx.requireOk,
    ...(type === 'command' ? { command: commandIdentity(body as CommandHookSpec) } : { js: body }),
    // A pack's command may refer to its own directory (HOOK_PACK_DIR): the same text in two packs differs.
    pack: type === 'command' ? ctx.pack?.dir : undefined,
  });
  const label = type === 'command' ? commandLabel(body as CommandHookSpec) : 'js';
  const common = {
    id: spec.name ?? deriveHookId(label, dedupKey),
    named: spec.name !== undefined,
    event: ctx.event.name,
    scope: ctx.scope,
    // JS hooks speak hookwarden's protocol whatever their file's dialect.
    dialect: type === 'js' ? 'hookwarden' : (ctx.dialect ?? 'hookwarden'),
    matcher: ctx.matcher,
    ifFilters,
    requireOk: ctx.requireOk,
    onError: onError,
    deadlineMs: timing.deadlineMs,
    timeoutMs: timing.timeoutMs,
    budgetMs: timing.budgetMs,
    once: spec.once === true,
    dedupKey,
    origin: `${sink.file}: ${path}`,
    location: { file: sink.file, path },
    ...(ctx.pack !== undefined ? { pack: ctx.pack } : {}),
  };
  const def: HookDefinition =
    type === 'command'
      ? { ...common, type, command: body as CommandHookSpec }
      : { ...common, type, js: body as JsHookSpec };
  return Object.freeze(def);
}

/** Events where Claude Code's onFailure "block" has no effect (exit 2 there means "keep working"). */
const NO_BLOCK_ON_FAILURE = new Set(['AfterTurn', 'AfterSubagent', 'TaskCompleted', 'TeammateIdle']);

/** The hook's written onError (or Claude Code's onFailure, mapped); null when both are given. */
function writtenOnError(
  spec: RawHookSpec,
  path: string,
  ctx: HookContext,
): 'skip' | 'deny' | undefined | null {
  if (spec.onFailure === undefined) return spec.onError;
  if (spec.onError !== undefined) {
    ctx.sink.error(
      joinPath(path, 'onFailure'),
      `give either onError or onFailure (Claude Code's spelling), not both, got ${renderValue(spec.onFailure)}`,
    );
    return null;
  }
  if (spec.onFailure === 'continue') return 'skip';
  return NO_BLOCK_ON_FAILURE.has(ctx.event.name) ? undefined : 'deny';
}

function inferType(spec: RawHookSpec): 'command' | 'js' | undefined {
  if (spec.command !== undefined || spec.argv !== undefined) return 'command';
  if (spec.source !== undefined || spec.code !== undefined) return 'js';
  return undefined;
}

function commandSpec(spec: RawHookSpec, path: string, ctx: HookContext): CommandHookSpec | undefined {
  const { sink } = ctx;
  for (const key of ['source', 'code'] as const) {
    if (spec[key] !== undefined) {
      sink.error(
        joinPath(path, key),
        `"${key}" belongs to JS hooks, not command hooks, got ${renderValue(spec[key])}`,
      );
      return undefined;
    }
  }
  let program: CommandHookSpec['program'];
  if (spec.argv !== undefined) {
    if (spec.command !== undefined || spec.args !== undefined) {
      sink.error(joinPath(path, 'argv'), 'give either argv or command (with optional args), not both');
      return undefined;
    }
    program = { kind: 'argv', argv: Object.freeze([...spec.argv]) };
  } else if (spec.command !== undefined) {
    program =
      spec.args !== undefined
        ? { kind: 'argv', argv: Object.freeze([spec.command, ...spec.args]) }
        : { kind: 'shell', command: spec.command };
  } else {
    sink.error(path, 'a command hook needs "command" (shell) or "argv" (no shell), got neither');
    return undefined;
  }
  if (ctx.dialect === 'claude-code') warnUnsetVariables(program, path, sink);
  // hookwarden files: relative command paths are the config file's, like a JS hook's `source`.
  if (ctx.dialect === 'hookwarden') program = resolveCommandPaths(program, ctx.configDir);
  const env = commandEnv(spec, path, sink);
  if (env === undefined) return undefined;
  const inheritEnv = commandInheritEnv(spec, path, sink);
  if (inheritEnv === undefined) return undefined;
  const maxOutputBytes = spec.maxOutputBytes ?? DEFAULTS.command.maxOutputBytes;
  const r = spec.rlimits ?? {};
  return Object.freeze({
    program,
    env: Object.freeze(env),
    inheritEnv: Object.freeze(inheritEnv),
    isolation: effectiveIsolation(spec.isolation, ctx),
    writable: spec.writable === true,
    runAs: spec.runAs,
    rlimits: Object.freeze({
      // Filled per dispatch from the deadline when not given (0 = derive).
      cpuSeconds: r.cpuSeconds ?? 0,
      openFiles: r.openFiles ?? DEFAULTS.command.openFiles,
      fileSizeBytes: r.fileSizeBytes ?? DEFAULTS.command.fileSizeBytes,
      addressSpaceBytes: r.addressSpaceBytes,
    }),
    maxOutputBytes,
    pluginRoot: ctx.pluginRoot ?? ctx.configDir,
    claudeEvent: ctx.claudeEvent,
  });
}

async function jsSpec(spec: RawHookSpec, path: string, ctx: HookContext): Promise<JsHookSpec | undefined> {
  const { sink } = ctx;
  for (const key of ['command', 'argv', 'args'] as const) {
    if (spec[key] !== undefined) {
      sink.error(
        joinPath(path, key),
        `"${key}" belongs to command hooks, not JS hooks, got ${renderValue(spec[key])}`,
      );
      return undefined;
    }
  }
  for (const key of COMMAND_ONLY) {
    if (spec[key] !== undefined)
      sink.warn(joinPath(path, key), `"${key}" applies to command hooks only and is ignored`);
  }
  if ((spec.source === undefined) === (spec.code === undefined)) {
    sink.error(path, 'a JS hook needs exactly one of "source" (file) or "code" (inline)');
    return undefined;
  }
  let code: string;
  // Shown in the hook's errors and stack traces: relative to the config file (or pack), never a host
  // path. The resolved file stays on the host (sourcePath: validate, pack checks).
  let filename: string;
  let sourcePath: string | undefined;
  if (spec.source !== undefined) {
    const read = await readHookSource(ctx.configDir, spec.source);
    if (!read.ok) {
      sink.error(joinPath(path, 'source'), `${read.message}, got ${renderValue(spec.source)}`);
      return undefined;
    }
    code = read.code;
    sourcePath = read.path;
    filename = posix.normalize(spec.source.split(sep).join('/'));
  } else {
    code = spec.code!;
    filename = `${basename(ctx.sink.file)}#${path}`;
    // QuickJS's parser cannot be interrupted: the source size bounds the time it can take.
    if (Buffer.byteLength(code) > MAX_SOURCE_BYTES) {
      sink.error(
        joinPath(path, 'code'),
        `inline code is larger than ${MAX_SOURCE_BYTES} bytes, got ${Buffer.byteLength(code)} bytes`,
      );
      return undefined;
    }
  }
  let maxOutputBytes = spec.maxOutputBytes ?? DEFAULTS.js.maxOutputBytes;
  if (maxOutputBytes > DEFAULTS.js.maxOutputBytesCeiling) {
    sink.warn(
      joinPath(path, 'maxOutputBytes'),
      `JS output is capped at ${DEFAULTS.js.maxOutputBytesCeiling} bytes; ${maxOutputBytes} was clamped`,
    );
    maxOutputBytes = DEFAULTS.js.maxOutputBytesCeiling;
  }
  let memoryBytes = spec.memoryBytes ?? DEFAULTS.js.memoryBytes;
  // The worker's heap also holds QuickJS itself and the input: keep 16 MiB of headroom under the cap.
  const ceiling = ctx.limits.jsHeapCeilingBytes - 16 * 1024 * 1024;
  if (memoryBytes > ceiling) {
    sink.warn(
      joinPath(path, 'memoryBytes'),
      `memoryBytes ${memoryBytes} does not fit limits.jsHeapCeilingBytes (${ctx.limits.jsHeapCeilingBytes}) with 16 MiB headroom; clamped to ${ceiling}`,
    );
    memoryBytes = ceiling;
  }
  return Object.freeze({ code, filename, sourcePath, memoryBytes, maxOutputBytes });
}

function buildIfFilters(spec: RawHookSpec, path: string, ctx: HookContext): IfFilter[] | undefined {
  const sources: [string, string][] = [];
  if (ctx.groupIf !== undefined) sources.push([ctx.groupIf, ctx.groupIfPath]);
  if (spec.if !== undefined) sources.push([spec.if, joinPath(path, 'if')]);
  const filters: IfFilter[] = [];
  for (const [src, at] of sources) {
    if (!ctx.event.toolScoped) {
      ctx.sink.warn(at, `"if" is ignored: ${ctx.event.name} is not a tool event, got ${renderValue(src)}`);
      continue;
    }
    try {
      filters.push(new IfFilter(src));
    } catch (err) {
      if (!(err instanceof IfFilterError)) throw err;
      ctx.sink.error(at, `${err.message}, got ${renderValue(src)}`);
      return undefined;
    }
  }
  return filters;
}

function deadlineFor(type: 'command' | 'js', spec: RawHookSpec, path: string, ctx: HookContext) {
  const { sink, limits } = ctx;
  // A command hook's default is its dialect's (Claude Code: 600 s, 30 s on UserPromptSubmit, …).
  let timeoutMs: number =
    type === 'js' ? DEFAULTS.js.timeoutMs : dialectTimeoutMs(ctx.dialect ?? 'hookwarden', ctx.event.name);
  if (spec.timeout !== undefined) {
    timeoutMs = Math.round(spec.timeout * 1000);
    if (spec.timeout > DEFAULTS.suspiciousTimeoutSeconds) {
      sink.warn(
        joinPath(path, 'timeout'),
        `"timeout" is in SECONDS: ${spec.timeout} s is ${(spec.timeout / 60).toFixed(1)} minutes. If you meant milliseconds, write "timeoutMs": ${spec.timeout}`,
      );
    }
  } else if (spec.timeoutMs !== undefined) timeoutMs = spec.timeoutMs;
  const key = spec.timeout !== undefined ? 'timeout' : 'timeoutMs';
  if (type === 'js' && timeoutMs > DEFAULTS.js.maxTimeoutMs && spec.budgetMs === undefined) {
    sink.warn(
      joinPath(path, key),
      `a JS hook's timeout is at most ${DEFAULTS.js.maxTimeoutMs} ms without a declared budgetMs; ${timeoutMs} ms was clamped`,
    );
    timeoutMs = DEFAULTS.js.maxTimeoutMs;
  }
  if (timeoutMs > limits.maxDeclaredBudgetMs) {
    // A default above the ceiling is lowered silently; a written value gets a warning.
    if (spec.timeout !== undefined || spec.timeoutMs !== undefined)
      sink.warn(
        joinPath(path, key),
        `timeout ${timeoutMs} ms is above limits.maxDeclaredBudgetMs (${limits.maxDeclaredBudgetMs}) and was clamped`,
      );
    timeoutMs = limits.maxDeclaredBudgetMs;
  }
  const d = computeDeadline({
    timeoutMs,
    budgetMs: spec.budgetMs,
    graceMs: DEFAULTS.budget.graceMs,
    maxDeclaredBudgetMs: limits.maxDeclaredBudgetMs,
  });
  if (d.budgetClamped) {
    sink.warn(
      joinPath(path, 'budgetMs'),
      `declared budget ${spec.budgetMs} ms is above limits.maxDeclaredBudgetMs and was clamped to ${limits.maxDeclaredBudgetMs} ms`,
    );
  }
  return { timeoutMs, budgetMs: d.budgetMs, deadlineMs: d.deadlineMs };
}

/** The hook's isolation, raised to the `limits.minIsolation` floor in force for its scope. */
function effectiveIsolation(asked: IsolationLevel | undefined, ctx: HookContext): IsolationLevel {
  return asked === 'namespace' || ctx.limits.minIsolation === 'namespace' ? 'namespace' : 'process';
}

/** Variables some Claude Code configs use that Claude Code never sets (FreeCode's, or folklore). */
const NEVER_SET = /\$\{?(CLAUDE_TOOL_INPUT\w*|CLAUDE_TOOL_NAME|CLAUDE_FILE_PATHS|TOOL_ARGS|CLAUDE_MODEL)\b/;

function warnUnsetVariables(program: CommandHookSpec['program'], path: string, sink: DiagnosticSink): void {
  const text = program.kind === 'shell' ? program.command : program.argv.join(' ');
  const m = NEVER_SET.exec(text);
  if (m !== null)
    sink.warn(
      joinPath(path, 'command'),
      `$${m[1]} is not set by Claude Code (nor by hookwarden in a Claude Code file): the hook sees it empty. Read the input from stdin instead, e.g. jq -r '.tool_input.file_path'`,
    );
}

function commandIdentity(c: CommandHookSpec): unknown {
  const { pluginRoot: _root, claudeEvent: _event, ...rest } = c;
  // The plugin root matters only when the command refers to it (CLAUDE_PLUGIN_ROOT).
  const text = c.program.kind === 'shell' ? c.program.command : c.program.argv.join(' ');
  return text.includes('CLAUDE_PLUGIN_ROOT') ? { ...rest, pluginRoot: c.pluginRoot } : rest;
}

/** Programs that run a script given as an argument: the script, not the interpreter, names the hook. */
const INTERPRETER =
  /^(?:sh|bash|dash|zsh|ksh|fish|env|python[\d.]*|pypy\d*|uv|uvx|pipx|node|nodejs|bun|bunx|deno|npx|pnpx|tsx|ts-node|ruby|perl|php|lua|Rscript|pwsh|java|osascript)$/;
/** An argument that names a script: no option, no space, and a path or a file extension. */
const SCRIPT = /^[^-\s][^\s]*(?:\/[^\s]*|\.[A-Za-z][A-Za-z0-9]{0,5})$/;

/**
 * The readable part of a derived hook id: the program's file name (`guard.sh`), or for an
 * interpreter (`python3 hooks/guard.py`, `uv run guard.py`, `bash -e "$DIR"/check.sh`) the first
 * argument that looks like a script path (`guard.py`). Leading `NAME=value` assignments are skipped.
 */
function commandLabel(c: CommandHookSpec): string {
  const all = (c.program.kind === 'argv' ? c.program.argv : c.program.command.trim().split(/\s+/)).map((w) =>
    w.replace(/["']/g, ''),
  );
  const words = all.slice(
    Math.max(
      0,
      all.findIndex((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w)),
    ),
  );
  const name = (word: string) => word.replace(/\/+$/, '').split('/').pop() || 'command';
  const program = name(words[0] ?? 'command');
  if (!INTERPRETER.test(program)) return program;
  const script = words.slice(1).find((w) => SCRIPT.test(w));
  return script === undefined ? program : name(script);
}
