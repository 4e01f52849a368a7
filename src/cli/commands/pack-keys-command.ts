// `hookwarden pack keygen` and `pack sign`: make a signing key pair, sign a locked pack.

import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { HookwardenError } from '../../contract/hookwarden-error.js';
import { UsageError } from '../usage-error.js';

const out = (line: string) => process.stdout.write(`${line}\n`);

/** A key file's text; an unreadable file is a usage error naming the flag. */
export async function readKeyFile(path: string, flag: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    throw new UsageError(
      `${flag} ${path}: cannot read the key file (${(err as NodeJS.ErrnoException).code})`,
    );
  }
}

export function registerPackKeygen(pack: Command, setExitCode: (code: number) => void): void {
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
}

export function registerPackSign(pack: Command, setExitCode: (code: number) => void): void {
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
}
