// One async hook run as a dispatch queues it (src/async/ runs it): who asked (tenant, session),
// which hook (event, id, scope, and the digest of its spec), and the input it sees.
import type { HookInput, Scope } from '../contract/types.js';
import type { HookDefinition } from '../registry/hook-definition.js';
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
  /** The W3C traceparent of the dispatch's span (traced dispatches): the run's span links to it. */
  readonly queuedBy?: string;
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
