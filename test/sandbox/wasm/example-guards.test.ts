// The example wasm guards (examples/packs/wasm-guard, C and Rust) decide every case as the JS example
// they were written from (examples/hooks/protect-paths.js), each on its own, in hookwarden's form
// and in a Claude Code file (snake_case input).
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { input, tempDir, withExecutor, writeConfig, writeFile } from '../../helpers/fixture.js';

const root = (p: string) => fileURLToPath(new URL(`../../../examples/${p}`, import.meta.url));
const GUARDS = {
  c: root('packs/wasm-guard/hooks/protect-paths-c.wasm'),
  rust: root('packs/wasm-guard/hooks/protect-paths-rust.wasm'),
  js: root('hooks/protect-paths.js'),
} as const;

/** One config holding one guard under `event`, in hookwarden's form or as a Claude Code settings file. */
function configFor(kind: keyof typeof GUARDS, event: 'BeforeTool' | 'PreToolUse'): string {
  const dir = tempDir('hw-example-');
  const file = `guard.${kind === 'js' ? 'js' : 'wasm'}`;
  writeFile(`${dir}/${file}`, readFileSync(GUARDS[kind]));
  const type = kind === 'js' ? 'js' : 'wasm';
  return writeConfig(dir, event === 'PreToolUse' ? 'settings.json' : 'hooks.json', {
    hooks: { [event]: [{ matcher: 'Write|Edit', hooks: [{ name: 'protect-paths', type, source: file }] }] },
  });
}

const events = readdirSync(root('events')).map((f) => JSON.parse(readFileSync(root(`events/${f}`), 'utf8')));
const PATHS = [
  '/etc/hosts',
  '/usr/share/x',
  '/bin/sh',
  '/boot/grub/grub.cfg',
  '/etcetera/file',
  'etc/hosts',
  'pnpm-lock.yaml',
  'app/yarn.lock',
  'not-package-lock.json',
  '/home/me/\u00e9t\u00e9/notes.md',
  '/etc/\u2603',
  'src/a"b\\c.ts',
];
const cases = [
  ...events.filter((e) => e.toolName === 'Write' || e.toolName === 'Edit'),
  ...PATHS.map((file_path) => ({ toolName: 'Write', toolInput: { file_path, content: 'x' } })),
  { toolName: 'Edit', toolInput: { old_string: '"file_path": "/etc/x"', file_path: 'ok.txt' } },
];

describe('the example wasm guards decide as the JS example', () => {
  for (const event of ['BeforeTool', 'PreToolUse'] as const) {
    it(`in ${event === 'PreToolUse' ? 'a Claude Code file' : "hookwarden's form"}`, async () => {
      const verdicts: Record<string, string[]> = {};
      for (const kind of ['js', 'c', 'rust'] as const) {
        verdicts[kind] = await withExecutor({ config: [configFor(kind, event)] }, async (ex) => {
          const out: string[] = [];
          for (const c of cases) {
            const r = await ex.dispatch('BeforeTool', input(c));
            // The JS guard names its hook id in its reason; the wasm guards name the example.
            out.push(`${r.decision} ${(r.reason ?? '').replace(/^[\w-]+: /, '')}`);
          }
          return out;
        });
      }
      expect(verdicts.c).toEqual(verdicts.js);
      expect(verdicts.rust).toEqual(verdicts.js);
      expect(verdicts.js!.filter((v) => v.startsWith('deny')).length).toBeGreaterThanOrEqual(5);
      expect(verdicts.js!.filter((v) => v.startsWith('ask')).length).toBe(2);
    });
  }
});
