// A failed audit append never loses the answer (issue 23, finding 10): the dispatch whose hooks ran
// gets its result; the append is retried, then the failure is in the log (onWarning), the
// `audit.failed` event (the service's metric) and a warning in the result, and the records are kept
// and written with the next append that succeeds, the chain unbroken. `audit.required: true` makes
// such a dispatch deny on deny-capable events. Tested for real: EMFILE under a low RLIMIT_NOFILE in a
// host process of its own, and an audit path that became a directory.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verifyChain } from '../../src/audit/index.js';
import { hooksOn, input, printing, tempDir, withExecutor, writeConfig } from '../helpers/fixture.js';
import { startServe } from '../helpers/serve.js';

const HOST = fileURLToPath(new URL('../fixtures/hosts/audit-emfile.mjs', import.meta.url));

function runHost(file: string, required: boolean, root: string) {
  const r = spawnSync('prlimit', ['--nofile=512:512', process.execPath, HOST, file, String(required), root], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as {
    filled: number;
    first: Record<string, unknown> & { hooks: unknown[]; warnings?: string[] };
    observer: Record<string, unknown>;
    second: Record<string, unknown>;
    failed: Record<string, unknown>[];
    warnings: string[];
  };
}

describe('an audit append that fails (EMFILE: no descriptor left)', () => {
  it('the dispatch gets its answer, with a warning; the failure is logged and emitted; the records are written later', () => {
    const dir = tempDir('hw-audit-fail-');
    const file = join(dir, 'audit.jsonl');
    const out = runHost(file, false, dir);
    expect(out.filled).toBeGreaterThan(10);
    expect(out.first).toMatchObject({ decision: 'allow', decidedBy: 'allow-ls' });
    expect(out.first.warnings).toEqual([
      expect.stringMatching(
        /^audit: the records of this dispatch could not be written to .*audit\.jsonl \(EMFILE.*\); 1 record is kept/,
      ),
    ]);
    expect(out.failed[0]).toMatchObject({ code: 'EMFILE', event: 'BeforeTool', denied: false, pending: 1 });
    // The SessionStart dispatch that followed could not write either: both records are kept.
    expect(out.failed[1]).toMatchObject({ code: 'EMFILE', event: 'SessionStart', pending: 2 });
    expect(out.warnings[0]).toMatch(/^audit records could not be written \(BeforeTool\): EMFILE/);
    expect(out.second).toMatchObject({ decision: 'allow' });
    expect(out.second.warnings).toBeUndefined();
    // Every dispatch's records, in order, one unbroken chain.
    const text = readFileSync(file, 'utf8');
    const events = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).event);
    expect(events).toEqual(['BeforeTool', 'SessionStart', 'BeforeTool']);
    expect(verifyChain(text)).toMatchObject({ ok: true });
  });

  it('with audit.required, a deny-capable event denies; an observer event keeps its answer', () => {
    const dir = tempDir('hw-audit-fail-');
    const out = runHost(join(dir, 'audit.jsonl'), true, dir);
    expect(out.first).toMatchObject({ decision: 'deny', decidedBy: 'audit' });
    expect(out.first.reason).toMatch(/could not be written and audit\.required is set, so it denies: EMFILE/);
    expect(out.first.hooks).toEqual([expect.objectContaining({ id: 'allow-ls', outcome: 'allow' })]);
    expect(out.failed[0]).toMatchObject({ denied: true });
    // SessionStart cannot deny: its answer stands, with the warning.
    expect(out.observer).toMatchObject({ decision: 'passthrough', additionalContext: 'hello' });
    expect(out.observer.warnings).toEqual([expect.stringContaining('EMFILE')]);
    expect(out.failed[1]).toMatchObject({ event: 'SessionStart', denied: false });
    expect(out.second).toMatchObject({ decision: 'allow' });
  });
});

describe('an audit path that becomes unwritable', () => {
  it('answers every dispatch; once the path can be written again the kept records go first', async () => {
    const dir = tempDir('hw-audit-fail-');
    const file = join(dir, 'audit.jsonl');
    const failures: unknown[] = [];
    await withExecutor({ root: dir, audit: { file } }, async (hw) => {
      hw.register({ event: 'BeforeTool', name: 'ok', handler: () => ({ decision: 'allow' }) });
      hw.on('audit.failed', (e) => failures.push(e));
      const bash = input({ toolName: 'Bash' });
      expect((await hw.dispatch('BeforeTool', bash)).warnings).toBeUndefined();
      // The file is replaced by a directory (as root, permissions would not stop the write).
      rmSync(file);
      mkdirSync(file);
      const r = await hw.dispatch('BeforeTool', bash);
      expect(r.decision).toBe('allow');
      expect(r.warnings?.[0]).toContain('EISDIR');
      expect(failures).toHaveLength(1);
      rmSync(file, { recursive: true });
      expect((await hw.dispatch('BeforeTool', bash)).warnings).toBeUndefined();
    });
    // The kept record and the next one, seq 2 and 3 (seq 1 went with the file that was removed).
    expect(
      readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).seq),
    ).toEqual([2, 3]);
  });
});

describe('serve with an audit file that cannot be written', () => {
  it.each([false, true])(
    'answers 200 (required: %s), logs the failure and counts it in /metrics',
    async (required) => {
      const dir = tempDir('hw-audit-serve-');
      const file = join(dir, 'audit.jsonl');
      const config = writeConfig(dir, 'hooks.json', hooksOn('BeforeTool', [printing({ decision: 'allow' })]));
      const server = await startServe([
        '--config',
        config,
        '--listen',
        '127.0.0.1:0',
        '--audit',
        file,
        ...(required ? ['--audit-required'] : []),
      ]);
      mkdirSync(file); // the path is a directory now: every append fails (EISDIR)
      const res = await fetch(`${server.url}/v1/dispatch/BeforeTool`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ toolName: 'Bash', toolInput: { command: 'ls' } }),
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { decision: string; decidedBy?: string; warnings?: string[] };
      expect(body.decision).toBe(required ? 'deny' : 'allow');
      if (required) expect(body.decidedBy).toBe('audit');
      expect(body.warnings).toEqual([expect.stringContaining('EISDIR')]);
      const line = await server.waitForLog((l) =>
        String(l.msg).startsWith('audit records could not be written'),
      );
      expect(line).toMatchObject({ level: 'error', file });
      const metrics = await (await fetch(`${server.url}/metrics`)).text();
      expect(metrics).toContain(`hookwarden_audit_failures_total{denied="${required}"} 1`);
    },
    60_000,
  );
});
