// `hookwarden pack sign <dir> --key <file>`: adds an Ed25519 signature over the pack digest to
// hookpack.sig, next to any signatures by other keys (a signature by the same key is replaced).
import { createPublicKey, type KeyObject } from 'node:crypto';
import { HookwardenError } from '../contract/hookwarden-error.js';
import { parsePrivateKey } from './keys.js';
import { readSignatureFile, signDigest, writeSignature } from './signature.js';
import { inspectPack } from './verify.js';

export interface PackSignResult {
  readonly dir: string;
  /** The digest that was signed. */
  readonly digest: string;
  /** Key id of the signing key. */
  readonly keyId: string;
  /** Signatures now in hookpack.sig. */
  readonly signatureCount: number;
}

/**
 * Signs a locked pack. Rejects with `invalid_options` for a key that is not an Ed25519 private key,
 * and with `pack_error` when the files do not match the lock (lock first: a signature covers the digest).
 */
export async function signPack(
  dir: string,
  privateKey: string | Buffer | KeyObject,
): Promise<PackSignResult> {
  let key: KeyObject;
  if (typeof privateKey === 'string' || Buffer.isBuffer(privateKey)) {
    const parsed = parsePrivateKey(privateKey, 'key');
    if (!parsed.ok) throw new HookwardenError('invalid_options', parsed.message);
    key = parsed.key;
  } else if (privateKey.type === 'private' && privateKey.asymmetricKeyType === 'ed25519') key = privateKey;
  else throw new HookwardenError('invalid_options', 'key: expected an Ed25519 private key');
  const { report } = await inspectPack(dir, { publicKeys: [], requireSignature: false });
  if (!report.ok || report.digest === undefined) {
    throw new HookwardenError(
      'pack_error',
      `cannot sign ${report.dir}: ${report.problems.join('; ')} (run \`hookwarden pack lock\` after every change, then sign)`,
      { problems: report.problems },
    );
  }
  const existing = await readSignatureFile(report.dir);
  if (!existing.ok && !existing.missing)
    throw new HookwardenError('pack_error', `cannot sign ${report.dir}: ${existing.problem}`);
  const sig = signDigest(report.digest, key, createPublicKey(key));
  const all = await writeSignature(report.dir, existing.ok ? existing.signatures : [], sig);
  return { dir: report.dir, digest: report.digest, keyId: sig.keyId, signatureCount: all.length };
}
