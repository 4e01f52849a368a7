// The record stage of a dispatch (docs/development.md): `hook.started` as each hook is handed to its lane,
// then one audit record per executed hook to the audit sinks and `hook.completed` listeners — metadata
// only, never the hook's input or output content.
import { type AuditFailure, auditRecords } from '../audit/audit-log.js';
import type { EventDefinition } from '../contract/events.js';
import { type DispatchResult, dispatchResult } from '../contract/result.js';
import type { RegisteredHook } from '../registry/registry.js';
import type { DispatchContext, DispatchOptions } from './context.js';

function notifyStarted(
  ctx: DispatchContext,
  options: DispatchOptions,
  hooks: readonly RegisteredHook[],
): void {
  if (ctx.events === undefined || !ctx.events.has('hook.started')) return;
  const time = new Date().toISOString();
  for (const h of hooks) {
    ctx.events.emit('hook.started', {
      time,
      ...(options.tenant !== undefined ? { tenant: options.tenant } : {}),
      event: h.event,
      hookId: h.id,
      scope: h.scope,
      type: h.type,
    });
  }
}

/** A callback for the lane to call when the hooks actually start; undefined when nobody listens. */
export function startNotifier(
  ctx: DispatchContext,
  options: DispatchOptions,
  hooks: readonly RegisteredHook[],
): (() => void) | undefined {
  if (ctx.events === undefined || !ctx.events.has('hook.started')) return undefined;
  return () => notifyStarted(ctx, options, hooks);
}

/**
 * Writes the dispatch's audit records and tells `hook.completed` listeners. A dispatch whose hooks
 * ran always gets its answer: when the records cannot be written (after the audit log's retries),
 * the failure is reported (`audit.failed`, which the executor logs and the service counts) and the
 * result carries a warning; with `audit.required`, a deny-capable event denies instead.
 */
export async function recordDispatch(
  ctx: DispatchContext,
  def: EventDefinition,
  tenant: string | undefined,
  hooks: readonly RegisteredHook[],
  result: DispatchResult,
  traceparent?: string,
): Promise<DispatchResult> {
  const listening = ctx.events?.has('hook.completed') === true;
  if (ctx.audit === undefined && !listening && ctx.decisions === undefined) return result;
  const records = auditRecords(
    def.name,
    tenant,
    result.hooks,
    hooks.map((h) => h.deadlineMs),
  );
  const failure = await ctx.audit?.write(records);
  if (listening) for (const r of records) ctx.events!.emit('hook.completed', r);
  const final = failure === undefined ? result : withAuditFailure(ctx, def, tenant, result, failure);
  ctx.decisions?.dispatched(
    {
      path: def.name,
      ...(tenant !== undefined ? { tenant } : {}),
      result: {
        decision: final.decision,
        ...(final.decidedBy !== undefined ? { decided_by: final.decidedBy } : {}),
        ...(final.interrupted === true ? { interrupted: true } : {}),
      },
      hooks: records,
    },
    traceparent,
  );
  return final;
}

/** The result of a dispatch whose records could not be written: a warning, or a deny (`audit.required`). */
function withAuditFailure(
  ctx: DispatchContext,
  def: EventDefinition,
  tenant: string | undefined,
  result: DispatchResult,
  failure: AuditFailure,
): DispatchResult {
  const denied = ctx.audit!.required && def.canDeny;
  reportAuditFailure(ctx, failure, { event: def.name, tenant, denied });
  const warning = `audit: the records of this dispatch could not be written${failure.file === undefined ? '' : ` to ${failure.file}`} (${failure.message}); ${failure.pending} record${failure.pending === 1 ? ' is' : 's are'} kept and written with the next record that can be${failure.dropped > 0 ? `, ${failure.dropped} dropped` : ''}`;
  const warnings = [...(result.warnings ?? []), warning];
  if (!denied) return dispatchResult({ ...result, warnings });
  return dispatchResult({
    ...result,
    decision: 'deny',
    reason: `the audit records of this dispatch could not be written and audit.required is set, so it denies: ${failure.message}`,
    decidedBy: 'audit',
    warnings,
  });
}

/** Emits `audit.failed` for a write that failed after its retries. */
export function reportAuditFailure(
  ctx: Pick<DispatchContext, 'events'>,
  failure: AuditFailure,
  about: { event?: string | undefined; tenant?: string | undefined; denied: boolean },
): void {
  ctx.events?.emit('audit.failed', { time: new Date().toISOString(), ...about, ...failure });
}
