// What a wasm hook may import: the functions of WASI preview 1 (`wasi_snapshot_preview1`), each with
// its signature, and what each one does for a hook. Nothing else is importable: no other module
// name, no memory, table or global import. The answers (wasi.ts) give a hook its stdin, stdout and
// stderr, the event's clock, seeded random bytes and its exit; the filesystem and socket calls are
// importable (toolchains such as Go's import them all) but there is nothing for them to reach: no
// directory is preopened, no socket exists, so they answer EBADF.

const WASI_MODULE = 'wasi_snapshot_preview1';

/** What a call does, for docs/wasm.md and `validate`. */
export type WasiRole = 'acts' | 'empty' | 'refuses';

const I = 'i32';
const J = 'i64';
const sig = (params: string[], result = true) => `${params.join(',')}->${result ? I : ''}`;

/** Every WASI preview 1 function: its signature and its role for a hook. */
export const WASI_CALLS: Readonly<Record<string, { readonly signature: string; readonly role: WasiRole }>> =
  Object.freeze({
    args_get: { signature: sig([I, I]), role: 'empty' },
    args_sizes_get: { signature: sig([I, I]), role: 'empty' },
    environ_get: { signature: sig([I, I]), role: 'empty' },
    environ_sizes_get: { signature: sig([I, I]), role: 'empty' },
    clock_res_get: { signature: sig([I, I]), role: 'acts' },
    clock_time_get: { signature: sig([I, J, I]), role: 'acts' },
    fd_advise: { signature: sig([I, J, J, I]), role: 'refuses' },
    fd_allocate: { signature: sig([I, J, J]), role: 'refuses' },
    fd_close: { signature: sig([I]), role: 'acts' },
    fd_datasync: { signature: sig([I]), role: 'refuses' },
    fd_fdstat_get: { signature: sig([I, I]), role: 'acts' },
    fd_fdstat_set_flags: { signature: sig([I, I]), role: 'acts' },
    fd_fdstat_set_rights: { signature: sig([I, J, J]), role: 'refuses' },
    fd_filestat_get: { signature: sig([I, I]), role: 'acts' },
    fd_filestat_set_size: { signature: sig([I, J]), role: 'refuses' },
    fd_filestat_set_times: { signature: sig([I, J, J, I]), role: 'refuses' },
    fd_pread: { signature: sig([I, I, I, J, I]), role: 'refuses' },
    fd_prestat_get: { signature: sig([I, I]), role: 'empty' },
    fd_prestat_dir_name: { signature: sig([I, I, I]), role: 'empty' },
    fd_pwrite: { signature: sig([I, I, I, J, I]), role: 'refuses' },
    fd_read: { signature: sig([I, I, I, I]), role: 'acts' },
    fd_readdir: { signature: sig([I, I, I, J, I]), role: 'refuses' },
    fd_renumber: { signature: sig([I, I]), role: 'refuses' },
    fd_seek: { signature: sig([I, J, I, I]), role: 'refuses' },
    fd_sync: { signature: sig([I]), role: 'refuses' },
    fd_tell: { signature: sig([I, I]), role: 'refuses' },
    fd_write: { signature: sig([I, I, I, I]), role: 'acts' },
    path_create_directory: { signature: sig([I, I, I]), role: 'refuses' },
    path_filestat_get: { signature: sig([I, I, I, I, I]), role: 'refuses' },
    path_filestat_set_times: { signature: sig([I, I, I, I, J, J, I]), role: 'refuses' },
    path_link: { signature: sig([I, I, I, I, I, I, I]), role: 'refuses' },
    path_open: { signature: sig([I, I, I, I, I, J, J, I, I]), role: 'refuses' },
    path_readlink: { signature: sig([I, I, I, I, I, I]), role: 'refuses' },
    path_remove_directory: { signature: sig([I, I, I]), role: 'refuses' },
    path_rename: { signature: sig([I, I, I, I, I, I]), role: 'refuses' },
    path_symlink: { signature: sig([I, I, I, I, I]), role: 'refuses' },
    path_unlink_file: { signature: sig([I, I, I]), role: 'refuses' },
    poll_oneoff: { signature: sig([I, I, I, I]), role: 'acts' },
    proc_exit: { signature: sig([I], false), role: 'acts' },
    proc_raise: { signature: sig([I]), role: 'refuses' },
    random_get: { signature: sig([I, I]), role: 'acts' },
    sched_yield: { signature: sig([]), role: 'acts' },
    sock_accept: { signature: sig([I, I, I]), role: 'refuses' },
    sock_recv: { signature: sig([I, I, I, I, I, I]), role: 'refuses' },
    sock_send: { signature: sig([I, I, I, I, I]), role: 'refuses' },
    sock_shutdown: { signature: sig([I, I]), role: 'refuses' },
  });

/** Why an import is refused, or undefined when a hook may import it. */
export function refusedImport(imp: {
  readonly module: string;
  readonly name: string;
  readonly kind: number;
  readonly signature?: string | undefined;
}): string | undefined {
  const what = `"${imp.module}"."${imp.name}"`;
  if (imp.kind !== 0) {
    const kind = ['function', 'table', 'memory', 'global', 'tag'][imp.kind] ?? 'unknown';
    return `imports ${kind} ${what}: a wasm hook imports only functions of ${WASI_MODULE} (its memory is its own)`;
  }
  if (imp.module !== WASI_MODULE)
    return `imports ${what}: a wasm hook imports only functions of ${WASI_MODULE} (WASI preview 1); nothing else is provided`;
  const call = Object.hasOwn(WASI_CALLS, imp.name) ? WASI_CALLS[imp.name] : undefined;
  if (call === undefined) return `imports ${what}, which is not a function of WASI preview 1`;
  if (call.signature !== imp.signature)
    return `imports ${what} as (${imp.signature}), but WASI preview 1 declares it (${call.signature})`;
  return undefined;
}
