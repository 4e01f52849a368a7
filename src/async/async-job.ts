// One async hook run as it travels through a queue: who asked (tenant, session), which hook (event,
// id, scope, and the digest of its spec), and the input it sees. In Redis mode this is the job's
// data, read back by any replica: parseJobData checks it like any other input from outside.
import { z } from 'zod';
import { tenantIdProblem } from '../config/tenants.js';
import type { HookInput, Scope } from '../contract/types.js';
import type { Generation } from '../dispatch/generation.js';
import type { AsyncHookSpec, HookDefinition } from '../registry/hook-definition.js';
import { canonicalJson, sha256Hex } from '../registry/hook-id.js';

export interface AsyncJob {
  /** Unique id of the run (a UUID): the DispatchResult's `asyncId`, the Redis job id. */
  readonly asyncId: string;
  readonly tenant: string | undefined;
  readonly sessionId: string;
  /** Canonical event name. */
  readonly event: string;
  readonly hookId: string;
  readonly scope: Scope;
  /** sha256 of the hook's spec (hookDigest): a replica runs the job only with the same spec. */
  readonly digest: string;
  /** The input as the hook sees it (earlier rewrites of its chain applied). */
  readonly input: HookInput;
  /** When the dispatch queued it (epoch ms). */
  readonly enqueuedAt: number;
}

const digests = new WeakMap<HookDefinition, string>();

/**
 * The digest of a hook's spec: what it runs and how (type, program or code, environment, limits,
 * deadline, onError, async settings), its id, event and scope. Host-specific paths that do not
 * change what runs (where a JS `source` file was read from) are left out, so replicas that mount
 * the same configuration elsewhere agree.
 */
export function hookDigest(h: HookDefinition): string {
  let d = digests.get(h);
  if (d === undefined) {
    const behaviour = JSON.parse(h.dedupKey) as Record<string, unknown>;
    const js = behaviour.js as Record<string, unknown> | undefined;
    if (js !== undefined) delete js.sourcePath;
    d = `sha256:${sha256Hex(canonicalJson({ id: h.id, event: h.event, scope: h.scope, behaviour }))}`;
    digests.set(h, d);
  }
  return d;
}

/** The wait before retry number `retry` (1 = the first retry). */
export function retryDelayMs(spec: AsyncHookSpec, retry: number): number {
  return spec.retryBackoff === 'fixed' ? spec.retryBackoffMs : spec.retryBackoffMs * 2 ** (retry - 1);
}

/** The registry a tenant's (or a tenant-less) dispatch runs. */
export function registryFor(gen: Generation, tenant: string | undefined) {
  return tenant === undefined ? gen.registry : (gen.tenants.get(tenant) ?? gen.policyOnly).registry;
}

/** The configured async hook a job names, in this generation, if its spec is the same. */
export function findJobHook(gen: Generation, job: AsyncJob): HookDefinition | undefined {
  for (const h of registryFor(gen, job.tenant).hooksFor(job.event)) {
    if (h.type === 'trusted' || h.id !== job.hookId || h.scope !== job.scope || h.async === undefined)
      continue;
    if (hookDigest(h) === job.digest) return h;
  }
  return undefined;
}

const jobDataSchema = z.strictObject({
  asyncId: z.string().regex(/^[0-9a-f-]{36}$/),
  tenant: z
    .string()
    .refine((t) => tenantIdProblem(t) === undefined)
    .optional(),
  sessionId: z.string().max(4096),
  event: z.string().min(1).max(256),
  hookId: z.string().min(1).max(256),
  scope: z.enum(['trusted', 'policy', 'project', 'user']),
  digest: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  input: z.record(z.string(), z.unknown()),
  enqueuedAt: z.number().int().nonnegative(),
});

/** A job's data as stored in Redis; undefined when it is not a job this version wrote. */
export function parseJobData(data: unknown): AsyncJob | undefined {
  const parsed = jobDataSchema.safeParse(data);
  if (!parsed.success) return undefined;
  const { tenant, ...rest } = parsed.data;
  return { ...rest, tenant, input: rest.input as HookInput };
}
