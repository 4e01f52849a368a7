// A config file's dialect: whose rules its hooks follow where the systems differ. Declared with a
// top-level "dialect", or detected from the file's shape:
// - hookwarden: canonical event names (BeforeTool…), hookwarden-only keys (policyHooks, events,
//   limits, packs, tenants) or hook fields (timeoutMs, onError, argv, type "js"…);
// - freecode: FreeCode's flat form, hooks directly in an event's list ({name, matcher, command});
// - claude-code: Claude Code's nested form under its event names (settings.json, plugin hooks.json).
// The dialect decides how relative command paths resolve (README "Paths").

import type { Dialect } from '../contract/dialects.js';
import { CLAUDE_CODE_EVENT_NAMES } from '../contract/events.js';
import { isObject } from '../contract/messages.js';

const HOOKWARDEN_TOP = ['policyHooks', 'events', 'limits', 'packs', 'tenants'];
const HOOKWARDEN_FIELDS = [
  'timeoutMs',
  'budgetMs',
  'onError',
  'argv',
  'source',
  'code',
  'memoryBytes',
  'maxOutputBytes',
  'inheritEnv',
  'isolation',
  'writable',
  'runAs',
  'rlimits',
];

/** Whether a hook spec uses a field only hookwarden has. */
const hookwardenHook = (h: unknown) =>
  isObject(h) && (h.type === 'js' || HOOKWARDEN_FIELDS.some((f) => Object.hasOwn(h, f)));

/** The dialect a file's shape shows (`canonical`: the names of hookwarden's own events). */
export function detectDialect(file: Record<string, unknown>, canonical: ReadonlySet<string>): Dialect {
  if (HOOKWARDEN_TOP.some((k) => Object.hasOwn(file, k))) return 'hookwarden';
  const hooks = file.hooks;
  if (!isObject(hooks)) return 'hookwarden';
  let flat = false;
  let aliasOnly = true;
  for (const [event, entries] of Object.entries(hooks)) {
    if (canonical.has(event) && !CLAUDE_CODE_EVENT_NAMES.has(event)) return 'hookwarden';
    if (!/^[A-Z][A-Za-z]+$/.test(event)) aliasOnly = false;
    if (!Array.isArray(entries)) continue;
    for (const entry of entries) {
      if (!isObject(entry)) continue;
      if (!Object.hasOwn(entry, 'hooks')) {
        if (hookwardenHook(entry)) return 'hookwarden';
        flat = true;
      } else if (Array.isArray(entry.hooks) && entry.hooks.some(hookwardenHook)) return 'hookwarden';
    }
  }
  if (flat) return 'freecode';
  return aliasOnly && Object.keys(hooks).length > 0 ? 'claude-code' : 'hookwarden';
}
