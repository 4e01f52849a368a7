// Ids derived for unnamed hooks: readable (the program, or the script an interpreter runs) plus 8
// hex of the spec's digest, so records and audit lines say which hook they mean.
import { describe, expect, it } from 'vitest';
import { hooksOn, tempDir, withExecutor } from '../helpers/fixture.js';

describe('derived hook ids', () => {
  it('name the script an interpreter runs, else the program', async () => {
    // Programs under a folder that does not exist: nothing is actually run (or downloaded).
    const X = '/nonexistent/bin';
    const specs: [Record<string, unknown>, string][] = [
      [{ command: `${X}/python3 hooks/guard.py --strict` }, 'guard.py'],
      [{ command: `${X}/python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/check.py` }, 'check.py'],
      [{ argv: [`${X}/python3.12`, '-u', 'guard.py'] }, 'guard.py'],
      [{ command: `${X}/uv run --quiet scripts/lint.py` }, 'lint.py'],
      [{ command: `${X}/bash -e ./hooks/block-rm.sh` }, 'block-rm.sh'],
      [{ command: `${X}/npx tsx hooks/audit.ts` }, 'audit.ts'],
      [{ argv: [`${X}/node`, '--no-warnings', 'hooks/x.mjs'] }, 'x.mjs'],
      [{ command: `${X}/deno run --allow-read hooks/check.ts` }, 'check.ts'],
      [{ command: `FOO=1 ${X}/ruby guard.rb` }, 'guard.rb'],
      [{ command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh' }, 'guard.sh'],
      // An interpreter without a script argument, and a plain program, name themselves.
      [{ command: `${X}/node -e 'process.exit(0)'` }, 'node'],
      [{ command: `${X}/bash -c 'exit 0'` }, 'bash'],
      [{ argv: [`${X}/true`] }, 'true'],
    ];
    const config = hooksOn(
      'SessionEnd',
      specs.map(([spec]) => ({ type: 'command', timeoutMs: 10_000, ...spec })),
    );
    await withExecutor({ config, root: tempDir() }, async (hw) => {
      const ids = (await hw.dispatch('SessionEnd')).hooks.map((h) => h.id);
      expect(ids.map((id) => id.replace(/-[0-9a-f]{8}$/, ''))).toEqual(specs.map(([, label]) => label));
      for (const id of ids) expect(id).toMatch(/-[0-9a-f]{8}$/);
    });
  });
});
