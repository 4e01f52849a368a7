// `hookwarden/packs`: policy pack tooling — lock a pack (digest), make and use Ed25519 keys, sign,
// verify (what `hookwarden pack …` does).

/** Which hooks the fixtures reached, and their outcomes. */
export type { HookCoverage } from './fixture-runner/coverage.js';
/** Runs fixtures against any configuration (`hookwarden test`), and what a run reports. */
export {
  type FixtureReport,
  type FixtureResult,
  type FixtureRunOptions,
  runFixtures,
} from './fixture-runner/run-fixtures.js';
/** Runs a pack's fixtures (tests/*.json) with the pack pinned at policy scope (`hookwarden pack test`). */
/** Locks a pack: writes hookpack.lock.json with its digest (with `requireTests`, after its fixtures pass). */
export {
  lockPackWithTests as lockPack,
  type PackTestOptions,
  type PackTestReport,
  testPack,
} from './fixture-runner/test-pack.js';
/** zod schemas of a fixture and of its expectation; a fixture as read. */
export {
  type Fixture,
  type FixtureExpect,
  fixtureExpectSchema,
  fixtureSchema,
} from './packs/fixture-schema.js';
/** Ed25519 key pairs for signing packs, and a public key's id. */
export { generatePackKeyPair, type PackKeyPair, packKeyId, writePackKeyPair } from './packs/keys.js';
export type { PackLockResult } from './packs/lock-pack.js';
/** Reads fixture files (or directories of them), every problem naming the file and the JSON path. */
export { type FixturesRead, readFixturePaths } from './packs/read-fixtures.js';
/** Writes a locked pack as one reproducible .tar.gz to serve over HTTP (`hookwarden pack bundle`). */
export { bundlePack, type PackBundleResult } from './packs/remote/bundle-pack.js';
/** Options of packs pinned by URL (createExecutor's `remotePacks`), their defaults and the cache's default place. */
export {
  defaultPackCacheDir,
  REMOTE_PACK_DEFAULTS,
  type RemotePackOptions,
} from './packs/remote/options.js';
/** Signs a locked pack with a private key. */
export { type PackSignResult, signPack } from './packs/sign-pack.js';
/** Verifies a pack against its lock, a digest and/or trusted keys. */
export {
  type PackSignatureCheck,
  type PackVerification,
  type PackVerifyOptions,
  verifyPack,
} from './packs/verify.js';
