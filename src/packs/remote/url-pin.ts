// Pins that name a URL instead of a path: `{ "url": "https://…/guard.tar.gz", "digest"?, "publicKeys",
// "requireSignature", "name", "minVersion"?, "pollSeconds"? }`. The bundle is fetched (or taken from
// the cache), verified against the pin like a pack on disk — and, without a digest, checked to be the
// pack the pin names, no older than its minVersion nor than the last version verified from the URL
// (no rollback) — and becomes the URL's last known good once it loaded. Whatever goes wrong with a
// newer bundle — the network, the server, a tampered, truncated, oversized or wrongly signed archive,
// another pack or an older one, a hook that does not load — the last known good stays in force, with
// a warning; only without one is the pin refused. A signature file fetched for content already
// cached (a key rotation) is verified in place of the cached one, and replaces it once it loads.
import type { KeyObject } from 'node:crypto';
import type { RemotePinTarget } from '../../config/pin-loader.js';
import { loadPack, type PackLoad, type PackLoadContext } from '../load-pack.js';
import { packIdentityProblem } from '../pin-identity.js';
import { REMOTE_PACK_DEFAULTS } from './options.js';
import type { CachedBundle, RemotePacks } from './remote-packs.js';

export interface UrlPin {
  readonly url: string;
  readonly digest: string | undefined;
  readonly publicKeys: readonly KeyObject[];
  readonly requireSignature: boolean;
  readonly scope: 'policy' | 'user';
  readonly pollSeconds: number | undefined;
  /** The pack the URL must serve (required without a digest). */
  readonly name?: string | undefined;
  /** The lowest version accepted. */
  readonly minVersion?: string | undefined;
}

export interface UrlPinLoad {
  /** The load in force (undefined: refused). */
  readonly load: PackLoad | undefined;
  readonly refusal: string | undefined;
  /** A newer bundle was refused and the last known good is in force: why. */
  readonly warning: string | undefined;
  readonly target: RemotePinTarget;
}

export async function loadUrlPin(
  pin: UrlPin,
  remote: RemotePacks,
  ctx: PackLoadContext,
): Promise<UrlPinLoad> {
  const pollSeconds = pin.pollSeconds ?? REMOTE_PACK_DEFAULTS.pollSeconds;
  // Without a digest the pin binds the pack by name and version: no other pack signed by the same
  // key, and nothing older than the last version verified from this URL (no rollback).
  const identity = {
    name: pin.name,
    minVersion: pin.minVersion,
    lastVersion: pin.digest === undefined ? await remote.lastVersion(pin.url) : undefined,
    requireSemver: pin.digest === undefined,
  };
  const verify = async (bundle: CachedBundle): Promise<PackLoad> => {
    const load = await loadPack({ ...pin, dir: bundle.dir, signature: bundle.signature }, ctx);
    const problem = load.refusal === undefined ? packIdentityProblem(load, identity) : undefined;
    return problem === undefined ? load : { ...load, hooks: [], refusal: problem };
  };
  const done = (load: PackLoad | undefined, refusal?: string, warning?: string): UrlPinLoad => ({
    load,
    refusal,
    warning,
    target: { url: pin.url, pollSeconds, digest: refusal === undefined ? load?.report.digest : undefined },
  });

  const fetchAndVerify = async (force: boolean) => {
    const out = await remote.bundle(pin.url, { digest: pin.digest, pollSeconds, force });
    return out.ok ? { ...out, load: await verify(out.bundle) } : out;
  };
  let out = await fetchAndVerify(false);
  // A copy used without asking the server (a digest pin's cache) that no longer verifies — its keys
  // were rotated, say — is asked for again: the server may have the new signatures.
  if (out.ok && out.source === 'cache' && out.load.refusal !== undefined) out = await fetchAndVerify(true);
  let problem: string;
  let tried: string | undefined;
  if (out.ok) {
    if (out.load.refusal === undefined) {
      await remote.accept(pin.url, out.bundle, out.source, out.load).catch(() => {}); // only a cache record
      return done(out.load);
    }
    problem = `the bundle ${out.bundle.digest} is refused: ${out.load.refusal}`;
    tried = out.bundle.dir;
  } else problem = out.problem;

  const good = await remote.lastGood(pin.url);
  if (good === undefined)
    return done(
      undefined,
      `${problem} (and no earlier verified copy is cached in ${remote.options.cacheDir})`,
    );
  // The bundle just refused may be the cached last known good itself (with its own signatures).
  const again =
    out.ok && good.dir === tried && out.bundle.signature === undefined ? out.load : await verify(good);
  if (again.refusal !== undefined)
    return done(
      undefined,
      good.dir === tried
        ? `${problem}; it is the last known good copy (verified ${new Date(good.checkedAt).toISOString()}), which the pin now refuses, and no other verified copy is cached`
        : `${problem}; the last known good copy ${good.digest} is refused too: ${again.refusal}`,
    );
  return done(again, undefined, `${problem}; the last known good copy ${good.digest} stays in force`);
}
