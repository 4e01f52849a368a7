import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { GENESIS } from '../../src/audit/hash-chain.js';
import { verifyChain } from '../../src/audit/verify-chain.js';
import type { AuditRecord, HookStartedEvent } from '../../src/index.js';
import { runCli } from '../helpers/cli.js';
import { hooksOn, input, printing, tempDir, withExecutor } from '../helpers/fixture.js';

const lines = (file: string) => readFileSync(file, 'utf8').trim().split('\n');

/** One hook per outcome kind: allow, ask, proceed, error, timeout, limit, then deny (the chain stops). */
const EVERY_OUTCOME = [
  printing({ decision: 'allow', reason: 'SECRET-REASON' }, { name: 'allow' }),
  printing({ decision: 'ask' }, { name: 'ask' }),
  printing({ additionalContext: 'SECRET-CONTEXT' }, { name: 'proceed' }),
  { name: 'error', command: 'exit 1' },
  { name: 'timeout', command: 'sleep 5', timeoutMs: 100 },
  { name: 'limit', command: 'yes', maxOutputBytes: 1000 },
  {
    name: 'js',
    type: 'js',
    code: "export default (i) => { const big = 'x'.repeat(1e5); return { additionalContext: 'SECRET-JS' + big.length } }",
  },
  { name: 'deny', command: 'echo SECRET-STDERR >&2; exit 2' },
  printing({}, { name: 'not-run' }),
];

