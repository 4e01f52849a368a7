// A one-line progress bar for `hookwarden bench`, redrawn in place at most every 100 ms. Drawn only
// when the stream is a terminal (never into a pipe or a file), and only ever on stderr.

/** Where the bar is drawn: stderr, or a stand-in with the same shape in tests. */
export interface ProgressStream {
  readonly isTTY?: boolean;
  readonly columns?: number;
  write(text: string): unknown;
}

export interface Progress {
  /** `done` of `total` measured dispatches are finished. */
  update(done: number, total: number): void;
  /** Erases the bar. */
  finish(): void;
}

const NONE: Progress = { update() {}, finish() {} };
const REDRAW_MS = 100;

/** A progress bar on `stream`, or one that draws nothing when `stream` is not a terminal. */
export function createProgress(stream: ProgressStream, label: string): Progress {
  if (stream.isTTY !== true) return NONE;
  const started = performance.now();
  let lastDraw = 0;
  let drawn = false;
  return {
    update(done, total) {
      const now = performance.now();
      if (done < total && now - lastDraw < REDRAW_MS) return;
      lastDraw = now;
      const fraction = total > 0 ? done / total : 1;
      const rate = done / Math.max(1e-3, (now - started) / 1000);
      const width = Math.max(10, Math.min(40, (stream.columns ?? 80) - 60));
      const full = Math.round(fraction * width);
      const bar = `${'█'.repeat(full)}${'░'.repeat(width - full)}`;
      const text = `${label} ${bar} ${(fraction * 100).toFixed(0).padStart(3)}% ${done}/${total} ${Math.round(rate)}/s`;
      stream.write(`\r\x1b[2K${text}`);
      drawn = true;
    },
    finish() {
      if (drawn) stream.write('\r\x1b[2K');
      drawn = false;
    },
  };
}
