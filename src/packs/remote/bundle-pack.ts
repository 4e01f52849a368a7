// `hookwarden pack bundle <dir> --out <file>`: a locked pack as one .tar.gz to serve over HTTP. The
// archive holds exactly the locked files plus hookpack.lock.json and hookpack.sig, as the bytes that
// were checked against the lock; entries are sorted, with mode 0644/0755, owner 0 and time 0, and the
// gzip header carries no time, so the same pack always makes the same bytes (and the same ETag). The
// bundle is then unpacked again, as an executor would, to check it before it is written.
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, open, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { Header, Pax } from 'tar';
import { HookwardenError } from '../../contract/hookwarden-error.js';
import { packDigest, sha256Hex } from '../digest.js';
import { LOCK_FILE, SIG_FILE } from '../names.js';
import { readPlainFile } from '../plain-file.js';
import { inspectPack } from '../verify.js';
import { walkPack } from '../walk.js';
import { REMOTE_PACK_DEFAULTS } from './options.js';
import { unpackBundle } from './unpack.js';

const gzipAsync = promisify(gzip);

export interface PackBundleResult {
  /** Absolute pack directory. */
  readonly dir: string;
  /** The bundle written. */
  readonly out: string;
  /** The pack digest (what pins name). */
  readonly digest: string;
  /** Files in the bundle, hookpack.lock.json and hookpack.sig included. */
  readonly fileCount: number;
  readonly bytes: number;
  /** `sha256:` of the bundle file itself (not the pack digest). */
  readonly sha256: string;
  /** Signatures in hookpack.sig (0: unsigned; a url pin without a digest will refuse it). */
  readonly signatureCount: number;
}

const EPOCH = new Date(0);

/** One tar entry: a pax header first when the path does not fit ustar's fields. */
function tarEntry(path: string, data: Buffer, executable: boolean): Buffer {
  const fields = { path, mode: executable ? 0o755 : 0o644, size: data.length, mtime: EPOCH, uid: 0, gid: 0 };
  const header = new Header({ ...fields, type: 'File', uname: '', gname: '' });
  const block = Buffer.alloc(512);
  const needPax = header.encode(block, 0);
  const pax = needPax ? new Pax({ path, mtime: EPOCH }).encode() : Buffer.alloc(0);
  const padded = Buffer.alloc(Math.ceil(data.length / 512) * 512);
  data.copy(padded);
  return Buffer.concat([pax, block, padded]);
}

/**
 * Bundles a locked pack into `out` (replaced atomically). Rejects with `pack_error` when the files
 * do not match the lock, or when `out` lies inside the pack.
 */
export async function bundlePack(dir: string, out: string): Promise<PackBundleResult> {
  const { report } = await inspectPack(dir, { publicKeys: [], requireSignature: false });
  if (!report.ok || report.digest === undefined)
    throw new HookwardenError(
      'pack_error',
      `cannot bundle ${report.dir}: ${report.problems.join('; ')} (run \`hookwarden pack lock\` after every change)`,
      { problems: report.problems },
    );
  const target = resolve(out);
  const rel = relative(report.dir, target);
  if (rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep)))
    throw new HookwardenError('pack_error', `--out ${out} lies inside the pack; write the bundle elsewhere`);
  const walk = await walkPack(report.dir);
  const entries: Buffer[] = [];
  let signatureCount = 0;
  const paths = [...walk.files.keys(), LOCK_FILE, SIG_FILE];
  let fileCount = 0;
  for (const path of paths) {
    const read = await readPlainFile(join(walk.root, path));
    if (!read.ok) {
      if (path === SIG_FILE && read.code === 'ENOENT') continue;
      throw new HookwardenError('pack_error', `cannot bundle ${walk.root}: ${path} ${read.message}`);
    }
    const locked = walk.files.get(path);
    if (locked !== undefined && sha256Hex(read.bytes) !== locked)
      throw new HookwardenError(
        'pack_error',
        `cannot bundle ${walk.root}: ${path} changed while it was read`,
      );
    if (path === SIG_FILE) signatureCount = countSignatures(read.bytes);
    entries.push(tarEntry(path, read.bytes, (Number(read.stat.mode) & 0o111) !== 0));
    fileCount++;
  }
  const tar = Buffer.concat([...entries, Buffer.alloc(1024)]);
  const bundle = await gzipAsync(tar, { level: 9 });
  await checkBundle(bundle, report.digest);
  await writeAtomically(target, bundle);
  return {
    dir: walk.root,
    out: target,
    digest: report.digest,
    fileCount,
    bytes: bundle.length,
    sha256: `sha256:${sha256Hex(bundle)}`,
    signatureCount,
  };
}

/** Writes `bytes` to `target` through a temporary file renamed over it (missing folders are made). */
async function writeAtomically(target: string, bytes: Buffer): Promise<void> {
  const tmp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await mkdir(dirname(target), { recursive: true, mode: 0o755 });
    const fh = await open(tmp, 'wx', 0o644);
    try {
      await fh.writeFile(bytes);
    } finally {
      await fh.close();
    }
    await rename(tmp, target);
  } catch (err) {
    await rm(tmp, { force: true });
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new HookwardenError('pack_error', `cannot write ${target} (${code})`, { cause: err });
  }
}

function countSignatures(bytes: Buffer): number {
  try {
    const sigs = (JSON.parse(bytes.toString('utf8')) as { signatures?: unknown }).signatures;
    return Array.isArray(sigs) ? sigs.length : 0;
  } catch {
    return 0;
  }
}

/** Unpacks the bundle as an executor would (default limits) and checks it holds the pack digest. */
async function checkBundle(bundle: Buffer, digest: string): Promise<void> {
  const scratch = await mkdtemp(join(tmpdir(), 'hw-bundle-check-'));
  try {
    await unpackBundle(bundle, join(scratch, 'pack'), REMOTE_PACK_DEFAULTS).catch((err: unknown) => {
      throw new HookwardenError(
        'pack_error',
        `the bundle would be refused with the default limits: ${(err as Error).message}`,
      );
    });
    const walk = await walkPack(join(scratch, 'pack'));
    if (walk.problems.length > 0 || packDigest(walk.files) !== digest)
      throw new HookwardenError('pack_error', 'the bundle does not unpack to the pack it was made from');
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
