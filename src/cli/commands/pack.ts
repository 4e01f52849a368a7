// `hookwarden pack lock|keygen|sign|verify`: author, lock, sign and verify policy packs. The pack
// modules are imported when a pack command runs (the definitions below are all the CLI loads).

import type { Command } from 'commander';
import { registerPackKeygen, registerPackSign } from './pack-keys-command.js';
import { addPackPublishCommands } from './pack-publish.js';
import { registerPackVerify } from './pack-verify-command.js';

const out = (line: string) => process.stdout.write(`${line}\n`);
const warn = (line: string) => process.stderr.write(`hookwarden: warning: ${line}\n`);

function registerPackLock(pack: Command, setExitCode: (code: number) => void): void {
  pack
    .command('lock')
    .description('write hookpack.lock.json (every file’s sha256 and the pack digest) and print the digest')
    .argument('<dir>', 'pack directory (holding hookpack.json)')
    .option('--require-tests', 'run the fixtures first; refuse a pack without fixtures or with a failing one')
    .option('--root <dir>', 'with --require-tests: sandbox root of the fixture run (default: cwd)')
    .addHelpText(
      'after',
      `
The digest is sha256 over the sorted "<path>\\0<sha256 hex>\\n" lines of every file except
hookpack.lock.json and hookpack.sig, fixtures (tests/*.json) included. Symlinks are refused; every
hook must load, every path it names must stay inside the pack, every fixture file must be valid.
A pack whose fixtures fail can still be locked (\`validate\` and \`pack verify\` then say so),
unless --require-tests. Run it after every change, then sign again.
Exit status: 0 locked (the digest is the only line on stdout), 1 the pack is invalid (or, with
--require-tests, has no fixtures or a failing one: nothing is written).

Examples:
  $ hookwarden pack lock packs/guard
  $ DIGEST=$(hookwarden pack lock packs/guard --require-tests)   # in a release script`,
    )
    .action(async (dir: string, flags: { requireTests?: boolean; root?: string }) => {
      const { lockPack } = await import('../../packs/lock-pack.js');
      const { formatDiagnostic } = await import('../../config/diagnostics.js');
      // The fixture runner (a real executor) is loaded only when the fixtures are to run.
      const runTests =
        flags.requireTests === true
          ? (await import('../../fixture-runner/test-pack.js')).testPack
          : undefined;
      const r = await lockPack(dir, { requireTests: flags.requireTests, root: flags.root }, runTests);
      for (const d of r.diagnostics) warn(formatDiagnostic(d));
      if (r.staleSignatures)
        warn(
          `the digest changed from ${r.previousDigest}: the signatures in hookpack.sig no longer verify; sign again`,
        );
      out(r.digest);
      setExitCode(0);
    });
}

export function addPackCommands(program: Command, setExitCode: (code: number) => void): void {
  const pack = program
    .command('pack')
    .description(
      'author, test, lock, sign, verify and bundle policy packs (hooks pinned by digest and signed)',
    )
    .addHelpText(
      'after',
      `
A pack is a directory with hookpack.json ({name, version, description, hooks}), its files, and
fixtures in tests/*.json that show what it decides. Workflow: test it, lock it, sign the digest,
bundle it; pin the digest and/or public key (and a path or url) in hooks.json "packs".
The whole walkthrough: docs/packs.md.

Examples:
  $ hookwarden pack test packs/guard                      # runs tests/*.json; "N passed, N failed"
  $ hookwarden pack lock packs/guard --require-tests      # prints sha256:<64 hex>
  $ hookwarden pack keygen --out keys/reviewer            # reviewer.key (0600) + reviewer.pub
  $ hookwarden pack sign packs/guard --key keys/reviewer.key
  $ hookwarden pack verify packs/guard --pubkey keys/reviewer.pub --digest sha256:…
  $ hookwarden pack bundle packs/guard --out dist/guard-1.2.0.tar.gz`,
    );

  registerPackLock(pack, setExitCode);
  registerPackKeygen(pack, setExitCode);
  registerPackSign(pack, setExitCode);
  registerPackVerify(pack, setExitCode);
  addPackPublishCommands(pack, setExitCode);
}
