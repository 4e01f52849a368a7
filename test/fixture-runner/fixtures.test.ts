// Fixtures: what a pack (or any config) promises to decide, checked by running it for real.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkResult } from '../../src/fixture-runner/check-result.js';
import { runFixtures } from '../../src/fixture-runner/run-fixtures.js';
import { testPack } from '../../src/fixture-runner/test-pack.js';
import type { DispatchResult } from '../../src/index.js';
import { lockPack as lockPackStage } from '../../src/packs/lock-pack.js';
import { parseFixtureFile, readFixturePaths } from '../../src/packs/read-fixtures.js';
import { verifyPack } from '../../src/packs/verify.js';
import { lockPack } from '../../src/packs-entry.js';
import { tempDir, writeConfig, writeFile } from '../helpers/fixture.js';
import { script, writePack } from '../helpers/pack.js';

const fixture = (name: string, command: string, expect: Record<string, unknown>) => ({
  name,
  event: 'BeforeTool',
  input: { toolName: 'Bash', toolInput: { command } },
  expect,
});

/** A pack with a command guard (denies "rm"), a JS hook on Write, and one hook no fixture reaches. */
function guardPack(fixtures: unknown[] = [fixture('rm is denied', 'rm x', { decision: 'deny' })]) {
  return writePack({
    hooks: {
      BeforeTool: [
        { matcher: 'Bash', hooks: [{ name: 'guard', command: './guard.sh' }] },
        { matcher: 'Write', hooks: [{ name: 'ctx', type: 'js', source: 'hooks/ctx.js' }] },
      ],
      SessionStart: [{ hooks: [{ name: 'hello', type: 'js', code: 'export default () => ({})' }] }],
    },
    files: {
      'guard.sh': '#!/bin/sh\ngrep -q \'"rm \' && { echo "no rm here" >&2; exit 2; }\nexit 0\n',
      'hooks/ctx.js': "export default (i) => ({ additionalContext: 'writing ' + i.toolInput.file_path });\n",
      'tests/guard.json': JSON.stringify(fixtures, null, 2),
    },
  });
}

