// The record stage of a dispatch (DESIGN §1): `hook.started` as each hook is handed to its lane, then
// one audit record per executed hook to the audit sinks and `hook.completed` listeners — metadata
// only, never the hook's input or output content.
import { auditRecords } from '../audit/audit-log.js';
import type { DispatchResult } from '../contract/result.js';
import type { RegisteredHook } from '../registry/registry.js';
import type { DispatchContext, DispatchOptions } from './context.js';

export function notifyStarted(
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

export function recordDispatch(
  ctx: DispatchContext,
  event: string,
  tenant: string | undefined,
  hooks: readonly RegisteredHook[],
  result: DispatchResult,
): void {
  const listening = ctx.events?.has('hook.completed') === true;
  if (ctx.audit === undefined && !listening) return;
  const records = auditRecords(
    event,
    tenant,
    result.hooks,
    hooks.map((h) => h.deadlineMs),
  );
  ctx.audit?.write(records);
  if (listening) for (const r of records) ctx.events!.emit('hook.completed', r);
}
