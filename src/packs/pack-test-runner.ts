// What `lockPack` needs from the fixture runner, as a contract the runner implements
// (src/fixture-runner/test-pack.ts: testPack). Running a pack's fixtures takes a real executor, which
// sits above this stage; the caller hands the runner in (lockPack's third argument), so packs never
// import the runner, as config takes a PinLoader and never imports packs.

/** How a pack's fixtures fared: what `lock --require-tests` reads of a run. */
interface PackTestOutcome {
  /** The digest of the files tested. */
  readonly digest: string;
  readonly passed: number;
  readonly failed: number;
  readonly results: readonly { readonly name: string; readonly status: 'pass' | 'fail' | 'error' }[];
}

/** Runs the fixtures of the pack in `dir` (command hooks' cwd: `root`, default the current directory). */
export type PackTestRunner = (
  dir: string,
  options: { readonly root?: string | undefined },
) => Promise<PackTestOutcome>;
