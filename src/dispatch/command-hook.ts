// Execute stage for command hooks: HookDefinition + input → pool → the DESIGN §5 protocol:
// exit 2 = deny (stderr = reason); exit 0 with empty stdout = proceed; exit 0 with JSON stdout =
// HookOutput (schema-validated, Claude Code's shape accepted); anything else = failure.

import { DEFAULTS } from '../config/defaults.js';
import { mapClaudeCodeOutput } from '../contract/claude-code.js';
import type { CommandOutcome } from '../contract/command-task.js';
import { type ErrorCode, type ErrorDetails, type HookError, hookError } from '../contract/error-codes.js';
import { type HookAnswer, notRunAnswer } from '../contract/fold.js';
import { parseHookOutput } from '../contract/parse-output.js';
import { capText } from '../contract/text-caps.js';
import type { HookInput, HookOutput } from '../contract/types.js';
import { fingerprintChanges } from '../packs/fingerprint.js';
import type { CommandRequest, HookPool } from '../pool/pool.js';
import type { CommandHookDefinition } from '../registry/hook-definition.js';
import { type HookTimingListener, reportCommandTiming } from './hook-timing.js';
import { refusedAnswer } from './refused.js';

export interface CommandContext {
  readonly pool: HookPool;
  /** The sandbox root: cwd of every command hook. */
  readonly root: string;
  readonly signal: AbortSignal | undefined;
  /** Tenant the hook runs for ('' = default): its turn in the fair scheduler. */
  readonly tenant: string;
  /** Called when the hook actually starts (after its turn came). */
  readonly onStart: (() => void) | undefined;
  readonly onTiming?: HookTimingListener | undefined;
}

/** Trimmed, and within `max` UTF-8 bytes (the deny reason from stderr gets the reason cap). */
function excerpt(text: string, max: number = DEFAULTS.maxReasonBytes): string {
  return capText(text.trim(), max);
}

/** stdin for the hook: the HookInput, plus Claude Code's snake_case fields for hooks registered under its names. */
export function commandStdin(def: CommandHookDefinition, input: HookInput, inputJson: string): string {
  const claudeEvent = def.command.claudeEvent;
  if (claudeEvent === undefined) return inputJson;
  const mirror: Record<string, unknown> = {
    session_id: input.sessionId,
    cwd: input.cwd,
    hook_event_name: claudeEvent,
  };
  if (input.toolName !== undefined) mirror.tool_name = input.toolName;
  if (input.toolInput !== undefined) mirror.tool_input = input.toolInput;
  if (input.toolResult !== undefined) mirror.tool_response = input.toolResult;
  return JSON.stringify({ ...input, ...mirror });
}

export function commandRequest(
  def: CommandHookDefinition,
  input: HookInput,
  stdin: string,
  root: string,
): CommandRequest {
  const c = def.command;
  const env: Record<string, string> = { ...c.env };
  env.HOOK_EVENT = def.event;
  if (input.toolName !== undefined) env.HOOK_TOOL_NAME = input.toolName;
  env.HOOK_SESSION_ID = input.sessionId;
  env.HOOK_PROJECT_DIR = root;
  // Claude Code compatibility: its hooks refer to these.
  env.CLAUDE_PROJECT_DIR = root;
  env.CLAUDE_PLUGIN_ROOT = c.configDir;
  if (def.pack !== undefined) env.HOOK_PACK_DIR = def.pack.dir;
  return {
    program: c.program,
    cwd: root,
    env,
    inheritEnv: c.inheritEnv,
    stdin,
    deadlineMs: def.deadlineMs,
    maxOutputBytes: c.maxOutputBytes,
    rlimits: c.rlimits,
    isolation: c.isolation,
    writable: c.writable,
    runAs: c.runAs,
    ...(def.pack === undefined ? {} : { packDir: def.pack.dir }),
  };
}

type Answer =
  | { kind: 'output'; output: HookOutput | undefined; unknownFields: string[] }
  | { kind: 'failure'; error: HookError };

