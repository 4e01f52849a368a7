// One loaded generation of configuration: what a dispatch runs against from start to finish.

import type { IsolationLevel, Limits } from '../config/defaults.js';
import type { Grants } from '../config/grants.js';
import type { LimitsByScope } from '../config/scope-limits.js';
import type { SessionEnvPolicy } from '../config/session-env-policy.js';
import type { TenantLimits } from '../config/tenant-limits.js';
import type { EventCatalogue } from '../contract/events.js';
import type { Registry } from '../registry/registry.js';

/** The hooks one tenant's dispatches run: the policy scope's and the tenant's own. */
export interface TenantGeneration {
  readonly registry: Registry;
  readonly limits: TenantLimits;
  /** The operator's isolation floor for this tenant's own command hooks (its policy file, setTenant). */
  readonly isolation?: IsolationLevel | undefined;
  /** This tenant's own policy failures (a policy-scope pack of its own that failed). */
  readonly policyFailures: readonly string[];
}

export interface Generation {
  /** Dispatches without a tenant: trusted, policy, project and user hooks. */
  readonly registry: Registry;
  readonly catalogue: EventCatalogue;
  /** The executor's limits (and the policy level of the per-scope ones). */
  readonly limits: Limits;
  /** The limits each scope's hooks run under. */
  readonly scopeLimits: LimitsByScope;
  /** Non-empty: a policy source failed to load, so deny-capable events deny (every tenant). */
  readonly policyFailures: readonly string[];
  readonly tenants: ReadonlyMap<string, TenantGeneration>;
  /** A tenant with no hooks of its own: trusted and policy hooks only. */
  readonly policyOnly: TenantGeneration;
  /** What the policy consents to hooks setting for the session (every tenant's dispatches). */
  readonly sessionEnv: SessionEnvPolicy;
  /** What the policy grants project files' and tenants' hooks (the session-env names among it). */
  readonly grants: Grants;
}
