// Execute stage for command hooks: HookDefinition + input → the request (stdin, environment) → pool
// → the answer, read by the command protocol of the hook's dialect (command-protocol.ts).

import { mkdirSync } from 'node:fs';
import { raiseIsolation } from '../config/command-spec.js';
import type { IsolationLevel } from '../config/defaults.js';
import { DIALECT_RULES } from '../contract/dialects.js';
import { type HookError, hookError } from '../contract/error-codes.js';
import { type HookAnswer, notRunAnswer } from '../contract/fold.js';
import type { HookInput } from '../contract/types.js';
import { fingerprintChanges } from '../packs/fingerprint.js';
import type { CommandRequest } from '../pool/pool.js';
import type { CommandHookDefinition } from '../registry/hook-definition.js';
import { missingPlaceholder, substitutePlaceholders } from './claude-placeholders.js';
import { blockAnswer, interpretCommand } from './command-protocol.js';
import type { HookCall } from './hook-call.js';
import { hookInputJson } from './hook-stdin.js';
import { reportCommandTiming } from './hook-timing.js';
import { refusedAnswer, withRetried } from './refused.js';
import { shellProgram } from './shell-interpreter.js';

/** Claude Code makes a plugin's data folder before its hooks run; a failure is the hook's to meet. */
function ensurePluginData(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch {
    // The hook sees the path either way.
  }
}

/** stdin for the hook: the HookInput, plus Claude Code's snake_case fields for hooks registered under its names. */
export function commandStdin(def: CommandHookDefinition, input: HookInput, inputJson: string): string {
  return hookInputJson(def.command.claudeEvent, input, inputJson, def);
}

/** Host variables a Claude Code hook gets in process mode (values pass the secret filter at spawn). */
export const CLAUDE_CODE_HOST_ENV: readonly string[] = Object.freeze([
  'PATH',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'XDG_CONFIG_HOME',
  'XDG_DATA_HOME',
  'XDG_CACHE_HOME',
]);

/** Events whose command hooks get CLAUDE_ENV_FILE (Claude Code's list); what they write is `sessionEnv`. */
const ENV_FILE_EVENTS: ReadonlySet<string> = new Set(['SessionStart', 'Setup', 'CwdChanged', 'FileChanged']);

/** `$CLAUDE_TOOL_INPUT` above this is not passed: the hook is not run (an environment value this
 * large fails exec with E2BIG on Linux at 128 KiB). */
const MAX_TOOL_INPUT_ENV_BYTES = 100 * 1024;

/** The program as it will run: placeholders replaced (Claude Code files), the shell resolved; or why it cannot. */
function runnableProgram(
  def: CommandHookDefinition,
  root: string,
): { ok: true; program: CommandRequest['program'] } | { ok: false; message: string } {
  const c = def.command;
  if (def.dialect !== 'claude-code') return shellProgram(c.program, def.event);
  const values = { projectDir: root, pluginRoot: c.pluginRoot, pluginData: c.pluginData };
  const missing = missingPlaceholder(c.program, values);
  if (missing !== undefined) return { ok: false, message: missing };
  return shellProgram(substitutePlaceholders(c.program, values), def.event);
}

/**
 * Namespace mode, per dispatch: whose network namespace the hook shares (a tenant's own hooks one;
 * the operator's hooks running for that tenant another), and whether it sees nothing of the host's
 * layout (a tenant's own hooks: docs/security.md, "Nothing of the operator's reaches a tenant").
 */
function sandboxPlace(
  def: CommandHookDefinition,
  tenant: string,
): Pick<CommandRequest, 'sandboxKey' | 'hidePaths'> {
  const own = tenant !== '' && def.scope !== 'policy' && def.scope !== 'trusted';
  return own ? { sandboxKey: `tenant:${tenant}`, hidePaths: true } : { sandboxKey: `operator:${tenant}` };
}

function commandRequest(
  def: CommandHookDefinition,
  input: HookInput,
  stdin: string,
  root: string,
  program: CommandRequest['program'] = def.command.program,
  floor?: IsolationLevel,
): CommandRequest {
  const c = { ...def.command, ...raiseIsolation(def.command, floor) };
  const rules = DIALECT_RULES[def.dialect];
  const env: Record<string, string> = { ...c.env };
  env.HOOK_EVENT = def.event;
  if (input.toolName !== undefined) env.HOOK_TOOL_NAME = input.toolName;
  env.HOOK_SESSION_ID = input.sessionId;
  env.HOOK_PROJECT_DIR = root;
  // Claude Code compatibility: its hooks refer to these.
  env.CLAUDE_PROJECT_DIR = root;
  env.CLAUDE_PLUGIN_ROOT = c.pluginRoot;
  if (c.pluginData !== undefined) env.CLAUDE_PLUGIN_DATA = c.pluginData;
  // FreeCode: the tool input as JSON (its examples pass "$CLAUDE_TOOL_INPUT" to the command).
  if (rules.toolInputEnv) env.CLAUDE_TOOL_INPUT = JSON.stringify(input.toolInput ?? {});
  if (def.pack !== undefined) env.HOOK_PACK_DIR = def.pack.dir;
  // Claude Code hooks expect the user's tools and configuration (process mode; namespace mode has
  // neither the host's home nor its PATH directories).
  const hostEnv = rules.hostEnv && c.isolation === 'process';
  return {
    program,
    cwd: root,
    env,
    inheritEnv: hostEnv ? [...new Set([...CLAUDE_CODE_HOST_ENV, ...c.inheritEnv])] : c.inheritEnv,
    ...(hostEnv ? { hostHome: true } : {}),
    ...(ENV_FILE_EVENTS.has(def.event) ? { envFile: true } : {}),
    stdin,
    deadlineMs: def.deadlineMs,
    maxOutputBytes: c.maxOutputBytes,
    rlimits: c.rlimits,
    isolation: c.isolation,
    containment: c.containment,
    writable: c.writable,
    runAs: c.runAs,
    ...(def.pack === undefined ? {} : { packDir: def.pack.dir }),
  };
}

