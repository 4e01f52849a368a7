// Every coding agent hookwarden speaks to besides Claude Code (docs/agents.md), by name. Dependency-free.
import { CODEX } from './codex.js';
import { COPILOT } from './copilot.js';
import { camelOf } from './copilot-events.js';
import { CURSOR } from './cursor.js';
import { GEMINI } from './gemini.js';
import type { AgentName, AgentProtocol } from './protocol.js';

export type { AgentName, AgentProtocol } from './protocol.js';

export const AGENTS: Readonly<Record<AgentName, AgentProtocol>> = Object.freeze({
  codex: CODEX,
  gemini: GEMINI,
  cursor: CURSOR,
  copilot: COPILOT,
});

export const AGENT_NAMES = Object.keys(AGENTS) as readonly AgentName[];

/** Whether `name` is one of the agents (a dialect with an agent protocol). */
export const isAgent = (name: string): name is AgentName => Object.hasOwn(AGENTS, name);

/**
 * Whether two of an agent's event names are one event: Copilot CLI's VS Code-compatible names
 * (`PreToolUse`) are its camelCase ones (`preToolUse`).
 */
export const sameAgentEvent = (agent: AgentName, a: string, b: string): boolean =>
  a === b || (agent === 'copilot' && camelOf(a) === camelOf(b));
