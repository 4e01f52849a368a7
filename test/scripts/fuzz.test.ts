// `npm run fuzz` (scripts/fuzz.ts): its --help teaches every flag docs/development.md shows, and a
// mistake is one line and exit 1. (The properties themselves run in test/properties/.)
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const FUZZ = fileURLToPath(new URL('../../dist/scripts/fuzz.js', import.meta.url));
const fuzz = (args: string[]) => spawnSync(process.execPath, [FUZZ, ...args], { encoding: 'utf8' });

describe('npm run fuzz', () => {
  it('--help names every flag the docs use', () => {
    const help = fuzz(['--help']);
    expect(help.status).toBe(0);
    const docs = readFileSync(new URL('../../docs/development.md', import.meta.url), 'utf8');
    const shown = new Set(
      [...docs.matchAll(/npm run fuzz -- ([^\n#]*)/g)].flatMap((m) => m[1]!.match(/--[a-z-]+/g) ?? []),
    );
    expect(shown.size).toBeGreaterThan(4);
    for (const flag of shown) expect(help.stdout, flag).toContain(flag);
  });

  it.each([
    [['--only', '9'], /^error: --only: no invariant "9" \(the invariants are 1 to 7\)$/m],
    [['--runs', 'many'], /--runs: expected an integer, got many/],
    [['--runs', '0'], /--runs: expected at least 1 case/],
    [['--until', 'soon'], /--until: expected an ISO 8601 time, got soon/],
  ])('%j is one line and exit 1', (args, message) => {
    const r = fuzz(args);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n').filter((l) => l.startsWith('error'))).toHaveLength(1);
    expect(r.stderr).toMatch(message);
  });
});