/**
 * Why a tenant's namespace hook cannot run as written: its command names CLAUDE_PLUGIN_ROOT or
 * CLAUDE_PLUGIN_DATA (placeholders filled in on the host), a folder of the operator's outside the
 * sandbox root, which it could not reach and must not learn. The message names no path.
 */
function operatorPathInCommand(
  def: CommandHookDefinition,
  request: CommandRequest,
  root: string,
): string | undefined {
  if (request.hidePaths !== true || request.isolation !== 'namespace') return undefined;
  const p = request.program;
  const text = p.kind === 'shell' ? p.command : p.argv.join('\0');
  const inside = (dir: string) => dir === root || dir.startsWith(`${root}/`);
  for (const [name, dir] of [
    ['CLAUDE_PLUGIN_ROOT', def.command.pluginRoot],
    ['CLAUDE_PLUGIN_DATA', def.command.pluginData],
  ] as const) {
    if (dir !== undefined && !inside(dir) && text.includes(dir))
      return `its command refers to ${name}, a folder outside this tenant's sandbox (a tenant's namespace hooks see only the sandbox root, at /project); the hook was not run`;
  }
  return undefined;
}

export async function runCommandHook(call: HookCall<CommandHookDefinition>): Promise<HookAnswer> {
  const { def, input, ctx } = call;
  if (def.pack !== undefined) {
    // The pack's files run from disk: they must still be the ones verified at load.
    const changed = await fingerprintChanges(def.pack.fingerprint);
    if (changed.length > 0) {
      const message = `pack "${def.pack.name}" changed on disk since it was verified (${changed.join(', ')}); the hook was not run`;
      return notRunAnswer(hookError('pack_tampered', message, { changed }));
    }
  }
  const runnable = runnableProgram(def, ctx.root);
  if (!runnable.ok) return notRunAnswer(hookError('spawn_failed', runnable.message));
  if (def.command.pluginData !== undefined && def.command.isolation === 'process')
    ensurePluginData(def.command.pluginData);
  const request: CommandRequest = {
    ...commandRequest(
      def,
      input,
      commandStdin(def, input, call.inputJson),
      ctx.root,
      runnable.program,
      call.isolationFloor,
    ),
    ...sandboxPlace(def, call.tenant),
    // The caller's environment, where the dispatch answers for another process (a daemon's caller).
    ...(call.env === undefined ? {} : { hostEnv: call.env }),
  };
  const outside = operatorPathInCommand(def, request, ctx.root);
  if (outside !== undefined) return notRunAnswer(hookError('spawn_failed', outside));
  const toolInputEnv = request.env.CLAUDE_TOOL_INPUT;
  if (toolInputEnv !== undefined && Buffer.byteLength(toolInputEnv) > MAX_TOOL_INPUT_ENV_BYTES) {
    // The hook would not see the input it guards: FreeCode's rule for a hook that cannot run right
    // is a block (a crash blocks), so it is one here too.
    const message = `$CLAUDE_TOOL_INPUT would be ${Buffer.byteLength(toolInputEnv)} bytes, above ${MAX_TOOL_INPUT_ENV_BYTES}; the hook was not run`;
    return { ...blockAnswer(message, def, input), latencyMs: 0, queuedMs: 0 };
  }
  const startedAt = performance.now();
  const run = () => ctx.pool.command.run(request, call.lane);
  let lane = await run();
  let retried: HookError | undefined;
  if (lane.ran && lane.value.kind === 'spawn_server_lost' && call.lane.signal?.aborted !== true) {
    // Lost machinery is not a verdict (no hook can reach the server): once more on a new server,
    // and only then does the hook's onError apply.
    const first = interpretCommand(lane.value, def, input);
    if (first.kind === 'failure') retried = first.error;
    lane = await run();
  }
  if (!lane.ran) return withRetried(refusedAnswer(lane), retried);
  const answer = interpretCommand(lane.value, def, input);
  if (call.onTiming !== undefined)
    reportCommandTiming(call.onTiming, def.id, startedAt, lane.queuedMs, lane.value);
  const sandbox = lane.value.sandbox;
  return withRetried(
    {
      ...answer,
      latencyMs: lane.value.durationMs,
      queuedMs: lane.queuedMs,
      ...(sandbox === undefined ? {} : { sandbox }),
    },
    retried,
  );
}
