// main() (the CLI without its process) answers a usage mistake in any subcommand with exit 1 and
// commander's one line: exitOverride() reached the top-level program only, so a subcommand's
// mistake called process.exit() from inside it. Found by the invariant-4 property, which runs
// `hookwarden dispatch` in-process on generated arguments (test/properties/bad-input.test.ts).
import { expect, it } from 'vitest';
import { main } from '../../src/cli/run.js';

async function captured(args: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  }) as typeof process.stderr.write;
  try {
    return { code: await main(['node', 'hookwarden', ...args]), stderr };
  } finally {
    process.stderr.write = write;
  }
}

it.each([
  [['dispatch', 'BeforeTool', '--bogus'], "error: unknown option '--bogus'"],
  [['dispatch', '- ', '-c', 'x.json'], "error: unknown option '- '"],
  [['pack', 'lock'], "error: missing required argument 'dir'"],
  [['audit', 'verify', 'a', 'b'], 'error: too many arguments'],
])('%j: exit 1 and one line, no process.exit()', async (args, line) => {
  const r = await captured(args);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain(line);
  // Under vitest a process.exit() throws, and main() would report that as an internal error.
  expect(r.stderr).not.toContain('internal error');
});
