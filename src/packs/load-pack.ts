// A pinned pack → hook definitions. The pack is verified against its pin first; its hookpack.json is
// parsed from the bytes that were hashed, JS sources are checked against their locked digests after
// being read, and every command path stays inside the pack. Any problem refuses the whole pack: a
// reviewed bundle loads completely or not at all.
import type { KeyObject } from 'node:crypto';
import { realpath } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { DiagnosticSink, formatDiagnostic } from '../config/diagnostics.js';
import type { HookTypePolicy } from '../config/hook-type-policy.js';
import { normalizeHooksMap } from '../config/normalize-entries.js';
import type { ScopeLimits } from '../config/scope-limits.js';
import type { EventCatalogue } from '../contract/events.js';
import type { HookDefinition, PackOrigin } from '../registry/hook-definition.js';
import { resolvePackCommands } from './command-paths.js';
import { packDigest, sha256Hex } from './digest.js';
import { type PackManifest, parseManifest } from './manifest.js';
import { MANIFEST_FILE } from './names.js';
import { inspectPack, type PackVerification } from './verify.js';
import type { PackWalk } from './walk.js';

export interface PackPin {
  /** Absolute path of the pack directory. */
  readonly dir: string;
  readonly digest: string | undefined;
  readonly publicKeys: readonly KeyObject[];
  readonly requireSignature: boolean;
  readonly scope: 'policy' | 'user';
  /** A signature file to verify instead of the pack's hookpack.sig (a newly fetched one). */
  readonly signature?: Buffer | undefined;
}

export interface PackLoad {
  readonly report: PackVerification;
  readonly name: string | undefined;
  readonly version: string | undefined;
  /** Empty when the pack is refused. */
  readonly hooks: readonly HookDefinition[];
  /** Why the pack is refused (undefined: it loaded). */
  readonly refusal: string | undefined;
  /** Problems and warnings inside hookpack.json (file = the manifest's path); undefined if not parsed. */
  readonly sink: DiagnosticSink | undefined;
  /** Every directory of the pack: watched for hot reload. */
  readonly dirs: readonly string[];
}

export interface PackLoadContext {
  readonly catalogue: EventCatalogue;
  readonly limits: ScopeLimits;
  /** Allowed http hook URLs and variables, registered evaluators (undefined: none). */
  readonly hookTypes?: HookTypePolicy | undefined;
}

const refused = (
  report: PackVerification,
  refusal: string,
  dirs: readonly string[],
  sink?: DiagnosticSink,
): PackLoad => ({ report, name: undefined, version: undefined, hooks: [], refusal, sink, dirs });

/** The hooks of a pack (manifest parsed from the hashed bytes), checked; problems land in `sink`. */
export async function normalizePackHooks(
  walk: PackWalk,
  manifest: PackManifest,
  scope: 'policy' | 'user',
  ctx: PackLoadContext,
): Promise<{ hooks: HookDefinition[]; sink: DiagnosticSink; root: string }> {
  // Resolved once: JS sources are realpath-checked under it, and HOOK_PACK_DIR names it.
  const root = await realpath(walk.root);
  const sink = new DiagnosticSink(join(root, MANIFEST_FILE));
  const pack: PackOrigin = Object.freeze({
    name: manifest.name,
    version: manifest.version,
    dir: root,
    digest: packDigest(walk.files),
    fingerprint: walk.fingerprint,
  });
  const hooksMap = resolvePackCommands(manifest.hooks, { root, files: walk.files, sink });
  const hooks = await normalizeHooksMap(hooksMap, 'hooks', {
    scope,
    sink,
    configDir: root,
    limits: ctx.limits,
    catalogue: ctx.catalogue,
    pack,
    hookTypes: ctx.hookTypes,
  });
  // A JS source or wasm module is read again by the loader: it must still be the byte-exact file
  // that was hashed.
  for (const h of hooks) {
    // Inline `code` was in hookpack.json's bytes; a `source` file was read from disk.
    const read =
      h.type === 'js' && h.js.sourcePath !== undefined
        ? { path: h.js.sourcePath, digest: sha256Hex(h.js.code) }
        : h.type === 'wasm'
          ? { path: h.wasm.sourcePath, digest: h.wasm.digest }
          : undefined;
    if (read === undefined) continue;
    const rel = relative(root, read.path).split(sep).join('/');
    if (walk.files.get(rel) !== read.digest)
      sink.error(`${h.location.path}.source`, `${rel} changed while the pack was being loaded`);
  }
  return { hooks, sink, root };
}

/** Problems of a pack's hooks that refuse the pack (errors and skipped entries), one line each. */
export function packHookProblems(sink: DiagnosticSink): string[] {
  return sink.items
    .filter((d) => d.severity === 'error' || d.skipped)
    .map((d) => formatDiagnostic({ ...d, file: MANIFEST_FILE }));
}

export async function loadPack(pin: PackPin, ctx: PackLoadContext): Promise<PackLoad> {
  const { report, walk } = await inspectPack(pin.dir, pin);
  if (!report.ok) return refused(report, report.problems.join('; '), walk.dirs);
  const read = parseManifest(walk.manifest);
  if (!read.ok) return refused(report, read.problems.join('; '), walk.dirs);
  const { hooks, sink } = await normalizePackHooks(walk, read.manifest, pin.scope, ctx);
  for (const w of read.warnings) sink.warn('', w.slice(`${MANIFEST_FILE}: `.length));
  const problems = packHookProblems(sink);
  if (problems.length > 0) return refused(report, problems.join('; '), walk.dirs, sink);
  return {
    report,
    name: read.manifest.name,
    version: read.manifest.version,
    hooks,
    refusal: undefined,
    sink,
    dirs: walk.dirs,
  };
}
