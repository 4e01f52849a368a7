// Watches what a configuration was loaded from (config files, pack directories, key files) and calls
// back once things settle: 300 ms after the last change. Directories are watched, not files, because
// editors and deploy tools replace files by renaming over them. Watchers never keep the process alive.
import { type FSWatcher, statSync, watch } from 'node:fs';
import type { WatchTarget } from '../config/watch-target.js';

/** Debounce of hot reload (docs/tenants-and-audit.md#hot-reload). */
const RELOAD_DEBOUNCE_MS = 300;

interface Watched {
  readonly watcher: FSWatcher;
  readonly ino: number;
  /** Entry names that count; undefined: every change in the directory counts. */
  names: Set<string> | undefined;
}

export class ConfigWatcher {
  readonly #onChange: () => void;
  readonly #debounceMs: number;
  readonly #watched = new Map<string, Watched>();
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(onChange: () => void, debounceMs = RELOAD_DEBOUNCE_MS) {
    this.#onChange = onChange;
    this.#debounceMs = debounceMs;
  }

  /** Watches exactly `targets` from now on (directories replaced since are watched again). */
  update(targets: readonly WatchTarget[]): void {
    if (this.#closed) return;
    const wanted = new Map<string, Set<string> | undefined>();
    for (const t of targets) {
      const names = wanted.get(t.dir);
      if (wanted.has(t.dir) && names === undefined) continue;
      if (t.name === undefined) wanted.set(t.dir, undefined);
      else wanted.set(t.dir, new Set([...(names ?? []), t.name]));
    }
    for (const [dir, w] of this.#watched) {
      if (!wanted.has(dir) || inode(dir) !== w.ino) this.#drop(dir);
    }
    for (const [dir, names] of wanted) {
      const existing = this.#watched.get(dir);
      if (existing !== undefined) existing.names = names;
      else this.#add(dir, names);
    }
  }

  #add(dir: string, names: Set<string> | undefined): void {
    const ino = inode(dir);
    if (ino === undefined) return; // not there (yet): its parent, if watched, reports its creation
    let watcher: FSWatcher;
    try {
      watcher = watch(dir, { persistent: false });
    } catch {
      return;
    }
    const entry: Watched = { watcher, ino, names };
    watcher.on('change', (_event, filename) => {
      const name = filename === null ? undefined : String(filename);
      if (entry.names === undefined || name === undefined || entry.names.has(name)) this.#schedule();
    });
    // The directory went away: that is a change, and this watcher is dead.
    watcher.on('error', () => {
      this.#drop(dir);
      this.#schedule();
    });
    this.#watched.set(dir, entry);
  }

  #drop(dir: string): void {
    this.#watched.get(dir)?.watcher.close();
    this.#watched.delete(dir);
  }

  #schedule(): void {
    if (this.#closed) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (!this.#closed) this.#onChange();
    }, this.#debounceMs);
    this.#timer.unref();
  }

  /** Directories currently watched (tests). */
  get directories(): readonly string[] {
    return [...this.#watched.keys()];
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    for (const dir of [...this.#watched.keys()]) this.#drop(dir);
  }
}

function inode(dir: string): number | undefined {
  try {
    const st = statSync(dir);
    return st.isDirectory() ? st.ino : undefined;
  } catch {
    return undefined;
  }
}
