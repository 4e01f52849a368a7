// Every command shown in README and docs/ still parses: each `hookwarden …` line of a code block
// names a command that exists, and every --flag it uses appears in that command's --help.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';

const ROOT = new URL('../', import.meta.url);
const FILES = [
  'README.md',
  ...readdirSync(new URL('docs/', ROOT))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** `hookwarden …` invocations in the fenced code blocks of a Markdown file (continuations joined). */
function commands(markdown: string): string[] {
  const out: string[] = [];
  const blocks = markdown.match(/```[a-z]*\n[\s\S]*?```/g) ?? [];
  for (const block of blocks) {
    const text = block.replace(/\\\n\s*/g, ' ');
    for (const line of text.split('\n')) {
      // A shell command: at the start of the line (after an optional prompt) or after a pipe.
      const m =
        /(?:^\s*(?:\$\s+)?|\|\s*)(?:npx\s+)?hookwarden\s+([a-z][\w-]*(?:\s+[a-z][\w-]*)?)([^#|;]*)/.exec(
          line,
        );
      if (m !== null) out.push(`${m[1]}${m[2]}`.trim());
    }
  }
  return out;
}

const shown = FILES.flatMap((f) =>
  commands(readFileSync(new URL(f, ROOT), 'utf8')).map((c) => [f, c] as const),
);
const helps = new Map<string, Promise<string>>();

async function helpOf(words: string[]): Promise<{ words: string[]; text: string } | undefined> {
  // The longest prefix that is a command: `pack verify`, else `pack`.
  for (const n of [2, 1]) {
    const cmd = words.slice(0, n);
    if (cmd.length < n) continue;
    const key = cmd.join(' ');
    if (!helps.has(key))
      helps.set(
        key,
        runCli([...cmd, '--help']).then((r) => (r.code === 0 ? r.stdout : '')),
      );
    const text = await helps.get(key)!;
    // Commander answers --help of an unknown command with the top-level help: check whose it is.
    if (new RegExp(`^Usage: hookwarden ${key}( |$)`, 'm').test(text)) return { words: cmd, text };
  }
  return undefined;
}

describe('the commands shown in README and docs/', () => {
  it('are found', () => {
    expect(shown.length).toBeGreaterThan(10);
  });

  it.each(shown)('%s: hookwarden %s', async (_file, command) => {
    const words = command.split(/\s+/);
    const help = await helpOf(words);
    expect(help, `no such command: hookwarden ${words.slice(0, 2).join(' ')}`).toBeDefined();
    for (const flag of command.match(/(?:^|\s)(--[a-z][\w-]*)/g) ?? []) {
      expect(help!.text, `hookwarden ${help!.words.join(' ')} --help does not list ${flag.trim()}`).toContain(
        flag.trim(),
      );
    }
  });
});
