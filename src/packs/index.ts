// `hookwarden/packs`: policy pack tooling — lock a pack (digest), make and use Ed25519 keys, sign,
// verify (what `hookwarden pack …` does).

/** Ed25519 key pairs for signing packs, and a public key's id. */
export { generatePackKeyPair, type PackKeyPair, packKeyId, writePackKeyPair } from './keys.js';
/** Locks a pack: writes hookpack.lock.json with its digest. */
export { lockPack, type PackLockResult } from './lock-pack.js';
/** Signs a locked pack with a private key. */
export { type PackSignResult, signPack } from './sign-pack.js';
/** Verifies a pack against its lock, a digest and/or trusted keys. */
export {
  type PackSignatureCheck,
  type PackVerification,
  type PackVerifyOptions,
  verifyPack,
} from './verify.js';
