// Claude Code's hook input is snake_case (session_id, tool_name, tool_input, tool_response, …);
// hookwarden's is camelCase. An input may use either: every snake_case field the caller sends stays
// as it is (hooks that read Claude Code's names still find them), and its camelCase twin is added
// when the input does not have it already. Two fields are named differently by the two systems:
// `tool_response` is hookwarden's `toolResult`, and PreCompact's `trigger` is `compaction.trigger`.

import { jsonEqual } from './json-equal.js';

const SNAKE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/;
const RENAMED: Readonly<Record<string, string>> = { tool_response: 'toolResult' };

const camel = (name: string) =>
  RENAMED[name] ?? name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/**
 * Claude Code's `mcp_server` (2.1.337, McpServerProvenance: the server's config key, where its
 * definition came from, and `built_in: true` when the desktop app or the IDE extension says the server
 * is its own; absent means unknown) in camelCase: `mcpServer: {name, source, builtIn}`.
 */
function mcpServerTwin(v: unknown): unknown {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
  const { name, source, built_in: builtIn } = v as Record<string, unknown>;
  return {
    ...(typeof name === 'string' ? { name } : {}),
    ...(typeof source === 'string' ? { source } : {}),
    ...(builtIn === true ? { builtIn: true } : {}),
  };
}

/**
 * The input with a camelCase twin for each snake_case field (the original object when there is
 * nothing to add). Never overwrites a field the caller set.
 */
export function withCamelCaseNames(input: Record<string, unknown>, event: string): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(input)) {
    if (!SNAKE.test(key)) continue;
    const twin = camel(key);
    if (twin === key || Object.hasOwn(input, twin) || (out !== undefined && Object.hasOwn(out, twin)))
      continue;
    out ??= { ...input };
    Object.defineProperty(out, twin, {
      value: key === 'mcp_server' ? mcpServerTwin(input[key]) : input[key],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  // Claude Code's PreCompact carries `trigger` (manual|auto) at the top level.
  const base = out ?? input;
  if (event === 'BeforeCompact' && typeof base.trigger === 'string' && base.compaction === undefined) {
    out = { ...base, compaction: { trigger: base.trigger } };
  }
  return out ?? input;
}

const CAMEL = /^[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+$/;
const SNAKE_OF: Readonly<Record<string, string>> = { toolResult: 'tool_response' };
const snake = (name: string) => SNAKE_OF[name] ?? name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * The other direction, for hooks registered under Claude Code's event names: a snake_case twin of
 * each camelCase field (`toolInput` → `tool_input`, `toolResult` → `tool_response`), never
 * overwriting a field the input has. Top level only, as in Claude Code's input.
 */
export function withSnakeCaseNames(input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...input };
  for (const key of Object.keys(input)) {
    // A coding agent's own input (contract/agents/protocol.ts) is not one of Claude Code's fields.
    if (!CAMEL.test(key) || key === 'agentEvent') continue;
    const twin = snake(key);
    if (!Object.hasOwn(out, twin))
      Object.defineProperty(out, twin, {
        value: input[key],
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return out;
}

/** The fields that say which call a tool event is about, in both spellings. */
const CALL_TWINS: readonly (readonly [string, string])[] = [
  ['tool_name', 'toolName'],
  ['tool_input', 'toolInput'],
];

/**
 * Why an input names its call twice, differently (`tool_input` and `toolInput` with different
 * values): hooks reading one spelling would judge another call than hooks reading the other, so a
 * deny-capable event denies (docs/security.md, invariant 7). Undefined: no such conflict.
 */
export function conflictingTwins(input: Record<string, unknown>): string | undefined {
  for (const [snake, camelName] of CALL_TWINS) {
    if (!Object.hasOwn(input, snake) || !Object.hasOwn(input, camelName)) continue;
    const a = input[snake];
    const b = input[camelName];
    if (a === b) continue;
    if (!jsonEqual(a, b))
      return `the input names its call twice with different values ("${snake}" and "${camelName}"): which one runs is unknown, so it is denied`;
  }
  return undefined;
}
