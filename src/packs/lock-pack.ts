// `hookwarden pack lock <dir>`: checks the pack (plain files, a valid hookpack.json whose hooks load
// and stay inside the pack, valid fixture files) and writes hookpack.lock.json with every file's
// digest and the pack digest. Fixtures (tests/*.json) are files of the pack like any other: the lock,
// the digest and so a signature cover them. With `requireTests`, the fixtures run first and a pack
// without fixtures, or with one that fails, is not locked.

import type { Diagnostic } from '../config/diagnostics.js';
import type { HookTypePolicy } from '../config/hook-type-policy.js';
import { optionKeys, refuseUnknownOptions } from '../config/option-keys.js';
import { DEFAULT_SCOPE_LIMITS } from '../config/scope-limits.js';
import { parseUrlPattern } from '../config/url-allow-list.js';
import { DEFAULT_EVENTS, EventCatalogue } from '../contract/events.js';
import { HookwardenError } from '../contract/hookwarden-error.js';
import { packDigest } from './digest.js';
import { normalizePackHooks, packHookProblems } from './load-pack.js';
import { lockOf, readLockFile, writeLockFile } from './lock.js';
import { parseManifest } from './manifest.js';
import type { PackTestRunner } from './pack-test-runner.js';
import { readPackFixtures } from './read-fixtures.js';
import { readSignatureFile } from './signature.js';
import { walkPack } from './walk.js';

export interface PackLockResult {
  /** Absolute pack directory. */
  readonly dir: string;
  /** The pack digest, `sha256:<64 hex>`: pin it in hooks.json. */
  readonly digest: string;
  readonly fileCount: number;
  /** The digest of the lock this one replaced, if any. */
  readonly previousDigest: string | undefined;
  /** hookpack.sig holds signatures made over a different digest: sign again. */
  readonly staleSignatures: boolean;
  /** Warnings about the pack's hooks (errors refuse the lock). */
  readonly diagnostics: readonly Diagnostic[];
  /** Fixtures in tests/*.json. */
  readonly fixtureCount: number;
  /** With `requireTests`: how the fixtures fared (all passed, or the pack would not be locked). */
  readonly tests: { readonly passed: number; readonly failed: number } | undefined;
}

export interface PackLockOptions {
  /** Run the fixtures first; refuse a pack without fixtures or with a failing one. Default false. */
  readonly requireTests?: boolean | undefined;
  /** Sandbox root of the fixture run (the cwd of command hooks). Default: the current directory. */
  readonly root?: string | undefined;
}

/**
 * Locks a pack directory. Rejects with `pack_error` (every problem in `problems`) when the directory
 * is not a valid pack: a symlink or special file, no or an invalid hookpack.json, a hook that fails
 * to load or refers outside the pack, an invalid fixture file; with `requireTests`, missing or failing
 * fixtures. Custom events are checked against the built-in catalogue only. `runTests` runs the
 * fixtures for `requireTests` (the fixture runner's testPack: `hookwarden/packs` hands it in).
 */
const LOCK_OPTION_KEYS = optionKeys<PackLockOptions>()(['requireTests', 'root']);

const anyUrl = parseUrlPattern('*');
/** Every http URL and evaluator admitted: a lock checks hooks, not the operator's admission lists. */
const EVERY_HOOK_TYPE: HookTypePolicy = {
  urls: anyUrl.ok ? [anyUrl.value] : [],
  envVars: undefined,
  evaluators: ['prompt', 'agent'],
};

export async function lockPack(
  dir: string,
  options: PackLockOptions = {},
  runTests?: PackTestRunner,
): Promise<PackLockResult> {
  refuseUnknownOptions(options, LOCK_OPTION_KEYS, 'lockPack');
  const walk = await walkPack(dir);
  const fail = (problems: readonly string[]) => {
    throw new HookwardenError('pack_error', `cannot lock ${walk.root}: ${problems.join('; ')}`, { problems });
  };
  if (walk.problems.length > 0) fail(walk.problems);
  const read = parseManifest(walk.manifest);
  if (!read.ok) return fail(read.problems);
  const catalogue = new EventCatalogue(DEFAULT_EVENTS);
  // Locking judges the pack's own shape: where an http hook may be sent, and which evaluators the
  // platform has, are the operator's to decide when a pin loads it.
  const { sink } = await normalizePackHooks(walk, read.manifest, 'policy', {
    catalogue,
    limits: DEFAULT_SCOPE_LIMITS,
    hookTypes: EVERY_HOOK_TYPE,
  });
  const problems = packHookProblems(sink);
  if (problems.length > 0) fail(problems);
  const fixtures = await readPackFixtures(walk);
  if (!fixtures.ok) return fail(fixtures.problems);
  let tests: PackLockResult['tests'];
  if (options.requireTests === true) {
    if (fixtures.fixtures.length === 0)
      fail(['--require-tests: the pack has no fixtures (tests/*.json); write some, or lock without it']);
    if (runTests === undefined)
      throw new HookwardenError(
        'invalid_options',
        'lockPack: requireTests needs a fixture runner (runTests)',
      );
    const tested = await runTests(walk.root, { root: options.root });
    if (tested.digest !== packDigest(walk.files)) fail(['files changed while the fixtures ran: lock again']);
    const failing = tested.results.filter((r) => r.status !== 'pass').map((r) => `"${r.name}"`);
    if (failing.length > 0)
      fail([
        `--require-tests: ${failing.length} of ${tested.results.length} fixtures fail (${failing.join(', ')}); see \`hookwarden pack test ${dir}\``,
      ]);
    tests = { passed: tested.passed, failed: tested.failed };
  }
  const previous = await readLockFile(walk.root);
  const lock = lockOf(walk);
  await writeLockFile(walk.root, lock);
  const previousDigest = previous.ok ? previous.lock.digest : undefined;
  const sigs = await readSignatureFile(walk.root);
  const staleSignatures =
    sigs.ok && sigs.signatures.length > 0 && previousDigest !== undefined && previousDigest !== lock.digest;
  return {
    dir: walk.root,
    digest: lock.digest,
    fileCount: walk.files.size,
    previousDigest,
    staleSignatures,
    diagnostics: sink.items,
    fixtureCount: fixtures.fixtures.length,
    tests,
  };
}
