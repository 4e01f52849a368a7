// Ed25519 signing keys (node:crypto only). A key id is `sha256:<hex of SHA-256 of the SPKI DER>` of
// the public key: it names a key in hookpack.sig without trusting anything the file says.
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { HookwardenError } from '../contract/hookwarden-error.js';
import { sha256Hex } from './digest.js';

/** An Ed25519 pack signing key pair. */
export interface PackKeyPair {
  /** PKCS#8 PEM: keep it secret. */
  readonly privateKeyPem: string;
  /** SPKI PEM: give it to the operators who pin the pack. */
  readonly publicKeyPem: string;
  readonly keyId: string;
}

/** The key id of a public key: `sha256:<hex of SHA-256 of its SPKI DER>` (as listed in hookpack.sig). */
export function packKeyId(publicKey: KeyObject): string {
  return `sha256:${sha256Hex(publicKey.export({ type: 'spki', format: 'der' }))}`;
}

/** A fresh Ed25519 key pair for signing packs, as PEM text (nothing is written). */
export function generatePackKeyPair(): PackKeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    keyId: packKeyId(publicKey),
  };
}

export type KeyRead = { ok: true; key: KeyObject } | { ok: false; message: string };

/** An Ed25519 public key from SPKI PEM (a private key is refused). */
export function parsePublicKey(pem: string | Buffer, label: string): KeyRead {
  // createPublicKey would derive the public half of a private key: refuse it, it belongs elsewhere.
  if (pem.toString().includes('PRIVATE KEY-----'))
    return {
      ok: false,
      message: `${label}: this is a private key; give the public key (.pub) and keep the .key secret`,
    };
  try {
    const key = createPublicKey(pem);
    if (key.asymmetricKeyType !== 'ed25519')
      return { ok: false, message: `${label}: expected an Ed25519 key, got ${key.asymmetricKeyType}` };
    return { ok: true, key };
  } catch {
    return { ok: false, message: `${label}: not a PEM public key (expected "-----BEGIN PUBLIC KEY-----")` };
  }
}

/** An Ed25519 private key from PKCS#8 PEM. */
export function parsePrivateKey(pem: string | Buffer, label: string): KeyRead {
  try {
    const key = createPrivateKey(pem);
    if (key.asymmetricKeyType !== 'ed25519')
      return { ok: false, message: `${label}: expected an Ed25519 key, got ${key.asymmetricKeyType}` };
    return { ok: true, key };
  } catch {
    return {
      ok: false,
      message: `${label}: not a PEM private key (expected "-----BEGIN PRIVATE KEY-----", as written by \`hookwarden pack keygen\`)`,
    };
  }
}

/**
 * Writes `<prefix>.key` (private, mode 0600) and `<prefix>.pub`. Refuses to overwrite either file:
 * replacing a signing key by accident cannot be undone. Folders of the prefix that do not exist yet
 * are created with mode 0700 (existing ones are left as they are).
 */
export async function writePackKeyPair(
  prefix: string,
): Promise<{ keyFile: string; publicKeyFile: string; keyId: string }> {
  const pair = generatePackKeyPair();
  const keyFile = `${prefix}.key`;
  const publicKeyFile = `${prefix}.pub`;
  try {
    // A key folder is private: 0700 (the umask can only narrow it).
    await mkdir(dirname(keyFile), { recursive: true, mode: 0o700 });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new HookwardenError('pack_error', `cannot create the folder ${dirname(keyFile)} (${code})`, {
      cause: err,
    });
  }
  const create = async (path: string, text: string, mode: number) => {
    let fh: Awaited<ReturnType<typeof open>>;
    try {
      fh = await open(path, 'wx', mode); // O_EXCL: never an existing file, never through a symlink
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new HookwardenError(
        'pack_error',
        code === 'EEXIST'
          ? `${path} already exists; remove it or choose another --out prefix`
          : `cannot write ${path} (${code})`,
        { cause: err },
      );
    }
    try {
      await fh.chmod(mode); // the umask may only have narrowed it; make the mode exact
      await fh.writeFile(text);
    } finally {
      await fh.close();
    }
  };
  await create(keyFile, pair.privateKeyPem, 0o600);
  await create(publicKeyFile, pair.publicKeyPem, 0o644);
  return { keyFile, publicKeyFile, keyId: pair.keyId };
}
