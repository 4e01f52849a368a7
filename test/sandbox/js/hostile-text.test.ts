// Hook-controlled text in records and verdicts is capped on every path (error message, name, stack,
// thrown non-Errors, console lines, syntax errors, reasons, ignored field names), reading it from
// the guest costs no more than the cap, and no host path reaches a record. Real isolates, real
// processes.
import { realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULTS } from '../../../src/config/defaults.js';
import { type DispatchResult, type HookRecord, validateConfig } from '../../../src/index.js';
import { lockPack } from '../../../src/packs/lock-pack.js';
import { input, tempDir, withExecutor, writeConfig, writeFile } from '../../helpers/fixture.js';
import { type JsMode, jsConfig } from '../../helpers/js.js';
import { writePack } from '../../helpers/pack.js';

const CAP = DEFAULTS.maxReasonBytes;
const bytes = (s: string | undefined) => Buffer.byteLength(s ?? '');
const ev = input({ toolName: 'Bash', toolInput: { command: 'ls' } });
const MODES: JsMode[] = ['inline', 'file'];

/** Runs each hook (name → module source) as an observer of SessionStart; returns records by name. */
async function records(
  mode: JsMode,
  hooks: Record<string, string>,
  extra: Record<string, unknown> = {},
): Promise<{ byName: Record<string, HookRecord>; result: DispatchResult; config: string }> {
  const config = jsConfig(
    mode,
    { SessionStart: Object.entries(hooks).map(([name, code]) => ({ name, code, ...extra })) },
    { limits: { jsThreads: 1 } },
  );
  const result = await withExecutor({ config }, (hw) => hw.dispatch('SessionStart', ev));
  return { byName: Object.fromEntries(result.hooks.map((h) => [h.id, h])), result, config };
}

const HOSTILE_ERRORS: Record<string, string> = {
  'huge-message': "export default () => { throw new Error('x'.repeat(8 << 20)) }",
  'huge-name': "export default () => { const e = new Error('m'); e.name = 'N'.repeat(8 << 20); throw e }",
  'huge-string': "export default () => { throw 'y'.repeat(8 << 20) }",
  'huge-to-string': "export default () => { throw { toString() { return 'z'.repeat(8 << 20) } } }",
  'huge-getter':
    "export default () => { throw { name: 'Error', get message() { return 'g'.repeat(8 << 20) } } }",
  'huge-symbol': "export default () => { throw Symbol('s'.repeat(4 << 20)) }",
  'huge-bigint': 'export default () => { throw 7n ** 30000n }',
  'huge-message-object':
    "export default () => { const e = new Error(); e.message = { toString: () => 'o'.repeat(8 << 20) }; throw e }",
  'huge-rejection': "export default async () => { await null; throw new Error('r'.repeat(8 << 20)) }",
  'huge-top-level': "throw new SyntaxError('t'.repeat(8 << 20));\nexport default () => ({})",
  // A long stack without a location once made the location regex backtrack for seconds.
  'huge-stack':
    "export default () => { const e = new Error('m'); e.stack = ' at ' + 'a'.repeat(1 << 20); throw e }",
};

