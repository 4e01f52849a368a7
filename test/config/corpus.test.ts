// Every real Claude Code config in the corpus must load: each command hook of a known event (or
// alias) registered with its matcher, timeout and fields; everything unsupported a warning naming the
// entry. The expectations are computed here from the raw JSON, independently of the loader.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_EVENTS, EventCatalogue } from '../../src/contract/events.js';
import { commandOf } from '../helpers/fixture.js';
import { loadConfig } from '../helpers/load-config.js';

const DIR = join(import.meta.dirname, '../fixtures/claude-code-corpus');
const files = readdirSync(DIR).filter((f) => f.endsWith('.json'));
const catalogue = new EventCatalogue(DEFAULT_EVENTS);

interface Expected {
  event: string;
  matcher: string | undefined;
  deadlineMs: number;
  program: unknown;
}

/** Claude Code's default timeouts: 600 s; 30 s on UserPromptSubmit and model switches; 10 s MessageDisplay. */
function claudeCodeDefaultMs(event: string): number {
  if (event === 'BeforeTurn' || event === 'PreModelSwitch' || event === 'PostModelSwitch') return 30_000;
  return event === 'MessageDisplay' ? 10_000 : 600_000;
}

function expectedHooks(raw: Record<string, unknown>): { hooks: Expected[]; unsupported: string[] } {
  const hooks: Expected[] = [];
  const unsupported: string[] = [];
  for (const [event, groups] of Object.entries(raw.hooks as Record<string, unknown[]>)) {
    const def = catalogue.get(event);
    if (def === undefined) {
      unsupported.push(`hooks.${event}`);
      continue;
    }
    (groups as Record<string, unknown>[]).forEach((g, i) => {
      if (g.matcher !== undefined && typeof g.matcher !== 'string') {
        unsupported.push(`hooks.${event}[${i}].matcher`);
        return;
      }
      const m = g.matcher as string | undefined;
      const matcher =
        (def.toolScoped || def.matchOn.length > 0) && m !== undefined && m !== '' && m !== '*'
          ? m
          : undefined;
      (g.hooks as Record<string, unknown>[]).forEach((h, j) => {
        if (h.type !== 'command') {
          unsupported.push(`hooks.${event}[${i}].hooks[${j}]`);
          return;
        }
        const args = h.args as string[] | undefined;
        hooks.push({
          event: def.name,
          matcher,
          deadlineMs: typeof h.timeout === 'number' ? h.timeout * 1000 : claudeCodeDefaultMs(def.name),
          program: args
            ? { kind: 'argv', argv: [h.command, ...args] }
            : { kind: 'shell', command: h.command, shell: h.shell ?? 'bash' },
        });
      });
    });
  }
  return { hooks, unsupported };
}

describe('the Claude Code corpus', () => {
  it('has the files SOURCES.md lists', () => {
    expect(files.length).toBe(17);
  });

  it.each(files)('%s loads with every supported command hook registered as written', async (name) => {
    const path = join(DIR, name);
    const raw = JSON.parse(readFileSync(path, 'utf8'));
    const { hooks, unsupported } = expectedHooks(raw);
    const r = await loadConfig({ config: [{ kind: 'file', path, scope: 'project' }], policy: [] });
    expect(r.fatal).toEqual([]);
    expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const got = r.hooks.map((h) => ({
      event: h.event,
      matcher: h.matcher?.source,
      deadlineMs: h.deadlineMs,
      program: commandOf(h)?.program,
    }));
    expect(got).toEqual(hooks);
    const skippedPaths = r.diagnostics.filter((d) => d.skipped).map((d) => d.path);
    expect(skippedPaths).toEqual(unsupported);
  });

  it('honours per-hook "if" filters of the exec-form plugin config', async () => {
    const path = join(DIR, '24-fcakyon__claude-codex-settings__plugins_humanize_hooks_hooks.json');
    const r = await loadConfig({ config: [{ kind: 'file', path, scope: 'project' }], policy: [] });
    const raw = JSON.parse(readFileSync(path, 'utf8'));
    const ifs = JSON.stringify(raw).match(/"if":"[^"]*"/g) ?? [];
    expect(r.hooks.flatMap((h) => h.ifFilters.map((f) => `"if":"${f.source}"`))).toEqual(ifs);
  });
});
