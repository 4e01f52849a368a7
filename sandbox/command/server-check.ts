// What the spawn server can do on this host, from `hw-spawn-server --check` (the very checks a server
// runs at start): contain process-mode hooks, build namespace sandboxes, cap processes (and how), and
// Landlock's ABI. Synchronous and cached, for `hookwarden doctor`, the isolation levels table and the
// namespace level's availability; a running executor also learns it from its server's first frame.
import { spawnSync } from 'node:child_process';
import { findNativeHelper } from './native-helper.js';

export interface ServerCheck {
  readonly contained: { readonly ok: boolean; readonly reason?: string };
  /** `prepared`: templates and network namespaces kept by the server (root); `built`: per hook. */
  readonly namespace: { readonly ok: boolean; readonly how?: 'prepared' | 'built'; readonly reason?: string };
  /** The process cap's mechanism for a contained hook and for a namespace hook. */
  readonly processCap: { readonly contained: string; readonly namespace: string };
  /** Landlock's ABI here (0: none). */
  readonly landlock: number;
}

let checked: ServerCheck | undefined;

/** The server's checks, or undefined when the server was not built. */
export function serverCheck(): ServerCheck | undefined {
  if (checked !== undefined) return checked;
  const server = findNativeHelper('hw-spawn-server');
  if (server === undefined) return undefined;
  const r = spawnSync(server, ['--check'], { encoding: 'utf8', env: {}, timeout: 10_000 });
  const lines = new Map(
    (r.stdout ?? '')
      .trim()
      .split('\n')
      .map((l) => [l.split(' ')[0] ?? '', l.slice(l.indexOf(' ') + 1)] as const),
  );
  const failed = r.error?.message ?? `the check exited with status ${r.status}`;
  const cap = (lines.get('process-cap') ?? 'none none').split(' ');
  checked = {
    contained: lines.has('contained')
      ? { ok: true }
      : { ok: false, reason: lines.get('uncontained') ?? failed },
    namespace: lines.has('namespace')
      ? { ok: true, how: lines.get('namespace') === 'built' ? 'built' : 'prepared' }
      : { ok: false, reason: lines.get('no-namespace') ?? failed },
    processCap: { contained: cap[0] ?? 'none', namespace: cap[1] ?? 'none' },
    landlock: Number(lines.get('landlock') ?? 0) || 0,
  };
  return checked;
}