describe('audit records', () => {
  it('cover every outcome, carry metadata only, and are on disk when dispatch() resolves', async () => {
    const file = join(tempDir(), 'audit.jsonl');
    await withExecutor(
      { config: { tenants: { acme: hooksOn('BeforeTool', EVERY_OUTCOME) } }, audit: file },
      async (hw) => {
        await hw.dispatch('BeforeTool', input({ toolName: 'Bash', toolInput: { command: 'SECRET-INPUT' } }), {
          tenant: 'acme',
        });
        const recs = lines(file).map((l) => JSON.parse(l) as AuditRecord & { seq: number });
        expect(recs.map((r) => [r.hookId, r.outcome, r.errorCode])).toEqual([
          ['allow', 'allow', undefined],
          ['ask', 'ask', undefined],
          ['proceed', 'proceed', undefined],
          ['error', 'error', 'nonzero_exit'],
          ['timeout', 'timeout', 'timeout'],
          ['limit', 'limit', 'output_limit'],
          ['js', 'proceed', undefined],
          ['deny', 'deny', undefined],
        ]);
        expect(recs.every((r) => r.tenant === 'acme' && r.event === 'BeforeTool' && r.deadlineMs > 0)).toBe(
          true,
        );
        expect(recs.find((r) => r.hookId === 'timeout')!.deadlineMs).toBe(100);
        expect(recs.find((r) => r.hookId === 'js')!.memoryBytes).toBeGreaterThan(50_000);
        expect(recs.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      },
    );
    expect(readFileSync(file, 'utf8')).not.toMatch(/SECRET/);
  });

  it('survive the host being killed right after dispatch() resolves', () => {
    const file = join(tempDir(), 'audit.jsonl');
    const host = fileURLToPath(new URL('../fixtures/hosts/audit-then-crash.mjs', import.meta.url));
    const r = spawnSync(process.execPath, [host, file], { encoding: 'utf8', timeout: 30_000 });
    expect(r.signal).toBe('SIGKILL');
    expect(lines(file).map((l) => JSON.parse(l).type)).toEqual(['command', 'js']);
    expect(verifyChain(readFileSync(file, 'utf8')).ok).toBe(true);
  });

  it('reach callbacks and the hook.started / hook.completed events', async () => {
    const seen: string[] = [];
    const started: HookStartedEvent[] = [];
    const completed: AuditRecord[] = [];
    const config = hooksOn('SessionStart', [
      printing({}, { name: 'a' }),
      { name: 'b', type: 'js', code: 'export default () => ({})' },
    ]);
    await withExecutor({ config, audit: (r) => seen.push(r.hookId) }, async (hw) => {
      const offStarted = hw.on('hook.started', (e) => started.push(e));
      hw.on('hook.completed', (e) => completed.push(e));
      await hw.dispatch('SessionStart', input());
      offStarted();
      await hw.dispatch('SessionStart', input());
    });
    expect(seen).toEqual(['a', 'b', 'a', 'b']);
    expect(started.map((e) => [e.hookId, e.type]).sort()).toEqual([
      ['a', 'command'],
      ['b', 'js'],
    ]);
    expect(completed.map((e) => e.hookId)).toEqual(['a', 'b', 'a', 'b']);
  });
});

describe('the audit hash chain', () => {
  async function auditFile(dispatches = 3): Promise<string> {
    const file = join(tempDir(), 'audit.jsonl');
    await withExecutor(
      { config: hooksOn('BeforeTool', [printing({}, { name: 'x' })]), audit: file },
      async (hw) => {
        for (let i = 0; i < dispatches; i++) await hw.dispatch('BeforeTool', input({ toolName: 'Bash' }));
      },
    );
    return file;
  }

  it('verifies an intact file, and continues the chain across executors', async () => {
    const file = await auditFile(2);
    await withExecutor({ config: hooksOn('BeforeTool', [printing({}, { name: 'x' })]), audit: file }, (hw) =>
      hw.dispatch('BeforeTool', input()),
    );
    const report = verifyChain(readFileSync(file, 'utf8'));
    expect(report).toMatchObject({ ok: true, records: 3 });
    expect(JSON.parse(lines(file)[0]!).prev).toBe(GENESIS);
  });

  // [what, tamper, first unverified line, records verified before it, problem]
  it.each([
    [
      'an edited line',
      (l: string[]) => {
        l[1] = l[1]!.replace('"proceed"', '"deny"');
      },
      2,
      1,
      /line 2 was edited, or line 3's prev was/,
    ],
    [
      'an edited first line',
      (l: string[]) => {
        l[0] = l[0]!.replace('"proceed"', '"deny"');
      },
      1,
      0,
      /line 1 was edited, or line 2's prev was/,
    ],
    [
      'a deleted line',
      (l: string[]) => {
        l.splice(1, 1);
      },
      1,
      0,
      /seq jumps from 1 to 3: 1 record\(s\) deleted before line 2/,
    ],
    [
      'reordered lines',
      (l: string[]) => {
        [l[0], l[1]] = [l[1]!, l[0]!];
      },
      1,
      0,
      /out of order/,
    ],
    [
      'swapped later lines',
      (l: string[]) => {
        [l[1], l[2]] = [l[2]!, l[1]!];
      },
      1,
      0,
      /out of order/,
    ],
  ])('detects %s and reports the first break', async (_what, tamper, line, records, problem) => {
    const file = await auditFile(3);
    const l = lines(file);
    tamper(l);
    writeFileSync(file, `${l.join('\n')}\n`);
    const report = verifyChain(readFileSync(file, 'utf8'));
    expect(report).toMatchObject({ ok: false, line, records, problem: expect.stringMatching(problem) });
    const cli = await runCli(['audit', 'verify', file]);
    expect(cli.code).toBe(1);
    expect(cli.stdout).toMatch(/^broken: /);
    // What was verified and where it broke, without contradicting the problem line.
    const verified = records === 0 ? 'no line' : `line 1 (1 record)`;
    expect(cli.stdout).toContain(`\nverified: ${verified}; not verified: line ${line} onwards\n`);
  });

  it('reports an intact chain and its head on the CLI, and says it checks integrity, not authenticity', async () => {
    const file = await auditFile(2);
    const cli = await runCli(['audit', 'verify', file]);
    expect(cli.code).toBe(0);
    expect(cli.stdout).toMatch(
      /ok: .*: 2 records, chain intact \(unkeyed: sha256 links\)\nhead: sha256:[0-9a-f]{64}/,
    );
    expect(cli.stdout).toMatch(
      /integrity only: .*not a rewrite; anyone who\ncan write the file can recompute every link/,
    );
  });

  it('refuses to extend a file that is not an audit file', async () => {
    const file = join(tempDir(), 'notes.txt');
    writeFileSync(file, 'hello\n');
    const { createExecutor } = await import('../../src/index.js');
    await expect(createExecutor({ audit: file })).rejects.toThrow(/audit: .*not a hookwarden audit record/);
  });
});
