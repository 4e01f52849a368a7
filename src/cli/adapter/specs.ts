// Every adapter's spec by its command: Claude Code's and each coding agent's. The daemon answers for
// any of them (the hook command names the adapter), and the build writes each one's fail-closed
// answers into hookwarden-client (scripts/client-tables.ts). Dependency-free.
import { isAgent } from '../../contract/agents/index.js';
import { ADAPTER_COMMANDS } from '../claude-code/adapter-call.js';
import { CLAUDE_CODE_ADAPTER } from '../claude-code/answer-io.js';
import { agentAdapter } from './agent-spec.js';
import type { AdapterSpec } from './spec.js';

/** The spec of the adapter `command` (`claude-code`, `codex`, …), or undefined when there is none. */
export function adapterSpecOf(command: string): AdapterSpec | undefined {
  if (command === 'claude-code') return CLAUDE_CODE_ADAPTER;
  return isAgent(command) ? agentAdapter(command) : undefined;
}

/** Every adapter's spec, in ADAPTER_COMMANDS order. */
export const adapterSpecs = (): AdapterSpec[] => ADAPTER_COMMANDS.map((c) => adapterSpecOf(c)!);
