// The `packs` array of one config source: each pin parsed (messages name `packs[i].<field>` and the
// value received), its key files read, its pack loaded and verified. Refusal semantics
// (docs/semantics.md#failures): a refused policy-scope pack makes deny-capable events deny; a refused
// user-scope pack is skipped with a warning. An invalid pin is a refused pack.

import type { KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { packPinSchema } from '../config/pack-pin-schema.js';
import type {
  PackStatus,
  PinLoader,
  PinsContext,
  PinsResult,
  RemotePinTarget,
} from '../config/pin-loader.js';
import { recordFileRead } from '../config/read-log.js';
import { didYouMean } from '../config/suggest.js';
import type { WatchTarget } from '../config/watch-target.js';
import { isObject, issueMessages, joinPath, renderValue } from '../contract/messages.js';
import { parsePublicKey } from './keys.js';
import type { PackLoad } from './load-pack.js';
import { packIdentityProblem } from './pin-identity.js';
import type { RemotePacks } from './remote/remote-packs.js';
import { checkUrlPin } from './remote/url-pin-fields.js';

const PIN_FIELDS = new Set(Object.keys(packPinSchema.shape));

interface ParsedPin {
  readonly dir: string | undefined;
  readonly url: string | undefined;
  readonly pollSeconds: number | undefined;
  readonly scope: 'policy' | 'user';
  readonly keys: readonly KeyObject[];
  readonly keyFiles: readonly string[];
  readonly digest: string | undefined;
  readonly requireSignature: boolean;
  /** The pack name the pin binds, and the lowest version it accepts. */
  readonly name: string | undefined;
  readonly minVersion: string | undefined;
  /** The first problem of an invalid pin. */
  readonly invalid: string | undefined;
}

/** The pin's public key files, read and parsed (each problem reported at its index). */
async function readPinKeys(
  publicKeys: readonly string[],
  at: string,
  ctx: PinsContext,
): Promise<{ keys: KeyObject[]; keyFiles: string[] }> {
  const fail = (path: string, message: string) => ctx.sink.error(path, message);
  const keys: KeyObject[] = [];
  const keyFiles: string[] = [];
  for (const [i, p] of publicKeys.entries()) {
    const file = resolve(ctx.configDir, p);
    keyFiles.push(file);
    let text: Buffer;
    try {
      text = await readFile(file);
      recordFileRead(file, text);
    } catch (err) {
      recordFileRead(file, err as NodeJS.ErrnoException);
      fail(
        joinPath(joinPath(at, 'publicKeys'), i),
        `cannot read the key file ${file} (${(err as NodeJS.ErrnoException).code}), got ${renderValue(p)}`,
      );
      continue;
    }
    const key = parsePublicKey(text, file);
    if (key.ok) keys.push(key.key);
    else fail(joinPath(joinPath(at, 'publicKeys'), i), `${key.message}, got ${renderValue(p)}`);
  }
  return { keys, keyFiles };
}

async function parsePin(raw: unknown, at: string, ctx: PinsContext): Promise<ParsedPin> {
  const { sink } = ctx;
  const before = sink.items.length;
  const fail = (path: string, message: string) => sink.error(path, message);
  // In a policy source every pack is policy scope. Elsewhere only "user" exists: a pin that asks for
  // policy scope (or anything else) from a project or user file is refused, never promoted.
  const scope = ctx.policySource ? 'policy' : 'user';
  const empty = {
    dir: undefined,
    url: undefined,
    pollSeconds: undefined,
    scope,
    keys: [],
    keyFiles: [],
    digest: undefined,
    requireSignature: false,
    name: undefined,
    minVersion: undefined,
  } as const;
  if (!isObject(raw)) {
    fail(
      at,
      `expected a pack pin like {"path": "packs/guard", "digest": "sha256:…"}, got ${renderValue(raw)}`,
    );
    return { ...empty, invalid: sink.items[before]!.message };
  }
  for (const k of Object.keys(raw)) {
    if (!PIN_FIELDS.has(k))
      fail(
        joinPath(at, k),
        `unknown field "${k}"${didYouMean(k, PIN_FIELDS)} (a pin has ${[...PIN_FIELDS].join(', ')}), got ${renderValue(raw[k])}`,
      );
  }
  const parsed = packPinSchema.safeParse(raw);
  if (!parsed.success) {
    // Unknown fields were reported above, field by field.
    const issues = parsed.error.issues.filter((i) => i.code !== 'unrecognized_keys');
    for (const m of issueMessages(issues, raw, at)) fail(m.path, m.message);
  }
  const pin = parsed.success ? parsed.data : undefined;
  checkUrlPin(raw, at, sink);
  if (!ctx.policySource && raw.scope !== undefined && raw.scope !== 'user')
    fail(
      joinPath(at, 'scope'),
      `only a policy file (--policy, or the library's \`policy\` option) may pin a pack at policy scope; this pin is skipped, got ${renderValue(raw.scope)}`,
    );
  if (ctx.policySource && raw.scope === 'user')
    sink.warn(joinPath(at, 'scope'), 'every pack of a policy file is policy scope; "user" is ignored');
  if (pin?.requireSignature === true && pin.publicKeys === undefined)
    fail(
      joinPath(at, 'requireSignature'),
      'requireSignature needs publicKeys to check the signature with, got true',
    );
  const { keys, keyFiles } = await readPinKeys(pin?.publicKeys ?? [], at, ctx);
  const firstError = sink.items.slice(before).find((d) => d.severity === 'error');
  return {
    // Known even for an otherwise invalid pin, so the directory is watched for the fix.
    dir: typeof raw.path === 'string' && raw.path !== '' ? resolve(ctx.configDir, raw.path) : undefined,
    url: typeof raw.url === 'string' ? raw.url : undefined,
    pollSeconds: pin?.pollSeconds,
    scope,
    keys,
    keyFiles,
    digest: pin?.digest,
    requireSignature: pin?.requireSignature ?? keys.length > 0,
    name: pin?.name,
    minVersion: pin?.minVersion,
    invalid: firstError === undefined ? undefined : `invalid pin: ${firstError.path}: ${firstError.message}`,
  };
}

/** The pin loader the config loader is handed: pins load and verify packs, url pins through `remote`. */
export function packPinLoader(remote?: RemotePacks): PinLoader {
  return (value, ctx) => loadPackPins(value, { ...ctx, remote });
}

interface LoadContext extends PinsContext {
  /** Fetches the bundles of url pins (default: one with the default options, for this load only). */
  readonly remote?: RemotePacks | undefined;
}

async function loadPackPins(value: unknown, ctx: LoadContext): Promise<PinsResult> {
  const { sink } = ctx;
  const layers: PinsResult['layers'][number][] = [];
  const policyFailures: string[] = [];
  const statuses: PackStatus[] = [];
  const watch: WatchTarget[] = [];
  const remote: RemotePinTarget[] = [];
  if (!Array.isArray(value)) {
    sink.error(
      'packs',
      `expected an array of pack pins like [{"path": "packs/guard", "digest": "sha256:…"}], got ${renderValue(value)}`,
    );
    if (ctx.policySource) policyFailures.push(`packs in ${sink.file} are invalid: expected an array`);
    return { layers, policyFailures, statuses, watch, remote };
  }
  for (const [i, raw] of value.entries()) {
    const at = joinPath('packs', i);
    const pin = await parsePin(raw, at, ctx);
    for (const f of pin.keyFiles) watch.push({ dir: dirname(f), name: basename(f) });
    if (pin.dir !== undefined) watch.push({ dir: dirname(pin.dir), name: basename(pin.dir) });
    const packCtx = {
      ...ctx,
      limits: ctx.scopeLimits[pin.scope],
      // A user-scope pack answers to the grant of the file that pinned it (a repository cannot
      // escape its grant by pinning its own pack); a policy-scope pack is the operator's.
      gate: pin.scope === 'policy' ? undefined : ctx.gate,
      hookTypes: pin.scope === 'policy' ? (ctx.baseHookTypes ?? ctx.hookTypes) : ctx.hookTypes,
    };
    let load: PackLoad | undefined;
    let urlRefusal: string | undefined;
    if (pin.invalid === undefined && pin.url !== undefined) {
      const r = await loadFetchedPack({ ...pin, url: pin.url, publicKeys: pin.keys }, ctx, packCtx);
      load = r.load;
      urlRefusal = r.refusal;
      if (r.warning !== undefined) sink.warn(at, `pack ${pin.url}: ${r.warning}`);
      if (pin.digest === undefined) remote.push(r.target);
    } else if (pin.invalid === undefined && pin.dir !== undefined) {
      if (pin.digest === undefined && pin.keys.length === 0)
        sink.warn(
          at,
          `pack ${pin.dir} is not pinned: only its own lock file is checked; add "digest" and/or "publicKeys"`,
        );
      // Imported here: a configuration without packs never loads the pack machinery.
      const { loadPack } = await import('./load-pack.js');
      load = await loadPack({ ...pin, dir: pin.dir, publicKeys: pin.keys }, packCtx);
      const identity = load.refusal === undefined ? packIdentityProblem(load, pin) : undefined;
      if (identity !== undefined) load = { ...load, hooks: [], refusal: identity };
      for (const d of load.dirs) watch.push({ dir: d, name: undefined });
    }
    for (const w of load?.report.warnings ?? []) sink.warn(at, `pack ${pin.url ?? pin.dir}: ${w}`);
    const refusal = pin.invalid ?? urlRefusal ?? load?.refusal;
    // Named as the pin wrote it: a refused pack's own hookpack.json is not to be trusted.
    const label = `pack ${renderValue(isObject(raw) ? (raw.path ?? raw.url) : raw)}`;
    if (refusal !== undefined) {
      if (pin.scope === 'policy') {
        sink.error(at, `${label} refused, so deny-capable events deny: ${refusal}`);
        policyFailures.push(`policy ${label} (${sink.file}) refused: ${refusal}`);
      } else sink.warn(at, `${label} refused, its hooks do not run: ${refusal}`, true);
    } else if (load !== undefined) {
      layers.push({ scope: pin.scope, sink: load.sink!, hooks: load.hooks });
    }
    statuses.push({
      file: sink.file,
      path: at,
      dir: pin.url === undefined ? pin.dir : load?.report.dir,
      ...(pin.url === undefined ? {} : { url: pin.url }),
      scope: pin.scope,
      name: refusal === undefined ? load?.name : undefined,
      version: refusal === undefined ? load?.version : undefined,
      digest: load?.report.digest,
      verifiedBy: load?.report.verifiedBy,
      refusal,
      hookCount: refusal === undefined ? (load?.hooks.length ?? 0) : 0,
    });
  }
  return { layers, policyFailures, statuses, watch, remote };
}

/** A url pin: imported only when a config has one (it brings in fetch, tar and the cache). */
async function loadFetchedPack(
  pin: Parameters<typeof import('./remote/url-pin.js').loadUrlPin>[0],
  ctx: LoadContext,
  packCtx: Parameters<typeof import('./load-pack.js').loadPack>[1],
) {
  const { loadUrlPin } = await import('./remote/url-pin.js');
  const remote = ctx.remote ?? (await defaultRemotePacks());
  return loadUrlPin(pin, remote, packCtx);
}

/** The fetcher of a load that was given none (validate, a one-shot load): default options. */
async function defaultRemotePacks(): Promise<RemotePacks> {
  const [{ RemotePacks }, { resolveRemoteOptions }] = await Promise.all([
    import('./remote/remote-packs.js'),
    import('./remote/options.js'),
  ]);
  return new RemotePacks(resolveRemoteOptions());
}
