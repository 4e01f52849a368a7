// createExecutor's `tenantIsolation` option (docs/security.md): a level for every tenant's own command
// hooks, or a default and levels per tenant, checked into the floors a dispatch applies.
import { ISOLATION_LEVELS, type IsolationLevel } from '../config/defaults.js';
import { tenantIdProblem } from '../config/tenants.js';
import { quotedList } from '../contract/decisions.js';
import { HookwardenError } from '../contract/hookwarden-error.js';
import { renderValue } from '../contract/messages.js';
import type { TenantIsolation } from '../dispatch/context.js';

/** A default level and levels per tenant (ExecutorOptions `tenantIsolation`). */
export interface TenantIsolationOptions {
  default?: IsolationLevel;
  tenants?: Readonly<Record<string, IsolationLevel>>;
}

const levelProblem = (at: string, v: unknown) =>
  (ISOLATION_LEVELS as readonly unknown[]).includes(v)
    ? undefined
    : `${at}: expected ${quotedList(ISOLATION_LEVELS)}, got ${renderValue(v)}`;

/** `tenantIsolation`, checked. */
export function resolveTenantIsolation(
  value: IsolationLevel | TenantIsolationOptions | undefined,
): TenantIsolation {
  const fail = (message: string): never => {
    throw new HookwardenError('invalid_options', message);
  };
  if (value === undefined) return Object.freeze({ default: 'process', tenants: new Map() });
  if (typeof value === 'string') {
    const p = levelProblem('tenantIsolation', value);
    if (p !== undefined) fail(p);
    return Object.freeze({ default: value, tenants: new Map() });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    fail(`tenantIsolation: expected a level or {default, tenants}, got ${renderValue(value)}`);
  for (const k of Object.keys(value))
    if (k !== 'default' && k !== 'tenants')
      fail(`tenantIsolation.${k}: unknown option (expected "default" or "tenants")`);
  const tenants = new Map<string, IsolationLevel>();
  for (const [id, level] of Object.entries(value.tenants ?? {})) {
    const p = tenantIdProblem(id) ?? levelProblem(`tenantIsolation.tenants.${id}`, level);
    if (p !== undefined) fail(p.startsWith('tenantIsolation') ? p : `tenantIsolation.tenants.${id}: ${p}`);
    tenants.set(id, level);
  }
  const d = value.default ?? 'process';
  const p = levelProblem('tenantIsolation.default', d);
  if (p !== undefined) fail(p);
  return Object.freeze({ default: d, tenants });
}
