// The `hooks` install writes into an agent's file, from the hooks copy: for each event of the copy
// ONE adapter entry (its matcher matching whenever one of the copy's does, its timeout covering the
// copy's hooks), then the hooks the agent keeps. A pure function of the copy and the file: running
// install again writes the same block, and an event added to the copy gets its entry.
import { dirname } from 'node:path';
import { applyEdits, modify } from 'jsonc-parser';
import { formatDiagnostic } from '../../config/diagnostics.js';
import { loadConfig } from '../../config/load.js';
import { AGENTS, isAgent } from '../../contract/agents/index.js';
import type { Dialect } from '../../contract/dialects.js';
import { packPinLoader } from '../../packs/pins.js';
import { UsageError } from '../usage-error.js';
import { type AdapterCommand, guardedLine } from './install-command.js';
import type { EventPlan, Installer } from './install-types.js';

type Obj = Record<string, unknown>;

/** Time allowed on top of the hooks' own: the adapter's start-up, config load and answer. */
const ADAPTER_ALLOWANCE_MS = 2_000;
/** The agent's timeout is this much longer than the adapter's own --timeout: the adapter answers first. */
const ANSWER_MARGIN_S = 3;

const err = (line: string) => process.stderr.write(`${line}\n`);

/** The name hookwarden dispatches an agent's event under (Claude Code's: the event itself). */
const dispatchName = (dialect: Dialect, event: string) =>
  isAgent(dialect) && Object.hasOwn(AGENTS[dialect].events, event)
    ? AGENTS[dialect].events[event]!.dispatch
    : event;

/** Milliseconds the adapter may need for each event's hooks: their deadlines, in a row or at once. */
export async function eventBudgets(
  installer: Installer,
  copy: Obj,
  copyPath: string,
): Promise<Map<string, number>> {
  const loaded = await loadConfig({
    config: [
      {
        kind: 'object',
        value: { dialect: installer.dialect, hooks: copy },
        scope: 'project',
        label: copyPath,
        dir: dirname(copyPath),
      },
    ],
    policy: [],
    pins: packPinLoader(),
  });
  for (const d of [...loaded.fatal, ...loaded.diagnostics])
    err(`hookwarden: ${d.severity}: ${formatDiagnostic(d)}`);
  if (loaded.fatal.length > 0) throw new UsageError(`${copyPath}: the hooks do not load (see above)`);
  const budgets = new Map<string, number>();
  const agent = isAgent(installer.dialect);
  for (const event of Object.keys(copy)) {
    const def = loaded.catalogue.get(dispatchName(installer.dialect, event));
    if (def === undefined) continue;
    // Identical hooks run once per event (their dedupKey); an agent's hooks of another of its events not at all.
    const costs = new Map<string, number>();
    for (const h of loaded.hooks)
      if (h.event === def.name && (!agent || h.agentEvent === event))
        costs.set(h.dedupKey, h.deadlineMs + loaded.limits.killGraceMs);
    const all = [...costs.values()];
    const total = def.mode === 'serial' ? all.reduce((a, b) => a + b, 0) : Math.max(0, ...all);
    budgets.set(event, total + ADAPTER_ALLOWANCE_MS);
  }
  return budgets;
}

/** The adapter entry's plan for one event of the copy: a matcher covering all its groups. */
function copyEventPlan(installer: Installer, event: string, groups: unknown[]): EventPlan {
  const p = installer.plan({ [event]: groups }).events.get(event);
  // A group the plan would leave with the agent is in the copy all the same: match everything then.
  const all = p !== undefined && p.kept.length === 0;
  return {
    routed: groups as Obj[],
    kept: [],
    matcher: all ? p.matcher : undefined,
    ...(p?.failClosed === true ? { failClosed: true } : {}),
  };
}

export interface BlockInput {
  readonly installer: Installer;
  /** The hooks copy (every event install routes). */
  readonly copy: Obj;
  /** The file's hooks that stay with the agent, by event. */
  readonly kept: Obj;
  /** The events in the order the file had them (new ones of the copy follow). */
  readonly order: readonly string[];
  readonly command: AdapterCommand;
  /** Adapter flags to keep from an earlier install (--policy, --socket …). */
  readonly extra: readonly string[];
  readonly copyPath: string;
  readonly budgets: ReadonlyMap<string, number>;
}

/** The routing block: each event's adapter entry first, then the groups the agent keeps. */
export function routingBlock(b: BlockInput): Obj {
  const hooks: Obj = {};
  const events = [...new Set([...b.order, ...Object.keys(b.kept), ...Object.keys(b.copy)])];
  for (const event of events) {
    const entries: unknown[] = [];
    const copied = b.copy[event];
    if (Array.isArray(copied) && copied.length > 0) {
      const seconds = Math.ceil((b.budgets.get(event) ?? ADAPTER_ALLOWANCE_MS) / 1000);
      const words = [...b.command.words, '--timeout', String(seconds), '--config', b.copyPath, ...b.extra];
      const p = copyEventPlan(b.installer, event, copied);
      const line = (w: readonly string[]) => guardedLine(b.command, b.installer.command, event, w);
      entries.push(...b.installer.entries(event, p, words, seconds + ANSWER_MARGIN_S, line));
    }
    const kept = b.kept[event];
    if (Array.isArray(kept)) entries.push(...kept);
    if (kept !== undefined && !Array.isArray(kept))
      hooks[event] = kept; // not a list: left as it was
    else if (entries.length > 0 || kept !== undefined) hooks[event] = entries;
  }
  return hooks;
}

/** The file with its `hooks` replaced, the rest byte for byte (indentation kept). */
export function withHooks(text: string, hooks: unknown): string {
  const indent = /\n([ \t]+)"/.exec(text)?.[1] ?? '  ';
  const edits = modify(text, ['hooks'], hooks, {
    formattingOptions: {
      insertSpaces: !indent.includes('\t'),
      tabSize: indent.includes('\t') ? 1 : indent.length,
      eol: '\n',
    },
  });
  return applyEdits(text, edits);
}
