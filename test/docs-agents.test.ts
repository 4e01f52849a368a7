// docs/agents.md matches the protocols: each agent's version read, and every one of its events in
// its table; its "One policy, every agent" table is the one tool table; every reason the invariant-7
// properties accept for hookwarden being stricter than an agent is a row of it; README names the
// five agents in its first lines.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AGENTS } from '../src/contract/agents/index.js';
import { TOOL_TABLE } from '../src/contract/tool-table.js';
import { SPECS } from './properties/agents/agent-specs.js';

const read = (f: string) => readFileSync(new URL(`../${f}`, import.meta.url), 'utf8');
const doc = read('docs/agents.md');

describe('docs/agents.md', () => {
  it.each(Object.values(AGENTS))('$title: the version read, and every event', (p) => {
    // `@openai/codex 0.171.0` is written `@openai/codex` **0.171.0**; Cursor's with its docs' address.
    const [name, version] = p.version.split(' ');
    expect(doc).toContain(name!);
    expect(doc).toContain(`**${version}**`);
    const start = doc.indexOf(`\n## ${p.title}`);
    expect(start).toBeGreaterThan(0);
    const end = doc.indexOf('\n## ', start + 1);
    const section = doc.slice(start, end < 0 ? undefined : end);
    for (const event of Object.keys(p.events)) expect(section, event).toContain(`\`${event}\``);
  });
});

it('README names every agent in its first lines', () => {
  const head = read('README.md').split('\n').slice(0, 6).join(' ');
  for (const agent of ['Claude Code', 'Codex', 'Gemini CLI', 'Cursor', 'Copilot CLI'])
    expect(head).toContain(agent);
});

/** docs/agents.md's "One policy, every agent" table, rendered from the one tool table and the events. */
function toolTable(): string {
  const agents = ['codex', 'gemini', 'cursor', 'copilot'] as const;
  const titles = ['Claude Code', ...agents.map((a) => TOOL_TABLE[a].title)];
  const order = [
    'Bash',
    'Read',
    'Write',
    'Edit',
    'Glob',
    'Grep',
    'LS',
    'WebFetch',
    'WebSearch',
    'TodoWrite',
    'Agent',
  ];
  const at = (n: string) => (order.includes(n) ? order.indexOf(n) : order.length);
  const canonical = [...new Set(agents.flatMap((a) => TOOL_TABLE[a].tools.map((t) => t.canonical)))].sort(
    (x, y) => at(x) - at(y),
  );
  const code = (s: string) => `\`${s}\``;
  const cell = (agent: (typeof agents)[number], name: string) => {
    const tools = TOOL_TABLE[agent].tools.filter((t) => t.canonical === name);
    const parts = tools.map((t) => {
      const also = t.aliases === undefined ? '' : ` (its matchers: ${t.aliases.map(code).join(', ')})`;
      const keys =
        t.keys === undefined
          ? ''
          : ` (${Object.entries(t.keys)
              .map(([from, to]) => `${code(from)} → ${code(to)}`)
              .join(', ')})`;
      return `${code(t.native)}${also}${keys}`;
    });
    const events = Object.entries(AGENTS[agent].events)
      .filter(([, e]) => e.tool === name)
      .map(([event]) => `event ${code(event)}`);
    return [...parts, ...events].join(', ') || '—';
  };
  const rows = canonical.map((name) => [code(name), code(name), ...agents.map((a) => cell(a, name))]);
  rows.push([
    'an MCP tool',
    code(TOOL_TABLE['claude-code'].mcp.form),
    ...agents.map(
      (a) => `${code(TOOL_TABLE[a].mcp.form)}${a === 'cursor' ? ', event `beforeMCPExecution`' : ''}`,
    ),
  ]);
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [
    line(['the policy names', ...titles]),
    line(titles.concat('').map(() => '---')),
    ...rows.map(line),
  ].join('\n');
}

it('the "One policy, every agent" table is the one tool table (src/contract/tool-table.ts)', () => {
  const start = doc.indexOf('<!-- tool-table: generated from src/contract/tool-table.ts -->');
  const end = doc.indexOf('<!-- tool-table end -->');
  expect(start).toBeGreaterThan(0);
  const written = doc.slice(doc.indexOf('\n', start) + 1, end).trim();
  expect(written, `docs/agents.md's table should be:\n${toolTable()}`).toBe(toolTable());
});

it("every row where hookwarden is stricter than an agent (the properties' reasons) is listed", () => {
  const start = doc.indexOf('\n## Where hookwarden is stricter');
  expect(start).toBeGreaterThan(0);
  const section = doc.slice(start, doc.indexOf('\n## ', start + 1));
  for (const spec of Object.values(SPECS)) {
    const rows = section
      .split('\n')
      .filter(
        (l) =>
          l.startsWith(`| ${spec.oracle.title.replace(/ [\d.]+$/, '')} |`) || l.startsWith('| every agent |'),
      );
    for (const code of spec.stricter)
      expect(rows.join('\n'), `${spec.oracle.title}: ${code}`).toContain(`\`${code}\``);
  }
});
