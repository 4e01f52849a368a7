// Polls the bundles of url pins (those without a digest) every `pollSeconds`: a conditional GET with
// the ETag of the last response. When a bundle other than the one in force arrives, the executor
// reloads, which verifies it against its pin (and keeps the last known good if it does not verify).
// A failed poll is reported once until the next success. Timers never keep the process alive.
import type { Diagnostic } from '../config/diagnostics.js';
import type { RemotePacks } from '../packs/remote/remote-packs.js';
import type { RemotePinTarget } from '../packs/remote/url-pin-fields.js';

interface Polled {
  target: RemotePinTarget;
  timer: NodeJS.Timeout | undefined;
  /** The problem last reported, so that a server that stays down is reported once. */
  reported: string | undefined;
  /** The digest that last made the executor reload (a refused bundle triggers one reload, not one per poll). */
  triggered: string | undefined;
}

export class PackPoller {
  readonly #remote: RemotePacks;
  readonly #onChange: () => void;
  readonly #warn: (d: Diagnostic) => void;
  readonly #polled = new Map<string, Polled>();
  #closed = false;

  constructor(remote: RemotePacks, onChange: () => void, warn: (d: Diagnostic) => void) {
    this.#remote = remote;
    this.#onChange = onChange;
    this.#warn = warn;
  }

  /** Polls exactly `targets` from now on (one timer per URL, at the shortest interval asked for). */
  update(targets: readonly RemotePinTarget[]): void {
    if (this.#closed) return;
    const wanted = new Map<string, RemotePinTarget>();
    for (const t of targets) {
      const earlier = wanted.get(t.url);
      if (earlier === undefined || t.pollSeconds < earlier.pollSeconds) wanted.set(t.url, t);
    }
    for (const [url, p] of this.#polled) {
      if (wanted.has(url)) continue;
      clearTimeout(p.timer);
      this.#polled.delete(url);
    }
    for (const [url, target] of wanted) {
      const p = this.#polled.get(url);
      if (p === undefined) {
        const fresh: Polled = { target, timer: undefined, reported: undefined, triggered: undefined };
        this.#polled.set(url, fresh);
        this.#schedule(fresh);
      } else {
        const interval = p.target.pollSeconds;
        p.target = target;
        if (target.pollSeconds !== interval) {
          clearTimeout(p.timer);
          this.#schedule(p);
        }
      }
    }
  }

  /** URLs polled (tests). */
  get urls(): readonly string[] {
    return [...this.#polled.keys()];
  }

  close(): void {
    this.#closed = true;
    for (const p of this.#polled.values()) clearTimeout(p.timer);
    this.#polled.clear();
  }

  #schedule(p: Polled): void {
    p.timer = setTimeout(() => {
      this.#poll(p).finally(() => {
        if (!this.#closed && this.#polled.get(p.target.url) === p) this.#schedule(p);
      });
    }, p.target.pollSeconds * 1000);
    p.timer.unref();
  }

  async #poll(p: Polled): Promise<void> {
    const { url, pollSeconds, digest } = p.target;
    const out = await this.#remote.bundle(url, { pollSeconds, force: true });
    if (this.#closed) return;
    if (!out.ok) {
      if (out.problem !== p.reported)
        this.#warn({
          severity: 'warning',
          file: '<pack poll>',
          path: url,
          message: `${out.problem}; the bundle in force (${digest ?? 'none'}) stays`,
          skipped: false,
        });
      p.reported = out.problem;
      return;
    }
    p.reported = undefined;
    if (out.bundle.digest === digest || out.bundle.digest === p.triggered) return;
    p.triggered = out.bundle.digest;
    this.#onChange();
  }
}
