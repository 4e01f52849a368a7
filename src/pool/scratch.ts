// Per-invocation scratch directories (HOME and TMPDIR of a command hook), under one private root
// per executor (mode 0711: nobody can list it; each directory has a random, unguessable name).
// The root lives on a tmpfs when there is one (/dev/shm): mkdir+rmdir cost ~9 µs there against
// ~100 µs on this machine's ext4 /tmp, on the critical path of every command hook. Created, and
// removed when left empty, with one synchronous syscall each; non-empty ones are removed in the
// background; close() waits for those and removes the root.
import { randomBytes } from 'node:crypto';
import {
  accessSync,
  chmodSync,
  constants,
  mkdirSync,
  mkdtempSync,
  rmdirSync,
  rmSync,
  statSync,
} from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { snapshotEtc } from '../../sandbox/command/namespace-profile.js';

/** Where scratch roots go by default: a writable tmpfs if the host has one, else the OS temp dir. */
export function defaultScratchBase(): string {
  for (const candidate of [process.env.XDG_RUNTIME_DIR, '/dev/shm']) {
    if (candidate === undefined || candidate === '') continue;
    try {
      if (statSync(candidate).isDirectory()) {
        accessSync(candidate, constants.W_OK | constants.X_OK);
        return candidate;
      }
    } catch {}
  }
  return tmpdir();
}

export class ScratchDirs {
  readonly #base: string;
  #root: string | undefined;
  readonly #etc = new Map<boolean, string>();
  readonly #tenantDirs = new Map<string, string>();
  readonly #pending = new Set<Promise<void>>();

  constructor(base: string = defaultScratchBase()) {
    this.#base = base;
  }

  #ensureRoot(): void {
    if (this.#root !== undefined) return;
    this.#root = mkdtempSync(join(this.#base, 'hookwarden-'));
    // Traversable but not listable: a hook running as `nobody` reaches its own directory, whose
    // random name no other hook can guess.
    chmodSync(this.#root, 0o711);
  }

  /**
   * A fresh, empty directory (mode 0700), never handed out twice, under the tenant's own parent:
   * tenants never share a scratch directory.
   */
  create(tenant = ''): string {
    this.#ensureRoot();
    let parent = this.#tenantDirs.get(tenant);
    if (parent === undefined) {
      // Tenant ids are validated (no path characters) before they reach here.
      parent = join(this.#root!, tenant === '' ? 'default' : `t-${tenant}`);
      mkdirSync(parent, { recursive: true, mode: 0o711 });
      this.#tenantDirs.set(tenant, parent);
    }
    // A random name only: a count would tell a tenant how many hooks others ran in between.
    const dir = join(parent, `h-${randomBytes(12).toString('hex')}`);
    mkdirSync(dir, { mode: 0o700 });
    return dir;
  }

  /**
   * The /etc snapshot namespace sandboxes get (made on first use, removed with the root);
   * `minimalUsers` for a tenant's: no host account in passwd and group.
   */
  etcSnapshot(minimalUsers = false): string {
    this.#ensureRoot();
    let dir = this.#etc.get(minimalUsers);
    if (dir === undefined) {
      dir = join(this.#root!, minimalUsers ? 'etc-tenant' : 'etc');
      snapshotEtc(dir, minimalUsers);
      this.#etc.set(minimalUsers, dir);
    }
    return dir;
  }

  /** Removes a directory: at once when empty (most hooks), else in the background. */
  remove(dir: string): void {
    try {
      rmdirSync(dir);
    } catch {
      const p = rm(dir, { recursive: true, force: true, maxRetries: 2 }).catch(() => {});
      this.#pending.add(p);
      void p.finally(() => this.#pending.delete(p));
    }
  }

  async close(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
    if (this.#root !== undefined) rmSync(this.#root, { recursive: true, force: true, maxRetries: 2 });
    this.#root = undefined;
    this.#etc.clear();
    this.#tenantDirs.clear();
  }
}
