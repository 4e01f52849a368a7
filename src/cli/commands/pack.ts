// `hookwarden pack lock|keygen|sign|verify`: author, lock, sign and verify policy packs. The pack
// modules are imported when a pack command runs (the definitions below are all the CLI loads).
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { HookwardenError } from '../../contract/hookwarden-error.js';
import type { PackVerification } from '../../packs/verify.js';
import { UsageError } from '../usage-error.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];
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

export function printVerification(r: PackVerification): void {
  if (!r.ok) {
    out(`refused: ${r.dir}`);
    for (const p of r.problems) out(`  - ${p}`);
  } else {
    out(`verified: ${r.dir}`);
    out(`  digest ${r.digest}${r.digestMatches === true ? ' (the pinned digest)' : ''}`);
    out(`  ${r.fileCount} file${r.fileCount === 1 ? '' : 's'}, as locked`);
    if (r.verifiedBy !== undefined) out(`  signed by ${r.verifiedBy} (a trusted key)`);
  }
  for (const w of r.warnings) out(`  warning: ${w}`);
}

export function addPackCommands(program: Command, setExitCode: (code: number) => void): void {
  const pack = program
    .command('pack')
    .description('author, lock, sign and verify policy packs (hook bundles pinned by digest and signed)')
    .addHelpText(
      'after',
      `
A pack is a directory with hookpack.json ({name, version, description, hooks}) and its files.
Workflow: lock it, sign the digest, pin the digest and/or public key in hooks.json "packs".

Examples:
  $ hookwarden pack lock packs/guard                      # prints sha256:<64 hex>
  $ hookwarden pack keygen --out keys/reviewer            # reviewer.key (0600) + reviewer.pub
  $ hookwarden pack sign packs/guard --key keys/reviewer.key
  $ hookwarden pack verify packs/guard --pubkey keys/reviewer.pub --digest sha256:…`,
    );

  pack
    .command('lock')
    .description('write hookpack.lock.json (every file’s sha256 and the pack digest) and print the digest')
    .argument('<dir>', 'pack directory (holding hookpack.json)')
    .addHelpText(
      'after',
      `
The digest is sha256 over the sorted "<path>\\0<sha256 hex>\\n" lines of every file except
hookpack.lock.json and hookpack.sig. Symlinks are refused; every hook must load and every path it
names must stay inside the pack. Run it after every change, then sign again.
Exit status: 0 locked (the digest is the only line on stdout), 1 the pack is invalid.

Examples:
  $ hookwarden pack lock packs/guard
  $ DIGEST=$(hookwarden pack lock packs/guard)   # in a release script`,
    )
    .action(async (dir: string) => {
      const { lockPack } = await import('../../packs/lock-pack.js');
      const { formatDiagnostic } = await import('../../config/diagnostics.js');
      const r = await lockPack(dir);
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
    .addHelpText(
      'after',
      `
Exit status: 0 only if the files match the lock, the digest matches (when given) and at least one
signature verifies with a given key (when keys are given); 1 otherwise, naming what changed.

Examples:
  $ hookwarden pack verify packs/guard
  $ hookwarden pack verify packs/guard --pubkey keys/old.pub --pubkey keys/new.pub
  $ hookwarden pack verify packs/guard --digest sha256:3f1c… --json`,
    )
    .action(async (dir: string, flags: { pubkey?: string[]; digest?: string; json?: boolean }) => {
      const { DIGEST_PATTERN } = await import('../../packs/digest.js');
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
      if (flags.json === true) out(JSON.stringify(r, null, 2));
      else printVerification(r);
      setExitCode(r.ok ? 0 : 1);
    });
}