/** What each hostile error must look like (beyond being within the cap). */
const EXPECTED: Record<string, RegExp> = {
  'huge-message': /^Error: x+…\[truncated\]$/,
  'huge-name': /^N+…\[truncated\]: m \(/,
  'huge-string': /^Error: y+…\[truncated\]$/,
  'huge-to-string': /^Error: z+…\[truncated\]$/,
  'huge-getter': /^Error: g+…\[truncated\]$/,
  'huge-symbol': /^Error: Symbol\(s+…\[truncated\]$/,
  'huge-bigint': /^Error: \d+…\[truncated\]$/,
  'huge-message-object': /^Error: o+…\[truncated\]$/,
  'huge-rejection': /^Error: r+…\[truncated\]$/,
  'huge-top-level': /^SyntaxError: t+…\[truncated\]$/,
  'huge-stack': /^Error: m$/,
};

describe.each(MODES)('hook-controlled text (%s)', (mode) => {
  let thrown: Awaited<ReturnType<typeof records>>;
  beforeAll(async () => {
    thrown = await records(mode, HOSTILE_ERRORS);
  });

  it.each(Object.keys(HOSTILE_ERRORS))('a hook that throws %s gets a capped error message', (name) => {
    const rec = thrown.byName[name]!;
    expect(rec.outcome).toBe('error');
    expect(bytes(rec.error!.message)).toBeLessThanOrEqual(CAP);
    expect(rec.error!.message).toMatch(EXPECTED[name]!);
  });

  it('keeps a DispatchResult of many such hooks small', () => {
    expect(bytes(JSON.stringify(thrown.result))).toBeLessThan(
      Object.keys(HOSTILE_ERRORS).length * (CAP + 200),
    );
  });

  it('reads no more than the cap out of the guest: a message as large as the whole heap still shows', async () => {
    // Copying such a message (QuickJS's dump, getString) needs as much memory again: it would fail.
    const config = jsConfig(
      mode,
      {
        SessionStart: [
          ['throws', "export default () => { throw new Error('x'.repeat(27 << 20)) }"],
          ['throws-string', "export default () => { throw 'x'.repeat(27 << 20) }"],
          ['logs', "export default () => { console.log('x'.repeat(27 << 20)); return {} }"],
        ].map(([name, code]) => ({ name: name!, code: code!, memoryBytes: 28 << 20 })),
      },
      { limits: { jsThreads: 1, jsHeapCeilingBytes: 64 << 20 } },
    );
    const r = await withExecutor({ config }, (hw) => hw.dispatch('SessionStart', ev));
    expect(r.hooks.map((h) => h.outcome)).toEqual(['error', 'error', 'proceed']);
    expect(r.hooks[0]!.error!.message).toMatch(/^Error: x{4000,}…\[truncated\]$/);
    expect(r.hooks[1]!.error!.message).toMatch(/^Error: x{4000,}…\[truncated\]$/);
    expect(r.hooks[2]!.logs![0]).toMatch(/^x{4000,}…\[truncated\]$/);
  });

  it('reports a message getter that throws as unreadable, and one that loops as a timeout', async () => {
    // The hook that only throws gets the default deadline: on a loaded machine 200 ms can pass before
    // its isolate has even started, and this case is about the message, not the deadline.
    const thrown = await records(mode, {
      throws: "export default () => { throw { name: 'E', get message() { throw new Error('no') } } }",
    });
    expect(thrown.byName.throws!.error).toEqual({
      code: 'runtime_error',
      message: 'E: (unreadable: reading it threw)',
    });
    const { byName } = await records(
      mode,
      {
        loops: "export default () => { throw { name: 'E', get message() { for (;;) {} } } }",
        'loops-in-to-string': 'export default () => { throw { toString() { for (;;) {} } } }',
        proxy: 'export default () => { throw new Proxy({}, { get() { for (;;) {} } }) }',
      },
      { timeoutMs: 200 },
    );
    for (const name of ['loops', 'loops-in-to-string', 'proxy'])
      expect([name, byName[name]!.error?.code]).toEqual([name, 'timeout']);
  });

  it('caps console capture: line count, bytes per line, bytes in all', async () => {
    const D = DEFAULTS;
    const { byName } = await records(mode, {
      count: 'export default () => { for (let i = 0; i < 5000; i++) console.log(i); return {} }',
      'long-line':
        "export default () => { console.log('q'.repeat(8 << 20)); console.log('after'); return {} }",
      'long-json': "export default () => { console.info({ a: 'j'.repeat(8 << 20) }); return {} }",
      'many-args':
        "export default () => { console.warn(...Array.from({ length: 60000 }, () => 'w'.repeat(100))); return {} }",
      total:
        "export default () => { for (let i = 0; i < 100; i++) console.log('t'.repeat(4000)); return {} }",
    });
    const count = byName.count!.logs!;
    expect(count.length).toBe(D.js.maxLogLines + 1);
    expect(count.at(-1)).toMatch(/4900 more console lines dropped/);
    const long = byName['long-line']!.logs!;
    expect(long).toHaveLength(2);
    expect(bytes(long[0])).toBeLessThanOrEqual(D.js.maxLogLineBytes);
    expect(long[0]).toMatch(/^q+…\[truncated\]$/);
    expect(long[1]).toBe('after');
    expect(byName['long-json']!.logs![0]).toMatch(/^\[info\] \{"a":"j+…\[truncated\]$/);
    expect(bytes(byName['long-json']!.logs![0])).toBeLessThanOrEqual(D.js.maxLogLineBytes);
    expect(bytes(byName['many-args']!.logs![0])).toBeLessThanOrEqual(D.js.maxLogLineBytes);
    const total = byName.total!.logs!;
    expect(total.slice(0, -1).reduce((n, l) => n + bytes(l), 0)).toBeLessThanOrEqual(D.js.maxLogBytes);
    expect(total.at(-1)).toMatch(/more console lines dropped/);
    for (const rec of Object.values(byName)) expect(rec.outcome).toBe('proceed');
  });

  it("caps an answer's reason like any other reason, and the list of ignored fields", async () => {
    const config = jsConfig(
      mode,
      {
        BeforeTool: [
          {
            name: 'fields',
            code: "export default () => { const o = {}; for (let i = 0; i < 2000; i++) o['k'.repeat(200) + i] = 1; return o }",
            maxOutputBytes: 1 << 20,
          },
          {
            name: 'deny',
            code: "export default () => ({ decision: 'deny', reason: 'r'.repeat(60000) })",
          },
        ],
      },
      { limits: { jsThreads: 1 } },
    );
    // A project file's hook gets a larger output cap only by the policy's grant.
    const policy = [{ grants: { project: { maxOutputBytes: 1 << 20 } } }];
    const r = await withExecutor({ config, policy }, (hw) => hw.dispatch('BeforeTool', ev));
    expect(r.decision).toBe('deny');
    expect(bytes(r.reason)).toBeLessThanOrEqual(CAP);
    expect(r.reason).toMatch(/^r+…\[truncated\]$/);
    const ignored = r.hooks[0]!.ignoredFields!;
    expect(ignored).toHaveLength(DEFAULTS.maxIgnoredFields + 1);
    expect(ignored.at(-1)).toBe(`… ${2000 - DEFAULTS.maxIgnoredFields} more`);
    expect(Math.max(...ignored.map(bytes))).toBeLessThanOrEqual(128);
  });

  it('quotes the capped message in a fail-closed deny reason', async () => {
    const config = jsConfig(
      mode,
      {
        BeforeTool: [
          {
            name: 'h',
            code: "export default () => { throw new Error('x'.repeat(8 << 20)) }",
            onError: 'deny',
          },
        ],
      },
      { limits: { jsThreads: 1 } },
    );
    const r = await withExecutor({ config }, (hw) => hw.dispatch('BeforeTool', ev));
    expect(r.decision).toBe('deny');
    expect(bytes(r.reason)).toBeLessThanOrEqual(CAP + 200);
  });
});

describe('host paths', () => {
  it('never reach a record: stack traces, syntax errors and console lines name the file relative to the config', async () => {
    const { result, config } = await records('file', {
      throws: 'export default () => {\n  null.x;\n}',
      syntax: 'export default function () {\n  return {;\n}',
      'prints-stack':
        'function inner() { return new Error("where").stack }\nexport default () => { console.log(inner()); return { additionalContext: inner() } }',
      'top-level': "const e = new Error('top');\nthrow e;\nexport default () => ({})",
    });
    const text = JSON.stringify(result);
    expect(text).not.toContain(dirname(config));
    expect(text).not.toMatch(/\/tmp\//);
    const byName = Object.fromEntries(result.hooks.map((h) => [h.id, h]));
    expect(byName.throws!.error!.message).toBe(
      "TypeError: cannot read property 'x' of null (hooks/throws.js:2:7)",
    );
    expect(byName.syntax!.error!.message).toMatch(/^SyntaxError: .* at hooks\/syntax\.js:2:\d+$/);
    expect(byName['prints-stack']!.logs![0]).toMatch(/at inner \(hooks\/prints-stack\.js:1:/);
    expect(byName['top-level']!.error!.message).toMatch(/\(hooks\/top-level\.js:1:\d+\)$/);
    expect(result.additionalContext).toMatch(/hooks\/prints-stack\.js:1:/);
  });

  it('are kept for the operator: validate names the full path of a file with a syntax error', async () => {
    const config = jsConfig('file', { SessionStart: [{ name: 'bad', code: 'export default (' }] });
    const report = await validateConfig({ config });
    expect(report.diagnostics.map((d) => d.message)).toEqual([
      expect.stringMatching(
        new RegExp(`^SyntaxError: .* at ${realpathSync(dirname(config))}/hooks/bad\\.js:1`),
      ),
    ]);
  });

  it("name a pack's JS files relative to the pack, and its inline code after hookpack.json", async () => {
    const base = tempDir('hw-packpath-');
    const dir = writePack(
      {
        hooks: {
          SessionStart: [
            {
              hooks: [
                { name: 'file', type: 'js', source: 'hooks/throws.js' },
                { name: 'inline', type: 'js', code: 'export default () => {\n  null.y;\n}' },
              ],
            },
          ],
        },
        files: { 'hooks/throws.js': 'export default () => {\n  null.x;\n}\n' },
      },
      join(base, 'packs', 'guard'),
    );
    const { digest } = await lockPack(dir);
    const config = writeConfig(base, 'hooks.json', { packs: [{ path: 'packs/guard', digest }] });
    const r = await withExecutor({ config }, (hw) => hw.dispatch('SessionStart', ev));
    expect(JSON.stringify(r)).not.toContain(base);
    expect(r.hooks.map((h) => h.error?.message)).toEqual([
      "TypeError: cannot read property 'x' of null (hooks/throws.js:2:7)",
      "TypeError: cannot read property 'y' of null (hookpack.json#hooks.SessionStart[0].hooks[1]:2:7)",
    ]);
  });

  it('name inline code by the config file name and JSON path, not its directory', async () => {
    const { result, config } = await records('inline', { throws: 'export default () => {\n  null.x;\n}' });
    expect(JSON.stringify(result)).not.toContain(dirname(config));
    expect(result.hooks[0]!.error!.message).toMatch(
      /\(hooks\.json#hooks\.SessionStart\[0\]\.hooks\[0\]:2:7\)$/,
    );
  });

  it('a source given as ./hooks/x.js is shown as hooks/x.js', async () => {
    const dir = tempDir();
    writeFile(`${dir}/hooks/x.js`, 'export default () => {\n  null.x;\n}');
    const config = writeConfig(dir, 'hooks.json', {
      limits: { jsThreads: 1 },
      hooks: { SessionStart: [{ hooks: [{ type: 'js', name: 'x', source: './hooks/x.js' }] }] },
    });
    const r = await withExecutor({ config }, (hw) => hw.dispatch('SessionStart', ev));
    expect(r.hooks[0]!.error!.message).toMatch(/\(hooks\/x\.js:2:7\)$/);
  });
});

describe('command hooks', () => {
  it('have their reasons and ignored fields capped like JS hooks', async () => {
    const dir = tempDir();
    const big = JSON.stringify({ decision: 'deny', reason: 'c'.repeat(500_000) });
    const fields = JSON.stringify(
      Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`f${'k'.repeat(300)}${i}`, 1])),
    );
    writeFile(`${dir}/big.json`, big);
    writeFile(`${dir}/fields.json`, fields);
    const config = {
      hooks: {
        BeforeTool: [
          {
            hooks: [
              { name: 'fields', argv: ['/bin/cat', `${dir}/fields.json`] },
              { name: 'big', argv: ['/bin/cat', `${dir}/big.json`] },
            ],
          },
        ],
      },
    };
    const r = await withExecutor({ config }, (hw) => hw.dispatch('BeforeTool', ev));
    expect(r.decision).toBe('deny');
    expect(bytes(r.reason)).toBeLessThanOrEqual(CAP);
    expect(r.hooks[0]!.ignoredFields).toHaveLength(DEFAULTS.maxIgnoredFields + 1);
    expect(bytes(JSON.stringify(r))).toBeLessThan(3 * CAP + 8 * 1024);
  });

  it('cap a multibyte stderr deny reason in bytes, not characters', async () => {
    const config = {
      hooks: {
        BeforeTool: [
          {
            hooks: [
              { name: 'h', command: "head -c 30000 /dev/zero | tr '\\0' 'x' | sed 's/x/é/g' >&2; exit 2" },
            ],
          },
        ],
      },
    };
    const r = await withExecutor({ config }, (hw) => hw.dispatch('BeforeTool', ev));
    expect(r.decision).toBe('deny');
    expect(r.reason).toMatch(/^é+…\[truncated\]$/);
    expect(bytes(r.reason)).toBeLessThanOrEqual(CAP);
  });
});

describe('a DispatchResult', () => {
  it('stays small with several hostile hooks of both types', async () => {
    const dir = tempDir();
    const js = (name: string, code: string) => ({ type: 'js', name, code });
    const config = writeConfig(dir, 'hooks.json', {
      limits: { jsThreads: 2 },
      hooks: {
        SessionStart: [
          {
            hooks: [
              js('a', "export default () => { throw new Error('x'.repeat(8 << 20)) }"),
              js('b', "export default () => { throw 'y'.repeat(8 << 20) }"),
              js(
                'c',
                "export default () => { for (let i = 0; i < 1000; i++) console.log('l'.repeat(1 << 16)); throw new Error('e'.repeat(1 << 20)) }",
              ),
              js(
                'd',
                "export default () => { const e = new Error('m'.repeat(1 << 20)); e.name = 'n'.repeat(1 << 20); e.stack = 's'.repeat(1 << 20); throw e }",
              ),
              js('e', 'export default () => { throw 3n ** 200000n }'),
              { name: 'f', command: "head -c 900000 /dev/zero | tr '\\0' 'z' >&2; exit 3" },
              { name: 'g', command: "head -c 900000 /dev/zero | tr '\\0' 'z' >&2; exit 127" },
            ],
          },
        ],
      },
    });
    const r = await withExecutor({ config }, (hw) => hw.dispatch('SessionStart', ev));
    expect(r.hooks.map((h) => h.outcome)).toEqual(Array(7).fill('error'));
    // Per hook: one capped message, plus one hook's capped console capture.
    const bound = 7 * (CAP + 256) + DEFAULTS.js.maxLogBytes + 512;
    expect(bytes(JSON.stringify(r))).toBeLessThanOrEqual(bound);
  });
});
