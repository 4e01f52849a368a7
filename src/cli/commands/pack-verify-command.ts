// `hookwarden pack verify`: a pack against its lock, a digest and trusted keys.

import type { Command } from 'commander';
import type { PackVerification } from '../../packs/verify.js';
import { collect } from '../collect.js';
import { UsageError } from '../usage-error.js';
import { readKeyFile } from './pack-keys-command.js';

const out = (line: string) => process.stdout.write(`${line}\n`);

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

export function registerPackVerify(pack: Command, setExitCode: (code: number) => void): void {
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
}
