// How long the daemon takes over its answers (from a call accepted to its answer), by what ran: the
// daemon's share of a hook call's time, which \`daemon status\` shows (the client's own is a fraction
// of a millisecond; the rest is the hooks, the kernel and waiting for a CPU). The last 1000 of each.
const KEEP = 1000;

export class AnswerTimings {
  readonly #by = new Map<string, number[]>();

  record(kind: string, ms: number): void {
    const list = this.#by.get(kind) ?? [];
    if (list.length === 0) this.#by.set(kind, list);
    list.push(ms);
    if (list.length > KEEP) list.shift();
  }

  /** Per kind: how many, and the p50, p90 and p99 in milliseconds. */
  summary(): Record<string, { n: number; p50: number; p90: number; p99: number }> {
    const out: Record<string, { n: number; p50: number; p90: number; p99: number }> = {};
    for (const [kind, list] of this.#by) {
      const s = [...list].sort((a, b) => a - b);
      const at = (q: number) =>
        Math.round(s[Math.min(s.length - 1, Math.floor(q * s.length))]! * 1000) / 1000;
      out[kind] = { n: s.length, p50: at(0.5), p90: at(0.9), p99: at(0.99) };
    }
    return out;
  }
}
