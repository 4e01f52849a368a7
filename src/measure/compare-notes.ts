// What differs between two compared runs besides their speed (hooks, input, settings, machine,
// build), and whether they are the same build and config: then whatever moved, the machine did.
import type { BenchResult } from './bench-result.js';

const short = (commit: string) => commit.slice(0, 12);

/** What a run ran: its hooks (by digest), input, event and settings; file names left out. */
function configKey(r: BenchResult): string {
  return JSON.stringify([
    r.hooks.map((h) => [h.id, h.type, h.digest, h.isolation, h.event ?? null, h.onError ?? null]),
    r.event,
    r.input.digest,
    r.input.varied,
    r.iterations,
    r.concurrency,
    r.tenants,
    r.url ?? null,
    r.replay?.source ?? null,
    (r.isolation ?? []).map((l) => l.level),
  ]);
}

/**
 * `{ commit }` when both runs are one clean commit of hookwarden running one configuration (hooks by
 * digest, input, settings); null otherwise, or when a checkout had uncommitted changes.
 */
export function sameBuildAndConfig(a: BenchResult, b: BenchResult): { commit: string } | null {
  const x = a.hookwarden;
  const y = b.hookwarden;
  if (x.commit === null || x.commit !== y.commit || x.version !== y.version) return null;
  if (x.dirty !== false || y.dirty !== false) return null;
  return configKey(a) === configKey(b) ? { commit: x.commit } : null;
}

/** The one line that says so, or that it cannot be said for a dirty checkout. */
export function sameLine(a: BenchResult, b: BenchResult): string | null {
  const same = sameBuildAndConfig(a, b);
  if (same !== null)
    return `both runs are the same commit (${short(same.commit)}) and the same config (hooks by digest, input, settings): any difference is the machine's`;
  const c = a.hookwarden.commit;
  if (c !== null && c === b.hookwarden.commit && configKey(a) === configKey(b))
    return `both runs are the same commit (${short(c)}) and config, but a checkout had uncommitted changes: the builds may differ`;
  return null;
}

export function differences(base: BenchResult, next: BenchResult): string[] {
  const notes: string[] = [];
  const digests = (r: BenchResult) => new Map(r.hooks.map((h) => [h.id, h]));
  const a = digests(base);
  const b = digests(next);
  for (const [id, h] of b) {
    const old = a.get(id);
    if (old === undefined) notes.push(`hook "${id}" is new`);
    else if (old.digest !== h.digest)
      notes.push(`hook "${id}" changed (digest ${old.digest.slice(7, 19)} → ${h.digest.slice(7, 19)})`);
    else if (old.isolation !== h.isolation)
      notes.push(`hook "${id}" runs in ${h.isolation} isolation (was ${old.isolation})`);
  }
  for (const id of a.keys()) if (!b.has(id)) notes.push(`hook "${id}" is gone`);
  if (base.event !== next.event) notes.push(`event ${base.event} → ${next.event}`);
  if (base.input.digest !== next.input.digest) notes.push('the input differs');
  for (const key of ['concurrency', 'tenants', 'iterations'] as const)
    if (base[key] !== next[key]) notes.push(`${key} ${base[key]} → ${next[key]}`);
  const m = (r: BenchResult) => `${r.machine.cpus} × ${r.machine.cpuModel}, Node ${r.machine.node}`;
  if (m(base) !== m(next)) notes.push(`machine ${m(base)} → ${m(next)}`);
  const v = (r: BenchResult) =>
    `${r.hookwarden.version}${r.hookwarden.commit === null ? '' : ` (${r.hookwarden.commit.slice(0, 7)}${r.hookwarden.dirty ? '+changes' : ''})`}`;
  if (v(base) !== v(next)) notes.push(`hookwarden ${v(base)} → ${v(next)}`);
  if (Math.min(base.blocks.length, next.blocks.length) < 5)
    notes.push('fewer than 5 blocks in a run: the test can hardly ever be significant; run more iterations');
  return notes;
}
