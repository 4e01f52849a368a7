// The key of a keyed audit file (HMAC-SHA-256 links): at least 32 random bytes, given as a key file,
// bytes or a secret KeyObject. A key file must be the file itself (no symlink), readable and writable
// by its owner only (mode 0600 or stricter), and hold hex, base64 or raw bytes.
import { createSecretKey, type KeyObject, randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * An audit key: a path to a key file (checked as described in README "Audit trail"), the key bytes,
 * or a secret KeyObject. At least 32 bytes.
 */
export type AuditKey = string | Uint8Array | KeyObject;

/** Fewest key bytes accepted: HMAC-SHA-256 gains nothing from more than 32 and loses from fewer. */
const MIN_AUDIT_KEY_BYTES = 32;
/** A key file is small; anything larger is probably the wrong file. */
const MAX_KEY_FILE_BYTES = 4096;

const tooShort = (what: string, n: number) =>
  `${what} has ${n} bytes; an audit key needs at least ${MIN_AUDIT_KEY_BYTES} random bytes (\`hookwarden audit keygen --out <file>\` writes one)`;

/** The key bytes a key file holds: hex or base64 text (surrounding whitespace ignored), else raw bytes. */
function decodeKeyFile(raw: Buffer): Buffer {
  const text = raw.toString('latin1').trim();
  if (/^(?:[0-9a-fA-F]{2})+$/.test(text)) return Buffer.from(text, 'hex');
  if (text.length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(text)) {
    const bytes = Buffer.from(text, 'base64');
    if (bytes.length >= MIN_AUDIT_KEY_BYTES) return bytes;
  }
  return raw;
}

/** Reads and checks a key file; throws an Error that says what is wrong and how to fix it. */
export function readAuditKeyFile(path: string): KeyObject {
  let fd: number;
  try {
    // O_NOFOLLOW: a symlink is refused, not followed (someone else may control where it points).
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP')
      throw new Error(`key file ${path} is a symlink; give the key file itself (symlinks are refused)`);
    if (code === 'ENOENT') throw new Error(`key file ${path} does not exist`);
    throw new Error(`key file ${path} cannot be read (${code})`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new Error(`key file ${path} is not a regular file`);
    if ((st.mode & 0o077) !== 0) {
      const mode = (st.mode & 0o777).toString(8).padStart(4, '0');
      throw new Error(
        `key file ${path} is accessible to group or others (mode ${mode}); only its owner may read it: chmod 600 ${path}`,
      );
    }
    if (st.size > MAX_KEY_FILE_BYTES)
      throw new Error(`key file ${path} is ${st.size} bytes; a key file holds at most ${MAX_KEY_FILE_BYTES}`);
    const raw = Buffer.alloc(st.size);
    let read = 0;
    while (read < raw.length) {
      const n = readSync(fd, raw, read, raw.length - read, read);
      if (n === 0) break;
      read += n;
    }
    const key = decodeKeyFile(raw.subarray(0, read));
    if (key.length < MIN_AUDIT_KEY_BYTES) throw new Error(tooShort(`key file ${path}`, key.length));
    return createSecretKey(key);
  } finally {
    closeSync(fd);
  }
}

/** Resolves any AuditKey to a secret KeyObject (a key file is read and checked). */
export function toAuditKey(key: AuditKey): KeyObject {
  if (typeof key === 'string') {
    if (key === '') throw new Error('key: expected a key file path, got ""');
    return readAuditKeyFile(key);
  }
  if (key instanceof Uint8Array) {
    if (key.length < MIN_AUDIT_KEY_BYTES) throw new Error(tooShort('key', key.length));
    return createSecretKey(Buffer.from(key)); // a copy: the caller may reuse its buffer
  }
  if (typeof key === 'object' && key !== null && (key as KeyObject).type === 'secret') {
    const size = (key as KeyObject).symmetricKeySize ?? 0;
    if (size < MIN_AUDIT_KEY_BYTES) throw new Error(tooShort('key', size));
    return key as KeyObject;
  }
  throw new Error('key: expected a key file path, a Buffer/Uint8Array or a secret KeyObject');
}

/**
 * Writes a fresh 32-byte key, as hex, to `path` (mode 0600; missing parent directories are created
 * with mode 0700). Refuses to overwrite anything: replacing a key makes its files unverifiable.
 */
export function writeAuditKeyFile(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  let fd: number;
  try {
    // O_EXCL: never an existing file, never through a symlink.
    fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new Error(
      code === 'EEXIST'
        ? `${path} already exists; remove it or choose another --out (a replaced key cannot verify its files)`
        : `cannot write ${path} (${code})`,
    );
  }
  try {
    writeSync(fd, `${randomBytes(MIN_AUDIT_KEY_BYTES).toString('hex')}\n`);
  } finally {
    closeSync(fd);
  }
}
