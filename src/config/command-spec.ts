// A command hook's spec (shell string or argv, env, isolation, rlimits, runAs) → its CommandHookSpec,
// and the label and identity derived ids use.
import { joinPath, renderValue } from '../contract/messages.js';
import type { CommandHookSpec } from '../registry/hook-definition.js';
import { resolveCommandPaths, resolveExistingPaths } from './command-paths.js';
import { DEFAULTS, type IsolationLevel, strongerIsolation } from './defaults.js';
import type { DiagnosticSink } from './diagnostics.js';
import type { HookContext } from './hook-context.js';
import { commandEnv, commandInheritEnv } from './hook-env.js';
import type { RawHookSpec } from './schema.js';

/** Dialects whose inline commands run under bash. */
const BASH_DIALECTS: ReadonlySet<string> = new Set(['claude-code', 'codex', 'gemini', 'cursor', 'copilot']);

export function commandSpec(spec: RawHookSpec, path: string, ctx: HookContext): CommandHookSpec | undefined {
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
    // Claude Code runs an inline command with bash unless `shell` says powershell, and so do the
    // coding agents (Codex: $SHELL -lc; Gemini CLI, Cursor, Copilot's `bash`); hookwarden's own and
    // FreeCode's files keep /bin/sh unless they ask.
    const shell = spec.shell ?? (BASH_DIALECTS.has(ctx.dialect ?? 'hookwarden') ? 'bash' : undefined);
    program =
      spec.args !== undefined
        ? { kind: 'argv', argv: Object.freeze([spec.command, ...spec.args]) }
        : { kind: 'shell', command: spec.command, ...(shell === undefined ? {} : { shell }) };
  } else {
    sink.error(path, 'a command hook needs "command" (shell) or "argv" (no shell), got neither');
    return undefined;
  }
  if (spec.shell !== undefined && program.kind === 'argv')
    sink.warn(
      joinPath(path, 'shell'),
      `"shell" is ignored: a hook with ${spec.argv === undefined ? 'args' : 'argv'} runs without a shell`,
    );
  if (ctx.dialect === 'claude-code') warnUnsetVariables(program, path, sink);
  // hookwarden files: relative command paths are the config file's, like a JS hook's `source`.
  if (ctx.dialect === 'hookwarden') program = resolveCommandPaths(program, ctx.configDir);
  // Cursor's: read from the project root, or (where the script is there) from `.cursor/`, which
  // some Cursor versions run project hooks from.
  if (ctx.dialect === 'cursor') program = resolveExistingPaths(program, ctx.configDir);
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
    ...effectiveIsolation(spec.isolation, ctx),
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
    pluginRoot: ctx.plugin?.root ?? ctx.configDir,
    pluginData: ctx.plugin?.dataDir,
    claudeEvent: ctx.claudeEvent,
  });
}

/** The hook's isolation, raised to the `limits.minIsolation` floor in force for its scope. */
function effectiveIsolation(
  asked: IsolationLevel | undefined,
  ctx: HookContext,
): Pick<CommandHookSpec, 'isolation' | 'containment'> {
  return effectiveLevel(strongerIsolation(asked ?? 'process', ctx.limits.minIsolation));
}

/** A hook's isolation raised to `floor` (the operator's least isolation for a tenant's hooks). */
export function raiseIsolation(
  c: Pick<CommandHookSpec, 'isolation' | 'containment'>,
  floor: IsolationLevel | undefined,
): Pick<CommandHookSpec, 'isolation' | 'containment'> {
  if (floor === undefined) return { isolation: c.isolation, containment: c.containment };
  const own: IsolationLevel =
    c.isolation === 'namespace' ? 'namespace' : c.containment === 'require' ? 'contained' : 'process';
  return effectiveLevel(strongerIsolation(own, floor));
}

function effectiveLevel(level: IsolationLevel): Pick<CommandHookSpec, 'isolation' | 'containment'> {
  if (level === 'namespace') return { isolation: 'namespace', containment: 'prefer' };
  return { isolation: 'process', containment: level === 'contained' ? 'require' : 'prefer' };
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

export function commandIdentity(c: CommandHookSpec): unknown {
  const { pluginRoot: _root, pluginData: _data, claudeEvent: _event, ...rest } = c;
  // The plugin root and data folder matter only when the command refers to them.
  const text = c.program.kind === 'shell' ? c.program.command : c.program.argv.join(' ');
  return {
    ...rest,
    ...(text.includes('CLAUDE_PLUGIN_ROOT') ? { pluginRoot: c.pluginRoot } : {}),
    ...(text.includes('CLAUDE_PLUGIN_DATA') ? { pluginData: c.pluginData ?? null } : {}),
  };
}

/** Programs that run a script given as an argument: the script, not the interpreter, names the hook. */
export const INTERPRETER =
  /^(?:sh|bash|dash|zsh|ksh|fish|env|python[\d.]*|pypy\d*|uv|uvx|pipx|node|nodejs|bun|bunx|deno|npx|pnpx|tsx|ts-node|ruby|perl|php|lua|Rscript|pwsh|java|osascript)$/;

/** An argument that names a script: no option, no space, and a path or a file extension. */
export const SCRIPT = /^[^-\s][^\s]*(?:\/[^\s]*|\.[A-Za-z][A-Za-z0-9]{0,5})$/;

/**
 * The readable part of a derived hook id: the program's file name (`guard.sh`), or for an
 * interpreter (`python3 hooks/guard.py`, `uv run guard.py`, `bash -e "$DIR"/check.sh`) the first
 * argument that looks like a script path (`guard.py`). Leading `NAME=value` assignments are skipped.
 */
export function commandLabel(c: CommandHookSpec): string {
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
