// `hookwarden pack lock|keygen|sign|verify`: author, lock, sign and verify policy packs. The pack
// modules are imported when a pack command runs (the definitions below are all the CLI loads).

import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { HookwardenError } from '../../contract/hookwarden-error.js';
import type { PackVerification } from '../../packs/verify.js';
import { collect } from '../collect.js';
import { UsageError } from '../usage-error.js';
import { addPackPublishCommands } from './pack-publish.js';

const out = (line: string) => process.stdout.write(`${line}\n`);
const warn = (line: string) => process.stderr.write(`hookwarden: warning: ${line}\n`);

async function readKeyFile(path: string, flag: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    throw new UsageError(
      `${flag} ${path}: cannot read the key file (${(err as NodeJS.ErrnoException).code})`,
    );
  }
}

function printVerification(r: PackVerification): void {
  if (!r.ok) {
    out(`refused: ${r.dir}`);
    for (const p of r.problems) out(`  - ${p}`);
  } else {
    const unchecked = r.uncheckedSignatures ?? [];
    out(
      `${unchecked.length === 0 ? 'verified' : 'verified against its lock, signature NOT checked'}: ${r.dir}`,
    );
    out(`  digest ${r.digest}${r.digestMatches === true ? ' (the pinned digest)' : ''}`);
    out(`  ${r.fileCount} file${r.fileCount === 1 ? '' : 's'}, as locked`);
    if (r.verifiedBy !== undefined) out(`  signed by ${r.verifiedBy} (a trusted key)`);
    if (unchecked.length > 0)
      out(
        `  hookpack.sig holds a signature by ${unchecked.join(', ')}, which only its public key can check: give --pubkey <file>`,
      );
    if (r.fixtureCount !== undefined)
      out(`  ${r.fixtureCount} fixture${r.fixtureCount === 1 ? '' : 's'} (tests/*.json)`);
  }
  for (const w of r.warnings) out(`  warning: ${w}`);
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

  pack
    .command('keygen')
    .description(
      'create an Ed25519 signing key pair: <prefix>.key (PKCS#8 PEM, mode 0600) and <prefix>.pub (SPKI PEM)',
    )
    .requiredOption('-o, --out <prefix>', 'path prefix of the two files, e.g. keys/reviewer')
    .addHelpText(
      'after',
      `
Existing files are never overwritten; missing folders of the prefix are created with mode 0700.
The key id (sha256 of the public key) names the key in hookpack.sig. Keep the .key secret; give
the .pub to the operators who pin the pack.
Exit status: 0 written, 1 error.

Example:
  $ hookwarden pack keygen --out keys/reviewer-2026`,
    )
    .action(async (flags: { out: string }) => {
      const { writePackKeyPair } = await import('../../packs/keys.js');
      const r = await writePackKeyPair(flags.out);
      out(`private key: ${r.keyFile} (mode 0600, keep it secret)`);
      out(`public key:  ${r.publicKeyFile} (list it in a pin's "publicKeys")`);
      out(`key id:      ${r.keyId}`);
      setExitCode(0);
    });

  pack
    .command('sign')
    .description('add a signature over the pack digest to hookpack.sig (signatures by other keys are kept)')
    .argument('<dir>', 'a locked pack directory')
    .requiredOption('-k, --key <file>', 'Ed25519 private key (PKCS#8 PEM, from `pack keygen`)')
    .addHelpText(
      'after',
      `
The files must match hookpack.lock.json (lock first). Signing again with the same key replaces its
earlier signature; several keys may sign, which lets operators rotate keys without a gap.
Exit status: 0 signed, 1 error.

Example:
  $ hookwarden pack sign packs/guard --key keys/reviewer.key`,
    )
    .action(async (dir: string, flags: { key: string }) => {
      const { signPack } = await import('../../packs/sign-pack.js');
      const r = await signPack(dir, await readKeyFile(flags.key, '--key')).catch((err: unknown) => {
        if (!(err instanceof HookwardenError) || err.code !== 'invalid_options') throw err;
        throw new UsageError(`--key ${flags.key}: ${err.message.replace(/^key: /, '')}`);
      });
      out(
        `signed ${r.digest} with key ${r.keyId} (hookpack.sig holds ${r.signatureCount} signature${r.signatureCount === 1 ? '' : 's'})`,
      );
      setExitCode(0);
    });

  pack
    .command('verify')
    .description(
      'check a pack against its lock, a digest and trusted keys; name every changed, added or removed file',
    )
    .argument('<dir>', 'pack directory')
    .option(
      '--pubkey <file>',
      'trusted public key (SPKI PEM); repeat to trust several (any one signature suffices)',
      collect,
    )
    .option('--digest <sha256:hex>', 'the digest the pack must have')
    .option('--json', 'print the verification report as JSON')
    .option('--no-tests', "do not run the pack's fixtures")
    .addHelpText(
      'after',
      `
The pack's fixtures (tests/*.json) are counted; they are run when the pack verifies against a
--digest or a --pubkey (a reviewed pack: its code is what a pin would run), and a failing one is
reported. An unpinned pack's fixtures are not run: \`hookwarden pack test\` runs them on purpose.
Exit status: 0 only if the files match the lock, the digest matches (when given), at least one
signature verifies with a given key (when keys are given) and no fixture that ran failed; 1
otherwise, naming what changed.

Examples:
  $ hookwarden pack verify packs/guard
  $ hookwarden pack verify packs/guard --pubkey keys/old.pub --pubkey keys/new.pub
  $ hookwarden pack verify packs/guard --digest sha256:3f1c… --json`,
    )
    .action(
      async (dir: string, flags: { pubkey?: string[]; digest?: string; json?: boolean; tests?: boolean }) => {
        const { DIGEST_PATTERN } = await import('../../config/pin-loader.js');
        const { verifyPack } = await import('../../packs/verify.js');
        if (flags.digest !== undefined && !DIGEST_PATTERN.test(flags.digest))
          throw new UsageError(
            `--digest: expected sha256:<64 lowercase hex>, got ${JSON.stringify(flags.digest)}`,
          );
        const publicKeys = await Promise.all((flags.pubkey ?? []).map((f) => readKeyFile(f, '--pubkey')));
        const r = await verifyPack(dir, { digest: flags.digest, publicKeys }).catch((err: unknown) => {
          // A malformed key file is a usage error: name the flag and the file.
          const m = /^publicKeys\[(\d+)\]: (.*)$/.exec((err as Error).message);
          if (m === null) throw err;
          throw new UsageError(`--pubkey ${flags.pubkey?.[Number(m[1])]}: ${m[2]}`);
        });
        const pinned = flags.digest !== undefined || publicKeys.length > 0;
        const tests = r.ok && pinned && flags.tests !== false && (r.fixtureCount ?? 0) > 0;
        const { testPack } = tests
          ? await import('../../fixture-runner/test-pack.js')
          : { testPack: undefined };
        const t = testPack === undefined ? undefined : await testPack(dir);
        const failing = t?.results.filter((x) => x.status !== 'pass').map((x) => x.name) ?? [];
        if (flags.json === true) {
          const fixtures = t === undefined ? undefined : { passed: t.passed, failed: t.failed, failing };
          out(JSON.stringify({ ...r, ok: r.ok && failing.length === 0, fixtures }, null, 2));
        } else {
          printVerification(r);
          if (t !== undefined && failing.length === 0) out(`  fixtures: ${t.passed} passed`);
          if (failing.length > 0)
            out(
              `  - fixtures fail: ${failing.map((n) => JSON.stringify(n)).join(', ')} (run \`hookwarden pack test ${dir}\`)`,
            );
          if (r.ok && !tests && (r.fixtureCount ?? 0) > 0)
            out(
              `  fixtures not run (${flags.tests === false ? '--no-tests' : "give --digest or --pubkey to run a reviewed pack's fixtures"})`,
            );
        }
        setExitCode(r.ok && failing.length === 0 ? 0 : 1);
      },
    );
  addPackPublishCommands(pack, setExitCode);
}
