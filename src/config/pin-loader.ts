// What the loader needs from the packs stage, as a contract the packs stage implements
// (src/packs/pins.ts: packPinLoader). The config loader reads files; pins name packs, and loading and
// verifying a pack is the packs stage's work, which itself reads pack hooks through this folder's
// normalisers. The caller hands the loader in (LoadOptions.pins), so config never imports packs.
import type { EventCatalogue } from '../contract/events.js';
import type { HookDefinition } from '../registry/hook-definition.js';
import type { DiagnosticSink } from './diagnostics.js';
import type { HookGate } from './grants.js';
import type { HookTypePolicy } from './hook-type-policy.js';
import type { LimitsByScope } from './scope-limits.js';
import type { WatchTarget } from './watch-target.js';

/** `sha256:` followed by 64 lowercase hex digits: the form of every pack digest and key id. */
export const DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/;

/** A pack's name (hookpack.json `name`, a pin's `name`): also a hook's `name` pattern. */
export const PACK_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:@/+-]{0,127}$/;

/** How a pinned pack fared at load (reported by `validateConfig` and `hookwarden validate`). */
export interface PackStatus {
  /** The config file that pins the pack, and the pin's JSON path (`packs[0]`). */
  readonly file: string;
  readonly path: string;
  /** Absolute pack directory (undefined when the pin has no valid path); for a url pin, the cached bundle. */
  readonly dir: string | undefined;
  /** The bundle URL of a url pin. */
  readonly url?: string | undefined;
  readonly scope: 'policy' | 'user';
  readonly name: string | undefined;
  readonly version: string | undefined;
  /** Digest of the pack as found on disk. */
  readonly digest: string | undefined;
  /** Key id of the trusted key whose signature verified. */
  readonly verifiedBy: string | undefined;
  /** Why the pack was refused (undefined: it loaded). */
  readonly refusal: string | undefined;
  readonly hookCount: number;
}

/** A URL pin the executor polls: its URL, how often, and the digest in force. */
export interface RemotePinTarget {
  readonly url: string;
  readonly pollSeconds: number;
  /** Digest of the bundle in force (undefined: the pin is refused). */
  readonly digest: string | undefined;
}

/** Where a `packs` array was found, and what its packs' hooks get. */
export interface PinsContext {
  readonly sink: DiagnosticSink;
  readonly configDir: string;
  /** Every pack of a policy source is policy scope; only a policy source may pin at policy scope. */
  readonly policySource: boolean;
  readonly catalogue: EventCatalogue;
  /** Limits by scope: a pack's hooks get those of the pin's scope. */
  readonly scopeLimits: LimitsByScope;
  /** Allowed http hook URLs and variables, registered evaluators: a pack's hooks load under them. */
  readonly hookTypes?: HookTypePolicy | undefined;
  /**
   * The grant the pinning file's own hooks answer to (a project file's, a tenant's): a user-scope
   * pack's hooks answer to it too; a policy-scope pack's never (the operator pinned it).
   */
  readonly gate?: HookGate | undefined;
  /** The http policy before `gate` narrowed it: what a policy-scope pack's hooks load under. */
  readonly baseHookTypes?: HookTypePolicy | undefined;
}

/** What one `packs` array loaded. */
export interface PinsResult {
  /** Hooks of the packs that loaded, one layer per pack. */
  readonly layers: readonly {
    scope: 'policy' | 'user';
    sink: DiagnosticSink;
    hooks: readonly HookDefinition[];
  }[];
  /** Reasons of refused policy-scope packs: deny-capable events deny. */
  readonly policyFailures: readonly string[];
  readonly statuses: readonly PackStatus[];
  readonly watch: readonly WatchTarget[];
  /** Url pins to poll for new bundles (those without a digest). */
  readonly remote: readonly RemotePinTarget[];
}

/** Loads and verifies the packs of one `packs` array (the value as found in the file). */
export type PinLoader = (value: unknown, ctx: PinsContext) => Promise<PinsResult>;
