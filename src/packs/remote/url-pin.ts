// Pins that name a URL instead of a path: `{ "url": "https://…/guard.tar.gz", "digest"?, "publicKeys",
// "requireSignature", "pollSeconds"? }`. The bundle is fetched (or taken from the cache), verified
// against the pin like a pack on disk, and becomes the URL's last known good once it loaded. Whatever
// goes wrong with a newer bundle — the network, the server, a tampered, truncated, oversized or
// wrongly signed archive, a hook that does not load — the last known good stays in force, with a
// warning; only without one is the pin refused.
import type { KeyObject } from 'node:crypto';
import { loadPack, type PackLoad, type PackLoadContext } from '../load-pack.js';
import { REMOTE_PACK_DEFAULTS } from './options.js';
import type { RemotePacks } from './remote-packs.js';
import type { RemotePinTarget } from './url-pin-fields.js';

export interface UrlPin {
  readonly url: string;
  readonly digest: string | undefined;
  readonly publicKeys: readonly KeyObject[];
  readonly requireSignature: boolean;
  readonly scope: 'policy' | 'user';
  readonly pollSeconds: number | undefined;
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
  const verify = (dir: string) => loadPack({ ...pin, dir }, ctx);
  const done = (load: PackLoad | undefined, refusal?: string, warning?: string): UrlPinLoad => ({
    load,
    refusal,
    warning,
    target: { url: pin.url, pollSeconds, digest: refusal === undefined ? load?.report.digest : undefined },
  });

  const out = await remote.bundle(pin.url, { digest: pin.digest, pollSeconds });
  let problem: string;
  let tried: string | undefined;
  if (out.ok) {
    const load = await verify(out.bundle.dir);
    if (load.refusal === undefined) {
      await remote.accept(pin.url, out.bundle, out.source).catch(() => {}); // only a cache record
      return done(load);
    }
    problem = `the bundle ${out.bundle.digest} is refused: ${load.refusal}`;
    tried = out.bundle.dir;
  } else problem = out.problem;

  const good = await remote.lastGood(pin.url);
  if (good === undefined || good.dir === tried)
    return done(
      undefined,
      `${problem} (and no earlier verified copy is cached in ${remote.options.cacheDir})`,
    );
  const load = await verify(good.dir);
  if (load.refusal !== undefined)
    return done(undefined, `${problem}; the cached copy ${good.digest} is refused too: ${load.refusal}`);
  return done(load, undefined, `${problem}; the last known good copy ${good.digest} stays in force`);
}
