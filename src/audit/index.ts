// `hookwarden/audit`: audit files — verify a chain (plain or keyed), write an audit key.

/** Writes a fresh audit key file (mode 0600), and the accepted key forms. */
export { type AuditKey, writeAuditKeyFile } from './audit-key.js';
/** An audit record as written. */
export type { AuditRecord } from './audit-log.js';
/** Whether a file's links are plain sha256 or keyed HMACs. */
export type { ChainMode } from './hash-chain.js';
/** Verifies an audit file's chain (with a key: its authenticity). */
export { type ChainReport, type VerifyOptions, verifyChain } from './verify-chain.js';
