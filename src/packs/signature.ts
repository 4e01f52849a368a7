// hookpack.sig: `{ "signatures": [{ "keyId": "sha256:…", "algorithm": "ed25519", "signature": "<base64>",
// "digest": "sha256:…" }] }`. Each signature is Ed25519 over the UTF-8 bytes of the digest string
// (`sha256:<64 hex>`). Several signatures coexist (one per key id), which is what lets operators
// rotate keys without a gap. `digest` (written by `pack sign` since it was added; optional) names the
// digest signed: without the public key a signature cannot be checked, but one made for another
// digest than the pack's can be named as one that does not verify (`pack verify` says so).
import { type KeyObject, sign, verify } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import { DIGEST_PATTERN } from '../config/pin-loader.js';
import { packKeyId } from './keys.js';
import { SIG_FILE } from './names.js';
import { writePlainFile } from './plain-file.js';
import { parsePackJson, readPackJson } from './read-pack-json.js';

const packSignaturesSchema = z.strictObject(
  {
    signatures: z.array(
      z.strictObject(
        {
          keyId: z
            .string({ error: 'expected "sha256:<64 hex>"' })
            .regex(DIGEST_PATTERN, { error: 'expected "sha256:<64 hex>"' }),
          algorithm: z.literal('ed25519', { error: 'expected "ed25519"' }),
          signature: z
            .string({ error: 'expected a base64 Ed25519 signature' })
            .regex(/^[A-Za-z0-9+/]{86}==$/, { error: 'expected a base64 Ed25519 signature (64 bytes)' }),
          digest: z
            .string({ error: 'expected "sha256:<64 hex>"' })
            .regex(DIGEST_PATTERN, { error: 'expected "sha256:<64 hex>"' })
            .optional(),
        },
        { error: 'expected {keyId, algorithm, signature}' },
      ),
      { error: 'expected an array of signatures' },
    ),
  },
  { error: 'expected an object {signatures: [...]}' },
);

export interface PackSignature {
  /** Key id of the signing key: `sha256:<hex of SHA-256 of its SPKI DER>`. */
  readonly keyId: string;
  readonly algorithm: 'ed25519';
  /** Base64 Ed25519 signature over the digest string. */
  readonly signature: string;
  /** The digest signed, as `pack sign` wrote it (a claim: only the key proves it). */
  readonly digest?: string | undefined;
}

export function signDigest(digest: string, privateKey: KeyObject, publicKey: KeyObject): PackSignature {
  return {
    keyId: packKeyId(publicKey),
    algorithm: 'ed25519',
    signature: sign(null, Buffer.from(digest, 'utf8'), privateKey).toString('base64'),
    digest,
  };
}

export function signatureVerifies(digest: string, sig: PackSignature, publicKey: KeyObject): boolean {
  try {
    return verify(null, Buffer.from(digest, 'utf8'), publicKey, Buffer.from(sig.signature, 'base64'));
  } catch {
    return false;
  }
}

export type SignaturesRead =
  | { readonly ok: true; readonly signatures: readonly PackSignature[] }
  | { readonly ok: false; readonly missing: boolean; readonly problem: string };

/**
 * The signatures of a pack: its hookpack.sig, or `bytes` when given (a newly fetched signature file
 * for content already cached, checked before it replaces the cached one).
 */
export async function readSignatureFile(root: string, bytes?: Buffer): Promise<SignaturesRead> {
  const read =
    bytes === undefined
      ? await readPackJson(root, SIG_FILE, packSignaturesSchema)
      : parsePackJson(bytes, SIG_FILE, packSignaturesSchema);
  if (!read.ok) return read;
  return { ok: true, signatures: read.data.signatures };
}

/** Adds `sig` (replacing an earlier signature by the same key) and writes hookpack.sig. */
export async function writeSignature(
  root: string,
  existing: readonly PackSignature[],
  sig: PackSignature,
): Promise<readonly PackSignature[]> {
  const signatures = [...existing.filter((s) => s.keyId !== sig.keyId), sig];
  await writePlainFile(join(root, SIG_FILE), `${JSON.stringify({ signatures }, null, 2)}\n`);
  return signatures;
}
