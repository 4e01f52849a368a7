// Progress of a long `hookwarden bench` run, only ever on stderr. On a terminal: a one-line bar
// redrawn in place (at most every 100 ms) with the rate and the time left. Elsewhere (CI logs, a
// file): one plain line every few seconds, so a log shows the run is alive without filling up.
//
// Hand-written rather than cli-progress (3.12.0, the usual choice): that library installs its own
// SIGINT/SIGTERM handlers by default, which compete with the CLI's interrupt handling; its non-TTY
// mode repeats the bar's glyphs into logs; and its ETA is a moving window that shows "INF" while
// progress stalls. What is needed here is ~70 lines (docs/bench.md, "Progress").

/** Where progress is written: stderr, or a stand-in with the same shape in tests. */
export interface ProgressStream {
  readonly isTTY?: boolean;
  readonly columns?: number;
  write(text: string): unknown;
}

export interface Progress {
  /** `done` of `total` measured dispatches are finished. */
  update(done: number, total: number): void;
  /** Erases the bar (a terminal); a log gets nothing more. */
  finish(): void;
}

export interface ProgressOptions {
  /** Time between lines when the stream is not a terminal. Default 5000 ms. */
  logIntervalMs?: number;
  /** Clock, ms (tests). Default `performance.now`. */
  now?: () => number;
}

const REDRAW_MS = 100;
const int = (v: number) => Math.round(v).toLocaleString('en-US');

/** `42 s`, `3 min 05 s`, `1 h 02 min`. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
}

/** A progress display on `stream`: a bar on a terminal, else a line every `logIntervalMs`. */
export function createProgress(
  stream: ProgressStream,
  label: string,
  options: ProgressOptions = {},
): Progress {
  const now = options.now ?? (() => performance.now());
  const tty = stream.isTTY === true;
  const interval = tty ? REDRAW_MS : (options.logIntervalMs ?? 5000);
  const started = now();
  let last = tty ? 0 : started;
  let drawn = false;
  return {
    update(done, total) {
      const t = now();
      if ((done < total || !tty) && t - last < interval) return;
      last = t;
      const elapsed = Math.max(1e-3, t - started);
      const rate = (done / elapsed) * 1000;
      const left = done > 0 ? formatDuration(((total - done) / done) * elapsed) : '?';
      const fraction = total > 0 ? done / total : 1;
      if (!tty) {
        stream.write(
          `${label}: ${int(done)}/${int(total)} dispatches (${Math.floor(fraction * 100)}%), ${int(rate)}/s, about ${left} left\n`,
        );
        return;
      }
      const width = Math.max(10, Math.min(40, (stream.columns ?? 80) - 60));
      const full = Math.round(fraction * width);
      const bar = `${'█'.repeat(full)}${'░'.repeat(width - full)}`;
      const text = `${label} ${bar} ${(fraction * 100).toFixed(0).padStart(3)}% ${done}/${total} ${int(rate)}/s ETA ${left}`;
      stream.write(`\r\x1b[2K${text}`);
      drawn = true;
    },
    finish() {
      if (drawn) stream.write('\r\x1b[2K');
      drawn = false;
    },
  };
}