/** Applies the command protocol to how the process ended. */
export function interpretCommand(outcome: CommandOutcome, event: string): Answer {
  const fail = <C extends ErrorCode>(code: C, message: string, details?: ErrorDetails[C]): Answer => ({
    kind: 'failure',
    error: hookError(code, message, details),
  });
  switch (outcome.kind) {
    case 'timeout':
      return fail('timeout', outcome.message);
    case 'aborted':
      return fail('aborted', outcome.message);
    case 'output_limit':
      return fail('output_limit', outcome.message, { limitBytes: outcome.limitBytes });
    case 'spawn_failed':
      return fail('spawn_failed', outcome.message);
    case 'isolation_unavailable':
      return fail('isolation_unavailable', outcome.message);
    case 'spawn_server_lost': {
      const { pid, exitCode, signal } = outcome.server;
      return fail('spawn_server_lost', outcome.message, {
        ...(pid === undefined ? {} : { pid }),
        ...(exitCode === null ? {} : { exitCode }),
        ...(signal === null ? {} : { signal }),
      });
    }
    case 'exited':
      break;
  }
  const { exitCode, signal, stdout, stderr } = outcome;
  if (exitCode === 2) {
    // Exit 2 is a deny whatever stdout says; on Stop-like events Claude Code reads it as "keep working".
    const reason = excerpt(stderr) || 'hook exited with code 2';
    const { mapped } = mapClaudeCodeOutput({ decision: 'block', reason }, event);
    return { kind: 'output', output: mapped as HookOutput, unknownFields: [] };
  }
  if (exitCode === null) {
    if (signal === 'SIGXCPU') return fail('timeout', 'CPU time limit (rlimits.cpuSeconds) exceeded');
    return fail(
      'nonzero_exit',
      `killed by ${signal ?? 'a signal'}${stderr.trim() ? `: ${excerpt(stderr, 500)}` : ''}`,
      signal === null ? {} : { signal },
    );
  }
  if (exitCode === 126 || exitCode === 127) {
    return fail(
      'spawn_failed',
      `could not execute the hook (exit ${exitCode}): ${excerpt(stderr, 500) || 'command not found'}`,
      { exitCode },
    );
  }
  if (exitCode !== 0)
    return fail(
      'nonzero_exit',
      `exited with code ${exitCode}${stderr.trim() ? `: ${excerpt(stderr, 500)}` : ''}`,
      { exitCode },
    );
  const text = stdout.trim();
  if (text === '') return { kind: 'output', output: undefined, unknownFields: [] };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return fail('invalid_output', `stdout is not JSON: ${JSON.stringify(excerpt(text, 120))}`);
  }
  const parsed = parseHookOutput(raw, event);
  if (!parsed.ok) return fail('invalid_output', parsed.message);
  return { kind: 'output', output: parsed.output, unknownFields: parsed.unknownFields };
}

export async function runCommandHook(
  def: CommandHookDefinition,
  input: HookInput,
  inputJson: string,
  ctx: CommandContext,
): Promise<HookAnswer> {
  if (def.pack !== undefined) {
    // The pack's files run from disk: they must still be the ones verified at load.
    const changed = await fingerprintChanges(def.pack.fingerprint);
    if (changed.length > 0) {
      const message = `pack "${def.pack.name}" changed on disk since it was verified (${changed.join(', ')}); the hook was not run`;
      return notRunAnswer(hookError('pack_tampered', message, { changed }));
    }
  }
  const startedAt = performance.now();
  const lane = await ctx.pool.command.run(
    commandRequest(def, input, commandStdin(def, input, inputJson), ctx.root),
    { signal: ctx.signal, tenant: ctx.tenant, onStart: ctx.onStart },
  );
  if (!lane.ran) return refusedAnswer(lane);
  const answer = interpretCommand(lane.value, def.event);
  if (ctx.onTiming !== undefined)
    reportCommandTiming(ctx.onTiming, def.id, startedAt, lane.queuedMs, lane.value);
  return { ...answer, latencyMs: lane.value.durationMs, queuedMs: lane.queuedMs };
}
