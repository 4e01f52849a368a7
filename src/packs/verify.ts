// Verification of a pack directory: the files on disk against hookpack.lock.json (naming every
// changed, added and removed file), the digest against a pin, and hookpack.sig against trusted keys
// (at least one signature by ANY trusted key must verify, so two keys can be trusted during a
// rotation). The result is data: a refusal is a report with problems, never an exception.

import { createPublicKey, type KeyObject } from 'node:crypto';
import { optionKeys, refuseUnknownOptions } from '../config/option-keys.js';
import { DIGEST_PATTERN } from '../config/pin-loader.js';
import { HookwardenError } from '../contract/hookwarden-error.js';
import { packDigest, sortPaths } from './digest.js';
import { packKeyId, parsePublicKey } from './keys.js';
import { readLockFile } from './lock.js';
import { readSignatureFile, signatureVerifies } from './signature.js';
import { type PackWalk, walkPack } from './walk.js';

export interface PackVerifyOptions {
  /** The digest the pack must have, `sha256:<64 hex>` (as printed by `hookwarden pack lock`). */
  readonly digest?: string | undefined;
  /** Trusted Ed25519 public keys: SPKI PEM text or KeyObjects. */
  readonly publicKeys?: readonly (string | KeyObject)[] | undefined;
  /** Require a signature by one of `publicKeys`. Default: true when `publicKeys` are given. */
  readonly requireSignature?: boolean | undefined;
}

export interface PackSignatureCheck {
  readonly keyId: string;
  /** The key id is one of the trusted keys. */
  readonly trusted: boolean;
  /** Whether it verifies over the pack's digest (undefined: not checked, the key is not trusted). */
  readonly verifies: boolean | undefined;
}

/** What `verifyPack` found. `ok` is true only when `problems` is empty. */
export interface PackVerification {
  readonly ok: boolean;
  /** Absolute path of the pack directory. */
  readonly dir: string;
  /** Digest of the files on disk (undefined when the directory is not a valid pack). */
  readonly digest: string | undefined;
  /** Digest recorded in hookpack.lock.json (undefined when it is missing or invalid). */
  readonly lockDigest: string | undefined;
  /** Number of files in the pack's content. */
  readonly fileCount: number;
  /** Files whose content differs from the lock. */
  readonly changed: readonly string[];
  /** Files on disk that the lock does not list. */
  readonly added: readonly string[];
  /** Files the lock lists that are gone. */
  readonly removed: readonly string[];
  /** Whether the digest equals the pinned one (undefined: no digest was pinned). */
  readonly digestMatches: boolean | undefined;
  readonly signatureRequired: boolean;
  readonly signatures: readonly PackSignatureCheck[];
  /** Key id of the trusted key whose signature verified, if any. */
  readonly verifiedBy: string | undefined;
  /** Every reason the pack is refused, each naming what changed. */
  readonly problems: readonly string[];
  /** Not refusals: e.g. an optional signature that is missing. */
  readonly warnings: readonly string[];
  /**
   * Fixtures in the pack's tests/*.json (counted by `verifyPack`; undefined from the loader, which
   * does not read them, or when a fixture file is invalid: see `warnings`).
   */
  readonly fixtureCount?: number | undefined;
  /**
   * `verifyPack` without a trusted key: the key ids of hookpack.sig's signatures, none checked (only
   * a public key can check one). A signature that names another digest than the pack's is a problem.
   */
  readonly uncheckedSignatures?: readonly string[] | undefined;
}

export interface PackInspection {
  readonly report: PackVerification;
  readonly walk: PackWalk;
}

const list = (paths: readonly string[]) => paths.join(', ');

/** The files that differ from the lock (each kind a problem); none when there is no lock. */
function lockDifferences(
  walk: Awaited<ReturnType<typeof walkPack>>,
  lock: Awaited<ReturnType<typeof readLockFile>>,
  problems: string[],
): { changed: string[]; added: string[]; removed: string[] } {
  const changed: string[] = [];
  const added: string[] = [];
  const removed: string[] = [];
  if (!lock.ok) problems.push(lock.problem);
  else {
    for (const [path, hex] of walk.files) {
      const locked = lock.files.get(path);
      if (locked === undefined) added.push(path);
      else if (locked !== hex) changed.push(path);
    }
    for (const path of lock.files.keys()) if (!walk.files.has(path)) removed.push(path);
    if (changed.length > 0) problems.push(`changed since the lock: ${list(changed)}`);
    if (added.length > 0) problems.push(`added (not in the lock): ${list(sortPaths(added))}`);
    if (removed.length > 0) problems.push(`removed (listed in the lock): ${list(sortPaths(removed))}`);
  }
  return { changed, added, removed };
}

