// docs/agents.md matches the protocols: each agent's version read, and every one of its events in
// its table; README names the five agents in its first lines.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AGENTS } from '../src/contract/agents/index.js';

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
