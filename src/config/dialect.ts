// A config file's dialect: whose rules its hooks follow where the systems differ. Declared with a
// top-level "dialect", or detected from the file's shape:
// - hookwarden: hookwarden-only keys (policyHooks, events, limits, packs, tenants) or hook fields
//   (timeoutMs, onError, argv, type "js"…), or canonical event names (BeforeTool…);
// - freecode: FreeCode's flat form, hooks directly in an event's list ({name, matcher, command});
// - claude-code: Claude Code's nested form under its event names (settings.json, plugin hooks.json);
// - the coding agents (docs/agents.md): an event only that agent has (Cursor's beforeShellExecution,
//   Copilot's userPromptSubmitted, Gemini CLI's BeforeAgent, Codex's Interrupt), or a field only it
//   writes (Copilot's bash/timeoutSec, Cursor's failClosed, Gemini's sequential, Codex's
//   commandWindows). A file whose shape is another's — Codex's hooks.json is Claude Code's, a Gemini
//   settings.json with only BeforeTool hooks reads as hookwarden's — is its agent's by where it is:
//   `.codex/`, `.gemini/`, `.cursor/`, `.github/hooks/` or `.copilot/`.
// The dialect decides how relative command paths resolve (README "Paths").

import { sep } from 'node:path';
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

/** Events only one agent has (Cursor and Copilot share sessionStart, preToolUse…). */
const ONLY: Readonly<Record<'cursor' | 'copilot' | 'gemini' | 'codex', readonly string[]>> = {
  cursor: [
    'beforeShellExecution',
    'afterShellExecution',
    'beforeMCPExecution',
    'afterMCPExecution',
    'beforeReadFile',
    'afterFileEdit',
    'beforeTabFileRead',
    'afterTabFileEdit',
    'beforeSubmitPrompt',
    'stop',
    'afterAgentResponse',
    'afterAgentThought',
    'workspaceOpen',
  ],
  copilot: [
    'userPromptSubmitted',
    'userPromptTransformed',
    'permissionRequest',
    'preMcpToolCall',
    'errorOccurred',
    'agentStop',
    'notification',
  ],
  gemini: ['BeforeAgent', 'AfterAgent', 'PreCompress', 'BeforeToolSelection'],
  codex: ['Interrupt'],
};
/** Hook fields only one agent writes. */
const FIELDS: Readonly<Record<'cursor' | 'copilot' | 'codex', readonly string[]>> = {
  copilot: ['bash', 'powershell', 'timeoutSec'],
  cursor: ['failClosed', 'loop_limit'],
  codex: ['commandWindows', 'additionalContextLimit', 'visibilityHint'],
};
/** A top-level key only a Gemini CLI settings.json has (its other keys may be anyone's: mcpServers…). */
const GEMINI_SETTINGS = ['hooksConfig'];

/** Whether a hook spec uses a field only hookwarden has. */
const hookwardenHook = (h: unknown) =>
  isObject(h) && (h.type === 'js' || HOOKWARDEN_FIELDS.some((f) => Object.hasOwn(h, f)));

/** Every hook object of a hooks map (flat entries, and those in groups). */
function* hookObjects(hooks: Record<string, unknown>): Generator<Record<string, unknown>> {
  for (const entries of Object.values(hooks)) {
    if (!Array.isArray(entries)) continue;
    for (const entry of entries) {
      if (!isObject(entry)) continue;
      if (Array.isArray(entry.hooks)) {
        for (const h of entry.hooks) if (isObject(h)) yield h;
      } else yield entry;
    }
  }
}

/** The agent a file's event names or fields show, if any. */
function agentShape(
  file: Record<string, unknown>,
  hooks: Record<string, unknown>,
  place: Dialect | undefined,
): Dialect | undefined {
  const names = Object.keys(hooks);
  for (const agent of ['cursor', 'copilot', 'gemini', 'codex'] as const)
    if (names.some((n) => ONLY[agent].includes(n))) return agent;
  const fields = new Set([...hookObjects(hooks)].flatMap((h) => Object.keys(h)));
  for (const agent of ['copilot', 'cursor', 'codex'] as const)
    if (FIELDS[agent].some((f) => fields.has(f))) return agent;
  for (const entries of Object.values(hooks))
    if (Array.isArray(entries) && entries.some((e) => isObject(e) && Object.hasOwn(e, 'sequential')))
      return 'gemini';
  if (GEMINI_SETTINGS.some((k) => Object.hasOwn(file, k))) return 'gemini';
  // Cursor's and Copilot's shared camelCase events, `"version": 1`, flat entries with `command`.
  if (names.some((n) => /^[a-z]/.test(n)) && file.version !== undefined)
    return place === 'copilot' ? 'copilot' : 'cursor';
  return undefined;
}

/** The agent a file belongs to by where it is (a folder the agent reads), if any. */
function agentByPlace(path: string | undefined): Dialect | undefined {
  if (path === undefined) return undefined;
  const parts = path.split(sep);
  if (parts.includes('.codex')) return 'codex';
  if (parts.includes('.gemini')) return 'gemini';
  if (parts.includes('.cursor')) return 'cursor';
  if (parts.includes('.copilot')) return 'copilot';
  const github = parts.lastIndexOf('.github');
  if (github >= 0 && parts[github + 1] === 'hooks') return 'copilot';
  return undefined;
}

/**
 * The dialect a file's shape shows (`canonical`: the names of hookwarden's own events), or where it
 * is says (`path`, the file's absolute path) when its shape could be another's.
 */
export function detectDialect(
  file: Record<string, unknown>,
  canonical: ReadonlySet<string>,
  path?: string,
): Dialect {
  if (HOOKWARDEN_TOP.some((k) => Object.hasOwn(file, k))) return 'hookwarden';
  const hooks = file.hooks;
  if (!isObject(hooks)) return 'hookwarden';
  const place = agentByPlace(path);
  const agent = agentShape(file, hooks, place);
  if (agent !== undefined) return agent;
  let flat = false;
  let aliasOnly = true;
  let canonicalName = false;
  for (const [event, entries] of Object.entries(hooks)) {
    if (canonical.has(event) && !CLAUDE_CODE_EVENT_NAMES.has(event)) canonicalName = true;
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
  if (canonicalName) return place === 'gemini' ? 'gemini' : 'hookwarden';
  if (flat) return place === 'cursor' || place === 'copilot' ? place : 'freecode';
  if (aliasOnly && Object.keys(hooks).length > 0) return place ?? 'claude-code';
  return place ?? 'hookwarden';
}
