// `validate` compiles JS hooks on a QuickJS lane worker, under the hook's deadline and the lane's
// stack limit, as a call would (issue 41, item 5). On dd49d0c it compiled them on the caller's
// thread: 400 000 nested brackets crashed it with "internal error: RangeError: Maximum call stack size
// exceeded" and hid every other diagnostic, and a 1 MiB source of 60 000 functions held the thread
// for seconds with no interrupt.
import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/index.js';
import { tempDir, writeConfig } from '../helpers/fixture.js';

const N = 400_000;
/** Sources that nest deeply (N levels, or as many as fit in a source's 1 MiB), each in another syntax. */
const DEEP: Record<string, [depth: number, source: string]> = {
  brackets: [N, `export default () => ${'['.repeat(N)}${']'.repeat(N)};`],
  parens: [N, `export default () => ${'('.repeat(N)}1${')'.repeat(N)};`],
  braces: [N, `export default () => { ${'{'.repeat(N)}${'}'.repeat(N)} };`],
  objects: [N / 2, `export default () => (${'{a:'.repeat(N / 2)}1${'}'.repeat(N / 2)});`],
  calls: [N * 0.8, `export default (f) => ${'f('.repeat(N * 0.8)}1${')'.repeat(N * 0.8)};`],
  arrows: [130_000, `export default () => ${'()=>'.repeat(130_000)}1;`],
  templates: [N / 4, `export default () => ${'`${'.repeat(N / 4)}1${'}`'.repeat(N / 4)};`],
  unary: [N, `export default () => ${'!'.repeat(N)}1;`],
};

/** A config with a good hook, the deep one, a syntax error, and a missing command program. */
function configWith(deepSource: string, name: string) {
  const dir = tempDir();
  writeConfig(dir, `hooks/${name}.js`, deepSource);
  writeConfig(dir, 'hooks/good.js', 'export default () => ({})');
  return writeConfig(dir, 'hooks.json', {
    hooks: {
      PreToolUse: [
        {
          hooks: [
            { type: 'js', source: 'hooks/good.js' },
            { type: 'js', name, source: `hooks/${name}.js` },
            { type: 'js', code: 'export default (' },
            { command: './hooks/not-there.sh' },
          ],
        },
      ],
    },
  });
}

describe('validate compiles JS hooks under the lane limits', () => {
  for (const [kind, [depth, source]] of Object.entries(DEEP)) {
    it(`a source of ${kind} nested ${depth} deep names the hook and the limit; the other diagnostics stay`, async () => {
      const cfg = configWith(source, `deep-${kind}`);
      const r = await validateConfig({ config: cfg, root: tempDir() });
      const lines = r.diagnostics.map((d) => `${d.path}: ${d.message}`);
      expect(lines.join('\n')).not.toMatch(/internal error|Maximum call stack/);
      // The deep source, whatever the engine makes of it, is an error naming the hook; the syntax
      // error and the missing program are still reported.
      // (An engine that parses a form without recursion compiles it: no diagnostic, which is fine.)
      const deep = lines.find((l) => l.startsWith('hooks.PreToolUse[0].hooks[1]:'));
      if (deep !== undefined && !/SyntaxError/.test(deep))
        expect(deep).toMatch(new RegExp(`"deep-${kind}" .*stack limit: the source nests too deeply`));
      expect(lines).toContainEqual(expect.stringMatching(/^hooks\.PreToolUse\[0\]\.hooks\[2\]: SyntaxError/));
      expect(lines).toContainEqual(
        expect.stringMatching(/^hooks\.PreToolUse\[0\]\.hooks\[3\]: .*not-there\.sh does not exist/),
      );
      expect(r.errorCount).toBe(deep === undefined ? 2 : 3);
    }, 120_000);
  }

  it('a source that parses for longer than the hook deadline ends at it, and the thread stays free', async () => {
    const dir = tempDir();
    // About 1 MiB: 60 000 functions. Its parse takes seconds; the hook's deadline is 50 ms.
    const body = Array.from({ length: 60_000 }, (_, i) => `function F${i.toString(36)}(){}`).join('');
    const source = `${body}\nexport default () => ({});`;
    expect(source.length).toBeLessThanOrEqual(1024 * 1024);
    writeConfig(dir, 'hooks/big.js', source);
    const cfg = writeConfig(dir, 'hooks.json', {
      hooks: {
        PreToolUse: [
          {
            hooks: [
              { type: 'js', name: 'big', source: 'hooks/big.js', timeoutMs: 50 },
              { command: './nope.sh' },
            ],
          },
        ],
      },
    });
    // The caller's event loop keeps turning while the worker parses: the largest gap between two
    // ticks stays far below the parse (a generous bound that only catches a held thread).
    let last = performance.now();
    let gap = 0;
    const tick = setInterval(() => {
      const now = performance.now();
      gap = Math.max(gap, now - last);
      last = now;
    }, 10);
    const started = performance.now();
    const r = await validateConfig({
      config: cfg,
      root: tempDir(),
      limits: { jsBackstopGraceMs: 200 },
    }).finally(() => clearInterval(tick));
    const lines = r.diagnostics.map((d) => `${d.path}: ${d.message}`);
    const big = lines.find((l) => l.startsWith('hooks.PreToolUse[0].hooks[0]:'));
    expect(big).toMatch(/"big".*deadline limit: compiling took longer than the hook's deadline \(50 ms/);
    expect(lines).toContainEqual(expect.stringMatching(/hooks\[1\]: .*nope\.sh does not exist/));
    expect(gap).toBeLessThan(2_000);
    expect(performance.now() - started).toBeLessThan(60_000);
  }, 120_000);
});
