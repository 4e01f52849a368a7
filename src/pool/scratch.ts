// Per-invocation scratch directories (HOME and TMPDIR of a command hook), under one private root
// per executor. Removed after the hook ends; the root goes on close().
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export class ScratchDirs {
  #root: string | undefined;
  readonly #removals = new Set<Promise<void>>();

  #ensureRoot(): string {
    // mkdtemp creates the directory with mode 0700: other users cannot look in.
    this.#root ??= mkdtempSync(join(tmpdir(), 'hookwarden-'));
    return this.#root;
  }

  /** A fresh, empty directory (mode 0700). */
  create(): Promise<string> {
    return mkdtemp(join(this.#ensureRoot(), 'h-'));
  }

  /** Removes a directory in the background; close() waits for it. */
  remove(dir: string): void {
    const p = rm(dir, { recursive: true, force: true, maxRetries: 2 }).catch(() => {});
    this.#removals.add(p);
    void p.finally(() => this.#removals.delete(p));
  }

  async close(): Promise<void> {
    await Promise.all(this.#removals);
    if (this.#root !== undefined) rmSync(this.#root, { recursive: true, force: true, maxRetries: 2 });
    this.#root = undefined;
  }
}
