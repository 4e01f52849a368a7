// The adapter's fast path: before the dispatcher, its schemas and zod load, decide from the config
// files alone whether any hook could run for this input. Claude Code runs the adapter once per event,
// and most events match no hook (a `Bash` guard and a `Read` call), so this is the common case.
//
// Only a certain "none" counts: the answer is then exactly the dispatcher's for an input no hook
// accepts (passthrough, nothing printed). Anything the scan does not fully understand (a file that is
// not plain JSON, declares events, packs, tenants or limits, or is in another dialect: FreeCode's or a
// coding agent's; a policy
// file, --strict or --audit; a matcher on a non-tool event; an entry of an unusual shape) is "maybe",
// and the full dispatch decides. Matchers are the registry's own (ToolMatcher).

import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { readDialect } from '../../config/dialect.js';
import { DEFAULT_EVENTS, EventCatalogue } from '../../contract/events.js';
import { isObject } from '../../contract/messages.js';
import { toolSubjectOf } from '../../contract/tool-vocabulary.js';
import { ToolMatcher } from '../../registry/matcher.js';

/** Files larger than this are left to the full loader (and its limits). */
const MAX_SCANNED_BYTES = 1024 * 1024;

/** Keys that add hooks or change events beyond a file's `hooks` map. */
const HOOKWARDEN_ONLY = ['policyHooks', 'events', 'limits', 'packs', 'tenants'];

const catalogue = new EventCatalogue(DEFAULT_EVENTS);
const canonical = new Set(catalogue.names());

export interface ScanFlags {
  readonly config?: readonly string[];
  readonly userConfig?: readonly string[];
  readonly policy?: readonly string[];
  readonly strict?: boolean;
  readonly audit?: string;
}

/** The parsed files (undefined: a file the scan leaves to the loader). */
export function readScannable(path: string): Record<string, unknown> | undefined {
  try {
    if (statSync(path).size > MAX_SCANNED_BYTES) return undefined;
    const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return isObject(value) ? value : undefined;
  } catch {
    return undefined; // missing, unreadable, JSONC or not JSON: the loader reports it
  }
}

/** Whether `file` (a parsed config) certainly has no hook that could run for `input` at `event`. */
function fileRunsNothing(
  file: Record<string, unknown>,
  event: string,
  input: Record<string, unknown>,
  path: string,
): boolean {
  if (HOOKWARDEN_ONLY.some((k) => Object.hasOwn(file, k))) return false;
  // Only hookwarden's and Claude Code's shapes are judged here (FreeCode's and the agents' go to the loader).
  // A file that could be more than one dialect is read in each: the loader's to judge.
  const reading =
    file.dialect === undefined
      ? readDialect(file, canonical, resolve(path))
      : { dialect: file.dialect, also: [] };
  if (reading.also.length > 0) return false;
  const dialect = reading.dialect;
  if (dialect !== 'hookwarden' && dialect !== 'claude-code') return false;
  const target = catalogue.get(event);
  if (target === undefined) return false;
  const hooks = file.hooks;
  if (hooks === undefined) return true;
  if (!isObject(hooks)) return false;
  const tool = toolSubjectOf({ ...input, toolName: input.tool_name ?? input.toolName });
  for (const [name, groups] of Object.entries(hooks)) {
    if (catalogue.get(name) !== target) continue; // another event (or one the loader skips)
    if (!Array.isArray(groups)) return false;
    for (const group of groups) {
      if (!isObject(group) || !Array.isArray(group.hooks)) return false;
      if (group.hooks.length === 0) continue;
      if (!target.toolScoped) return false; // non-tool matchers are the dispatcher's to judge
      if (group.matcher !== undefined && typeof group.matcher !== 'string') return false;
      if (new ToolMatcher(group.matcher).matches(tool)) return false;
    }
  }
  return true;
}

/**
 * True when no configured hook can run for this Claude Code input: the dispatch would answer
 * passthrough without running anything. False means "maybe": dispatch it. `read` reads a file as
 * readScannable does (the daemon's memo of the files its load read).
 */
export function nothingCanRun(
  flags: ScanFlags,
  event: string,
  input: Record<string, unknown>,
  read: (path: string) => Record<string, unknown> | undefined = readScannable,
): boolean {
  if ((flags.policy ?? []).length > 0 || flags.strict === true || flags.audit !== undefined) return false;
  for (const path of [...(flags.userConfig ?? []), ...(flags.config ?? [])]) {
    const file = read(path);
    if (file === undefined || !fileRunsNothing(file, event, input, path)) return false;
  }
  return true;
}