/** Verification plus the walk (the exact bytes hashed), for the loader. Keys must be parsed already. */
export async function inspectPack(
  dir: string,
  options: {
    digest?: string | undefined;
    publicKeys: readonly KeyObject[];
    requireSignature: boolean;
    /** A signature file to check instead of the pack's own hookpack.sig. */
    signature?: Buffer | undefined;
  },
): Promise<PackInspection> {
  const walk = await walkPack(dir);
  const problems: string[] = [...walk.problems];
  const warnings: string[] = [];
  const digest = walk.problems.length === 0 ? packDigest(walk.files) : undefined;

  const lock = await readLockFile(walk.root);
  const { changed, added, removed } = lockDifferences(walk, lock, problems);

  let digestMatches: boolean | undefined;
  if (options.digest !== undefined) {
    digestMatches = digest === options.digest;
    if (!digestMatches)
      problems.push(
        `digest ${digest ?? '(none: not a valid pack)'} does not match the pinned ${options.digest}`,
      );
  }

  const trusted = new Map(options.publicKeys.map((k) => [packKeyId(k), k] as const));
  const checks: PackSignatureCheck[] = [];
  let verifiedBy: string | undefined;
  if (options.requireSignature && trusted.size === 0)
    problems.push('a signature is required but no public key is trusted');
  if (trusted.size > 0) {
    const sigs = await readSignatureFile(walk.root, options.signature);
    if (!sigs.ok) {
      const why = sigs.missing
        ? `${sigs.problem} (run \`hookwarden pack sign <dir> --key <file>\`)`
        : sigs.problem;
      (options.requireSignature ? problems : warnings).push(why);
    } else {
      for (const sig of sigs.signatures) {
        const key = trusted.get(sig.keyId);
        const verifies =
          key === undefined || digest === undefined ? undefined : signatureVerifies(digest, sig, key);
        checks.push({ keyId: sig.keyId, trusted: key !== undefined, verifies });
        if (verifies === true) verifiedBy ??= sig.keyId;
      }
      if (verifiedBy === undefined) {
        const seen = checks.map(
          (c) => `${c.keyId} (${c.trusted ? 'trusted, does not verify' : 'not a trusted key'})`,
        );
        const why = `no signature verifies with a trusted key (trusted: ${list([...trusted.keys()])}; hookpack.sig has: ${seen.length > 0 ? list(seen) : 'none'})`;
        (options.requireSignature ? problems : warnings).push(why);
      }
    }
  }

  const report: PackVerification = {
    ok: problems.length === 0,
    dir: walk.root,
    digest,
    lockDigest: lock.ok ? lock.lock.digest : undefined,
    fileCount: walk.files.size,
    changed,
    added: sortPaths(added),
    removed: sortPaths(removed),
    digestMatches,
    signatureRequired: options.requireSignature,
    signatures: checks,
    verifiedBy,
    problems,
    warnings,
  };
  return { report, walk };
}

/**
 * With no trusted key, hookpack.sig cannot be checked: its signatures are listed as unchecked, and
 * one that names another digest than the pack's lock (signed, then changed and locked again) is
 * refused as a signature that does not verify, plainly. A change not locked again is the lock's to
 * name (changed, added, removed files): the signature still matches the lock it was made for.
 */
async function withUncheckedSignatures(report: PackVerification): Promise<PackVerification> {
  const sigs = await readSignatureFile(report.dir);
  if (!sigs.ok) return sigs.missing ? report : { ...report, warnings: [...report.warnings, sigs.problem] };
  const stale = sigs.signatures.filter(
    (s) => s.digest !== undefined && report.lockDigest !== undefined && s.digest !== report.lockDigest,
  );
  const problems = stale.map(
    (s) =>
      `hookpack.sig: the signature by ${s.keyId} does not verify: it was made for ${s.digest}, and the pack is locked as ${report.lockDigest} now (changed and locked again after signing); sign it again (\`hookwarden pack sign <dir> --key <file>\`)`,
  );
  return {
    ...report,
    ok: report.ok && problems.length === 0,
    problems: [...report.problems, ...problems],
    uncheckedSignatures: sigs.signatures.filter((s) => !stale.includes(s)).map((s) => s.keyId),
  };
}

/**
 * Verifies a pack directory: files against its lock, the digest against `options.digest`, and a
 * signature by one of `options.publicKeys`. Never throws for a refused pack (see `ok`, `problems`);
 * rejects with `invalid_options` for a malformed digest or key.
 */
const VERIFY_OPTION_KEYS = optionKeys<PackVerifyOptions>()(['digest', 'publicKeys', 'requireSignature']);

export async function verifyPack(dir: string, options: PackVerifyOptions = {}): Promise<PackVerification> {
  refuseUnknownOptions(options, VERIFY_OPTION_KEYS, 'verifyPack');
  if (options.digest !== undefined && !DIGEST_PATTERN.test(options.digest))
    throw new HookwardenError(
      'invalid_options',
      `digest: expected "sha256:<64 hex>", got ${JSON.stringify(options.digest)}`,
    );
  const publicKeys = (options.publicKeys ?? []).map((k, i) => {
    const parsed = parsePublicKey(
      typeof k === 'string' ? k : createPublicKey(k).export({ type: 'spki', format: 'pem' }),
      `publicKeys[${i}]`,
    );
    if (!parsed.ok) throw new HookwardenError('invalid_options', parsed.message);
    return parsed.key;
  });
  const requireSignature = options.requireSignature ?? publicKeys.length > 0;
  const inspected = await inspectPack(dir, { digest: options.digest, publicKeys, requireSignature });
  const { walk } = inspected;
  const report = publicKeys.length === 0 ? await withUncheckedSignatures(inspected.report) : inspected.report;
  if (walk.problems.length > 0) return report;
  const { readPackFixtures } = await import('./read-fixtures.js');
  const fixtures = await readPackFixtures(walk);
  return fixtures.ok
    ? { ...report, fixtureCount: fixtures.fixtures.length }
    : { ...report, warnings: [...report.warnings, ...fixtures.problems] };
}