describe('fixture files', () => {
  const parse = (value: unknown, text?: string) =>
    parseFixtureFile('tests/x.json', Buffer.from(text ?? JSON.stringify(value)));

  it('hold one fixture or an array of them', () => {
    const one = parse(fixture('a', 'ls', { decision: 'passthrough' }));
    expect(one).toMatchObject({ ok: true, fixtures: [{ name: 'a', file: 'tests/x.json', at: '' }] });
    const two = parse([fixture('a', 'ls', { decision: 'allow' }), fixture('b', 'ls', { decision: 'ask' })]);
    expect(two).toMatchObject({ ok: true, fixtures: [{ at: '[0]' }, { name: 'b', at: '[1]' }] });
  });

  it.each([
    [
      [fixture('a', 'ls', { decision: 'block' })],
      'tests/x.json: [0].expect.decision: expected "allow", "deny", "ask", "defer" or "passthrough", got "block"',
    ],
    [
      [fixture('a', 'ls', { decision: 'deny', reasonMatch: 'x' })],
      'tests/x.json: [0].expect: unknown field "reasonMatch"',
    ],
    [
      [fixture('a', 'ls', { decision: 'deny', reasonMatches: '(a' })],
      '[0].expect.reasonMatches: not a supported regular expression',
    ],
    [
      [fixture('a', 'ls', { decision: 'deny', reasonMatches: '(?=x)' })],
      '[0].expect.reasonMatches: not a supported regular expression',
    ],
    [
      [{ ...fixture('a', 'ls', { decision: 'deny' }), input: 'ls' }],
      '[0].input: expected the event input object',
    ],
    [[{ event: 'BeforeTool', input: {}, expect: { decision: 'deny' } }], '[0].name: expected a fixture name'],
    [
      [fixture('a', 'ls', { decision: 'deny', hooks: { guard: 'blocked' } })],
      '[0].expect.hooks.guard: expected one of allow, deny',
    ],
    [[], 'tests/x.json: expected at least one fixture'],
    [{ ...fixture('a', 'ls', { decision: 'deny' }), extra: 1 }, 'tests/x.json: unknown field "extra"'],
  ])('%j is an error naming the file and the JSON path', (value, message) => {
    const r = parse(value);
    expect(r.ok).toBe(false);
    expect(r.ok ? '' : r.problems.join('\n')).toContain(message);
  });

  it('refuse a key written twice and invalid JSON, with line and column', () => {
    const dup = parse(
      undefined,
      '{"name":"a","name":"b","event":"X","input":{},"expect":{"decision":"deny"}}',
    );
    expect(dup).toEqual({
      ok: false,
      problems: [expect.stringMatching(/^tests\/x\.json: key name written twice \(line 1/)],
    });
    const bad = parse(undefined, '[{"name": "a",]');
    expect(bad.ok ? '' : bad.problems[0]).toMatch(/^tests\/x\.json: invalid JSON at line 1, column \d+/);
  });

  it('keep a "__proto__" key of an input as data', () => {
    const r = parse(
      undefined,
      '{"name":"a","event":"BeforeTool","input":{"__proto__":{"polluted":true}},"expect":{"decision":"deny"}}',
    );
    expect(r.ok).toBe(true);
    const input = r.ok ? r.fixtures[0]!.input : {};
    expect(Object.hasOwn(input, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('from files and directories: names must be unique across them', async () => {
    const dir = tempDir();
    writeFile(join(dir, 'a.json'), JSON.stringify(fixture('same', 'ls', { decision: 'deny' })));
    writeFile(join(dir, 'nested/b.json'), JSON.stringify([fixture('same', 'ls', { decision: 'deny' })]));
    writeFile(join(dir, 'notes.txt'), 'not a fixture');
    const r = await readFixturePaths([dir]);
    expect(r).toEqual({
      ok: false,
      problems: [
        `${join(dir, 'nested/b.json')}: [0].name: the name "same" is already used by ${join(dir, 'a.json')}; fixture names must be unique`,
      ],
    });
    const fifo = join(dir, 'fifo.json');
    execFileSync('mkfifo', [fifo]);
    expect(await readFixturePaths([fifo])).toEqual({ ok: false, problems: [`${fifo}: not a regular file`] });
    expect(await readFixturePaths([join(dir, 'missing.json')])).toEqual({
      ok: false,
      problems: [`${join(dir, 'missing.json')}: not found`],
    });
  });
});

describe('checking a result', () => {
  const result = (extra: Partial<DispatchResult> = {}): DispatchResult => ({
    event: 'BeforeTool',
    decision: 'deny',
    reason: 'no rm here',
    decidedBy: 'guard',
    hooks: [{ id: 'guard', type: 'command', scope: 'policy', outcome: 'deny', latencyMs: 1, queuedMs: 0 }],
    ...extra,
  });

  it('passes when every named field matches, and names each field that does not', () => {
    expect(
      checkResult(
        { decision: 'deny', reasonMatches: 'rm', decidedBy: 'guard', hooks: { guard: 'deny' } },
        result(),
      ),
    ).toEqual([]);
    expect(
      checkResult(
        {
          decision: 'allow',
          reasonMatches: '^rm',
          decidedBy: 'other',
          mutatedToolInput: { command: 'ls' },
          hooks: { guard: 'proceed', missing: 'allow' },
        },
        result(),
      ),
    ).toEqual([
      'decision: expected allow, got deny',
      'reason: expected to match /^rm/, got "no rm here"',
      'decidedBy: expected "other", got "guard"',
      'mutatedToolInput: expected {"command":"ls"}, got none',
      'hooks.guard: expected proceed, got deny',
      'hooks.missing: expected allow, but the hook did not run',
    ]);
  });

  it('null means "absent"', () => {
    expect(checkResult({ decision: 'deny', mutatedToolInput: null }, result())).toEqual([]);
    expect(
      checkResult({ decision: 'deny', mutatedToolInput: null }, result({ mutatedToolInput: { a: 1 } })),
    ).toEqual(['mutatedToolInput: expected none, got {"a":1}']);
  });
});

describe('pack test', () => {
  it('runs the fixtures of a locked pack in place, with coverage of every hook', async () => {
    const dir = guardPack([
      fixture('rm is denied', 'rm x', { decision: 'deny', reasonMatches: 'no rm', hooks: { guard: 'deny' } }),
      fixture('ls proceeds', 'ls', { decision: 'passthrough' }),
      {
        name: 'writes get context',
        event: 'PreToolUse',
        input: { tool_name: 'Write', tool_input: { file_path: 'a.txt' } },
        expect: { decision: 'passthrough', additionalContext: 'writing a.txt' },
      },
      fixture('a wrong promise', 'ls', { decision: 'deny' }),
    ]);
    const { digest } = await lockPack(dir);
    const r = await testPack(dir, { root: tempDir() });
    expect(r).toMatchObject({
      dir,
      digest,
      locked: true,
      passed: 3,
      failed: 1,
      fixtureFiles: ['tests/guard.json'],
    });
    expect(r.results.map((x) => [x.name, x.status, x.expected, x.actual])).toEqual([
      ['rm is denied', 'pass', 'deny', 'deny'],
      ['ls proceeds', 'pass', 'passthrough', 'passthrough'],
      ['writes get context', 'pass', 'passthrough', 'passthrough'],
      ['a wrong promise', 'fail', 'deny', 'passthrough'],
    ]);
    expect(r.results[3]!.problems).toEqual(['decision: expected deny, got passthrough']);
    expect(r.results.every((x) => x.latencyMs > 0)).toBe(true);
    expect(r.coverage).toEqual([
      {
        event: 'BeforeTool',
        id: 'guard',
        type: 'command',
        scope: 'policy',
        fixtures: 3,
        outcomes: { deny: 1, proceed: 2 },
      },
      { event: 'BeforeTool', id: 'ctx', type: 'js', scope: 'policy', fixtures: 1, outcomes: { proceed: 1 } },
      { event: 'SessionStart', id: 'hello', type: 'js', scope: 'policy', fixtures: 0, outcomes: {} },
    ]);
  });

  it('tests an unlocked (or edited) pack as a locked copy, and never writes to the pack', async () => {
    const dir = guardPack();
    const r = await testPack(dir);
    expect(r).toMatchObject({ locked: false, passed: 1, failed: 0 });
    expect(existsSync(join(dir, 'hookpack.lock.json'))).toBe(false);
    const { digest } = await lockPack(dir);
    expect(r.digest).toBe(digest); // the digest tested is the one the lock then writes
    writeFileSync(join(dir, 'guard.sh'), script({ decision: 'allow' }));
    const edited = await testPack(dir);
    expect(edited).toMatchObject({ locked: false, passed: 0, failed: 1 });
    expect(edited.results[0]!.problems).toEqual(['decision: expected deny, got allow']);
  });

  it('each fixture is its own session, so a `once` hook runs for each', async () => {
    const dir = writePack({
      hooks: { SessionStart: [{ hooks: [{ name: 'once', command: './hi.sh', once: true }] }] },
      files: {
        'hi.sh': script({ additionalContext: 'hi' }),
        'tests/once.json': JSON.stringify(
          ['first', 'second'].map((name) => ({
            name,
            event: 'SessionStart',
            input: {},
            expect: { decision: 'passthrough', additionalContext: 'hi' },
          })),
        ),
      },
    });
    expect(await testPack(dir)).toMatchObject({ passed: 2, failed: 0 });
  });

  it('an invalid fixture file is an error naming its path; the lock refuses it too', async () => {
    const dir = guardPack();
    writeFile(join(dir, 'tests/bad.json'), '{"name": "x"}');
    await expect(testPack(dir)).rejects.toThrow(/tests\/bad\.json: event: expected an event name/);
    await expect(lockPack(dir)).rejects.toThrow(/cannot lock .*tests\/bad\.json: event/);
  });

  it('fixtures are covered by the lock and the digest: changing one is a changed file', async () => {
    const dir = guardPack();
    const { digest, fixtureCount } = await lockPack(dir);
    expect(fixtureCount).toBe(1);
    expect(await verifyPack(dir)).toMatchObject({ ok: true, fixtureCount: 1 });
    writeFile(
      join(dir, 'tests/guard.json'),
      JSON.stringify([fixture('weakened', 'rm x', { decision: 'passthrough' })]),
    );
    const r = await verifyPack(dir, { digest });
    expect(r.ok).toBe(false);
    expect(r.changed).toEqual(['tests/guard.json']);
    expect(r.digest).not.toBe(digest);
  });

  it('lock --require-tests refuses a pack without fixtures or with a failing one, and writes nothing', async () => {
    const none = writePack({ hooks: {}, files: {} });
    await expect(lockPack(none, { requireTests: true })).rejects.toThrow(/has no fixtures/);
    const failing = guardPack([fixture('wrong', 'ls', { decision: 'deny' })]);
    await expect(lockPack(failing, { requireTests: true })).rejects.toThrow(
      /1 of 1 fixtures fail \("wrong"\)/,
    );
    expect(existsSync(join(failing, 'hookpack.lock.json'))).toBe(false);
    // Without it, the pack locks (and its failing fixtures are reported elsewhere).
    expect((await lockPack(failing)).fixtureCount).toBe(1);
    const good = guardPack();
    expect(await lockPack(good, { requireTests: true })).toMatchObject({ tests: { passed: 1, failed: 0 } });
    // The packs stage runs no fixtures itself: without a runner handed in, requireTests is refused.
    await expect(lockPackStage(good, { requireTests: true })).rejects.toMatchObject({
      code: 'invalid_options',
      message: expect.stringMatching(/requireTests needs a fixture runner/),
    });
  });
});

describe('fixtures against any config', () => {
  it('check rewrites and contexts, and cover every scope', async () => {
    const dir = tempDir();
    const config = writeConfig(dir, 'hooks.json', {
      hooks: {
        BeforeTool: [
          {
            matcher: 'Bash',
            hooks: [
              {
                name: 'quiet-npm',
                type: 'js',
                code: "export default (i) => i.toolInput.command.startsWith('npm ') ? { mutatedToolInput: { command: i.toolInput.command + ' --silent' } } : undefined",
              },
            ],
          },
        ],
      },
    });
    const policy = writeConfig(dir, 'policy.json', {
      hooks: {
        BeforeTool: [{ hooks: [{ name: 'audit', argv: ['/bin/echo', '{"additionalContext":"seen"}'] }] }],
      },
    });
    const r = await runFixtures({
      executor: { config, policy },
      fixtures: [
        {
          name: 'npm gets --silent',
          event: 'BeforeTool',
          input: { toolName: 'Bash', toolInput: { command: 'npm test' } },
          // The policy hook runs again on the rewritten input (a verdict covers the input it was given on).
          expect: {
            decision: 'passthrough',
            mutatedToolInput: { command: 'npm test --silent' },
            additionalContext: 'seen\nseen',
          },
          file: 'f.json',
          at: '[0]',
          description: undefined,
        },
        {
          name: 'an input that is no input',
          event: 'BeforeTool',
          input: { toolName: 42 },
          expect: { decision: 'deny' },
          file: 'f.json',
          at: '[1]',
          description: undefined,
        },
      ],
    });
    expect(r.results.map((x) => x.status)).toEqual(['pass', 'error']);
    expect(r.results[1]!.problems[0]).toContain('toolName');
    expect(r.coverage.map((c) => [c.id, c.scope, c.fixtures, c.outcomes])).toEqual([
      ['audit', 'policy', 1, { proceed: 2 }], // the re-check is one more answer, not one more fixture
      ['quiet-npm', 'project', 1, { proceed: 1 }],
    ]);
  });

  it('refuse a configuration that does not load', async () => {
    const policy = writeConfig(tempDir(), 'policy.json', { packs: [{ path: 'missing-pack' }] });
    await expect(runFixtures({ executor: { policy }, fixtures: [] })).rejects.toThrow(
      /the configuration under test does not load: .*pack directory not found/,
    );
  });
});

describe('the example pack', () => {
  it('examples/packs/guard is locked, and its fixtures pass', async () => {
    const dir = new URL('../../examples/packs/guard', import.meta.url).pathname;
    const lock = JSON.parse(readFileSync(join(dir, 'hookpack.lock.json'), 'utf8')) as { digest: string };
    expect(await verifyPack(dir, { digest: lock.digest })).toMatchObject({ ok: true, fixtureCount: 14 });
    const r = await testPack(dir);
    expect(r).toMatchObject({ locked: true, failed: 0 });
    expect(r.coverage.every((c) => c.fixtures > 0)).toBe(true);
  });
});
