// What hot reload watches: a directory, and optionally the one entry in it that matters. Directories
// are watched (not files) because editors and deploy tools replace files by renaming over them.

export interface WatchTarget {
  /** Absolute directory to watch. */
  readonly dir: string;
  /** Only changes to this entry of `dir` count; undefined: any change in `dir` counts. */
  readonly name: string | undefined;
}
