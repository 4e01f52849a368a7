// What a pin binds besides content and signer: the pack's name, a minimum version, and (for a url pin)
// no rollback below the last version verified from that URL. A key signs every pack its reviewer
// signed, so a key alone says who, not which: the name says which pack the pin means, and versions
// keep an older signed release (one with a fixed hole reopened) from being served again.
import { lt, valid } from 'semver';

export interface PinIdentity {
  /** The pack name the pin binds (`name`). */
  readonly name?: string | undefined;
  /** The lowest version the pin accepts (`minVersion`, a semantic version). */
  readonly minVersion?: string | undefined;
  /** The last version verified from this URL (no rollback below it). */
  readonly lastVersion?: string | undefined;
  /** The pack must carry a semantic version (a url pin by key: versions order its releases). */
  readonly requireSemver?: boolean | undefined;
}

/** Why a loaded pack is not the one the pin binds, or undefined. */
export function packIdentityProblem(
  pack: { readonly name: string | undefined; readonly version: string | undefined },
  pin: PinIdentity,
): string | undefined {
  if (pin.name !== undefined && pack.name !== pin.name)
    return `it is the pack ${JSON.stringify(pack.name)}, and the pin names ${JSON.stringify(pin.name)}`;
  const floors = [pin.minVersion, pin.lastVersion].filter((v) => v !== undefined && valid(v) !== null);
  if (pin.requireSemver !== true && floors.length === 0) return undefined;
  const version = pack.version ?? '';
  if (valid(version) === null)
    return `its version ${JSON.stringify(version)} is not a semantic version (like "1.2.0"), so it cannot be ordered against the versions the pin accepts`;
  if (pin.minVersion !== undefined && lt(version, pin.minVersion))
    return `version ${version} is older than the pin's minVersion ${pin.minVersion}`;
  if (pin.lastVersion !== undefined && valid(pin.lastVersion) !== null && lt(version, pin.lastVersion))
    return `version ${version} is older than ${pin.lastVersion}, the last version verified from this URL (no rollback)`;
  return undefined;
}
