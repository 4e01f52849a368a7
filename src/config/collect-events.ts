// The `events` sections of every source: custom events, and built-in events with their mode switched.
// The first setting wins, and policy files are read first.
import { DEFAULT_EVENTS, defineEvent, EVENT_ALIASES, type EventDefinition } from '../contract/events.js';
import { isObject, issueMessages, joinPath, renderValue } from '../contract/messages.js';
import type { ReadSource } from './read-source.js';
import { eventDefinitionSchema } from './schema.js';

/** A built-in event can switch its mode, and only that (Claude Code runs tool hooks in parallel). */
function switchMode(
  src: ReadSource,
  name: string,
  spec: unknown,
  modes: Map<string, 'serial' | 'parallel'>,
): void {
  const path = joinPath('events', name);
  const canonical = EVENT_ALIASES[name]?.event ?? name;
  if (
    isObject(spec) &&
    Object.keys(spec).length === 1 &&
    (spec.mode === 'serial' || spec.mode === 'parallel')
  ) {
    if (!modes.has(canonical)) modes.set(canonical, spec.mode);
    else if (modes.get(canonical) !== spec.mode)
      src.sink.warn(
        path,
        `the mode of ${canonical} is already set to "${modes.get(canonical)}"; this one is ignored`,
      );
    return;
  }
  src.sink.error(
    path,
    `"${name}" is a built-in event or alias: only its mode can be set, as {"mode": "serial"|"parallel"}, got ${renderValue(spec)}`,
  );
}

/** Custom events, and built-in events with their mode switched (first setting wins: policy first). */
export function collectEvents(sources: readonly ReadSource[]): EventDefinition[] {
  const custom = new Map<string, EventDefinition>();
  const modes = new Map<string, 'serial' | 'parallel'>();
  const definedBy = new Map<string, string>();
  const builtIn = new Set([...DEFAULT_EVENTS.map((e) => e.name), ...Object.keys(EVENT_ALIASES)]);
  for (const src of sources) {
    const events = src.value?.events;
    if (events === undefined) continue;
    if (!isObject(events)) {
      src.sink.error('events', `expected an object of event definitions, got ${renderValue(events)}`);
      continue;
    }
    for (const name of Object.keys(events)) {
      const path = joinPath('events', name);
      if (builtIn.has(name)) {
        switchMode(src, name, events[name], modes);
        continue;
      }
      if (!/^[A-Za-z][A-Za-z0-9_.:-]{0,63}$/.test(name)) {
        src.sink.error(
          path,
          `event names are 1-64 letters, digits, _ . : - starting with a letter, got ${renderValue(name)}`,
        );
        continue;
      }
      const parsed = eventDefinitionSchema.safeParse(events[name]);
      if (!parsed.success) {
        for (const m of issueMessages(parsed.error.issues, events[name], path))
          src.sink.error(m.path, m.message);
        continue;
      }
      const d = parsed.data;
      const earlier = custom.get(name);
      if (earlier !== undefined) {
        // The first definition stands: policy files are read first, and a lower scope cannot change
        // how a higher scope's event behaves (e.g. turn canDeny off under a policy guard).
        const same =
          earlier.mode === d.mode &&
          earlier.canDeny === d.canDeny &&
          earlier.toolScoped === (d.toolScoped === true) &&
          JSON.stringify(earlier.honours) === JSON.stringify(d.honours ?? []);
        if (!same)
          src.sink.warn(
            path,
            `"${name}" is already defined by ${definedBy.get(name)}; this different definition is ignored`,
          );
        continue;
      }
      definedBy.set(name, src.sink.file);
      custom.set(
        name,
        defineEvent(name, {
          mode: d.mode,
          canDeny: d.canDeny,
          honours: d.honours ?? [],
          toolScoped: d.toolScoped === true,
        }),
      );
    }
  }
  const builtIns = DEFAULT_EVENTS.map((e) => {
    const mode = modes.get(e.name);
    return mode === undefined || mode === e.mode ? e : Object.freeze({ ...e, mode });
  });
  return [...builtIns, ...custom.values()];
}
