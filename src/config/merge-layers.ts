// Merges the hooks of every layer (docs/configuration.md): policy first, then project, then user, each in
// file order; a later layer replaces an earlier one's hook with the same event+name, project replaces user,
// and nothing replaces a policy hook (a clash drops the other hook with a warning).
import { OVERRIDE_ORDER, type Scope } from '../contract/scopes.js';
import type { HookDefinition } from '../registry/hook-definition.js';
import type { DiagnosticSink } from './diagnostics.js';

/** Override order (src/contract/scopes.ts): a lower number replaces a higher one. */
const SCOPE_ORDER = Object.fromEntries(OVERRIDE_ORDER.map((s, i) => [s, i])) as Record<Scope, number>;

/** One file's (or pack's) hooks at one scope. */
export interface Layer {
  readonly scope: Scope;
  readonly sink: DiagnosticSink;
  readonly hooks: readonly HookDefinition[];
}

export function mergeLayers(layers: readonly Layer[]): HookDefinition[] {
  const policyKeys = new Set<string>();
  const key = (h: HookDefinition) => `${h.event}\u0000${h.id}`;
  for (const l of layers)
    if (l.scope === 'policy') for (const h of l.hooks) if (h.named) policyKeys.add(key(h));

  // Ascending precedence: user files in order, then project files in order.
  const byPrecedence = layers
    .map((l, i) => ({ ...l, i }))
    .filter((l) => l.scope !== 'policy')
    .sort((a, b) => SCOPE_ORDER[b.scope] - SCOPE_ORDER[a.scope] || a.i - b.i);
  const winner = new Map<string, HookDefinition>();
  for (const l of byPrecedence) {
    const seenHere = new Map<string, HookDefinition>();
    for (const h of l.hooks) {
      // Unnamed hooks never replace each other (identical ones are deduplicated at dispatch).
      if (!h.named) continue;
      const k = key(h);
      if (policyKeys.has(k)) {
        l.sink.warn(
          h.origin.slice(l.sink.file.length + 2),
          `hook "${h.id}" clashes with a policy hook of the same event and name; policy hooks cannot be replaced, so this one is dropped`,
          true,
        );
        continue;
      }
      const prev = seenHere.get(k);
      if (prev !== undefined) {
        l.sink.warn(
          h.origin.slice(l.sink.file.length + 2),
          `a second hook named "${h.id}" for ${h.event} replaces the first`,
        );
      }
      seenHere.set(k, h);
      winner.set(k, h);
    }
  }
  const ordered = [...layers].sort((a, b) => SCOPE_ORDER[a.scope] - SCOPE_ORDER[b.scope]);
  const out: HookDefinition[] = [];
  for (const l of ordered) {
    for (const h of l.hooks) if (l.scope === 'policy' || !h.named || winner.get(key(h)) === h) out.push(h);
  }
  return out;
}
