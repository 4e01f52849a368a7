import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, type CliResult, runCli, startCli } from '../helpers/cli.js';
import { hooksOn, printing, tempDir, writeConfig } from '../helpers/fixture.js';

const config = (obj: unknown) => writeConfig(tempDir(), 'hooks.json', obj);

/** Runs `script` with sh (no stdin of its own); `$HW` runs the CLI. */
function runShell(script: string, env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', script], {
      env: { ...process.env, ...env, HW: `"${process.execPath}" "${BIN}"` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('hookwarden dispatch', () => {
  it('prints only the JSON result on stdout and exits 2 on deny', async () => {
    const cfg = config(hooksOn('BeforeTool', [{ command: 'echo nope >&2; exit 2' }], { matcher: 'Bash' }));
    const r = await runCli(['dispatch', 'PreToolUse', '--config', cfg, '--input', '-'], {
      stdin: '{"toolName":"Bash","toolInput":{"command":"rm -rf /"}}',
    });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ event: 'BeforeTool', decision: 'deny', reason: 'nope' });
    expect(r.stderr).toBe('');
  });

  it('refuses input nested deeper than limits.maxInputDepth with one line and exit 1, at any depth', async () => {
    const cfg = config(hooksOn('BeforeTool', [{ command: 'exit 2' }]));
    for (const depth of [65, 5_000, 100_000]) {
      const stdin = `{"toolName":"Bash","toolInput":{"command":${'['.repeat(depth)}"x"${']'.repeat(depth)}}}`;
      const r = await runCli(['dispatch', 'PreToolUse', '-c', cfg, '-i', '-'], { stdin });
      expect([r.code, r.stdout], String(depth)).toEqual([1, '']);
      expect(r.stderr).toMatch(
        /^hookwarden: error: invalid hook input: nested deeper than limits\.maxInputDepth \(64 levels\)/,
      );
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  it('reads piped stdin without --input: a shell pipe, a redirected file, a parent process pipe', async () => {
    const dir = tempDir();
    const cfg = config(hooksOn('BeforeTool', [{ command: 'echo nope >&2; exit 2' }], { matcher: 'Bash' }));
    const event = '{"toolName":"Bash","toolInput":{"command":"rm -rf /"}}';
    const env = { CFG: cfg, EVENT: event, FILE: writeConfig(dir, 'event.json', event) };
    const denied = [
      await runShell('printf %s "$EVENT" | eval $HW dispatch BeforeTool -c "$CFG"', env),
      await runShell('eval $HW dispatch BeforeTool -c "$CFG" < "$FILE"', env),
      await runCli(['dispatch', 'BeforeTool', '-c', cfg], { stdin: event }),
    ];
    for (const r of denied) {
      expect([r.code, r.stderr]).toEqual([2, '']);
      expect(JSON.parse(r.stdout)).toMatchObject({ decision: 'deny', reason: 'nope' });
    }
    // --input wins over stdin.
    const read = writeConfig(dir, 'read.json', { toolName: 'Read' });
    const chosen = await runShell(
      `printf %s "$EVENT" | eval $HW dispatch BeforeTool -c "$CFG" -i '${read}'`,
      env,
    );
    expect([chosen.code, JSON.parse(chosen.stdout).decision]).toEqual([0, 'passthrough']);
  });

  it('dispatches {} when stdin is /dev/null or a terminal-like device, without waiting', async () => {
    const cfg = config(hooksOn('BeforeTool', [printing({ additionalContext: 'ran' })], { matcher: 'Bash' }));
    const r = await startCli(['dispatch', 'BeforeTool', '-c', cfg], { stdin: 'ignore' }).done;
    // The input is {}: a matcher with no tool name to test is met (as in Claude Code), so the hook ran.
    expect([r.code, JSON.parse(r.stdout)]).toMatchObject([
      0,
      {
        event: 'BeforeTool',
        decision: 'passthrough',
        additionalContext: 'ran',
        hooks: [{ outcome: 'proceed' }],
      },
    ]);
  });

  it('refuses piped input that is not a JSON object: exit 1, one line, never {}', async () => {
    const cfg = config(hooksOn('BeforeTool', [printing({ decision: 'allow' })]));
    for (const stdin of ['{"toolName":', 'toolName=Bash', '[1]', 'null']) {
      const r = await runCli(['dispatch', 'BeforeTool', '-c', cfg], { stdin });
      expect([stdin, r.code, r.stdout]).toEqual([stdin, 1, '']);
      expect(r.stderr).toMatch(/^hookwarden: error: (stdin|--input)[^\n]*\n$/);
    }
    const bench = await runCli(['bench', '-c', cfg, '-e', 'BeforeTool', '-n', '1'], {
      stdin: '{"toolName":',
    });
    expect([bench.code, bench.stdout]).toEqual([1, '']);
    expect(bench.stderr).toMatch(/^hookwarden: error: stdin [^\n]*invalid JSON[^\n]*\n$/);
  });

  it('exits 0 for allow, ask and passthrough', async () => {
    for (const [output, decision] of [
      [{ decision: 'allow' }, 'allow'],
      [{ decision: 'ask' }, 'ask'],
      [{}, 'passthrough'],
    ] as const) {
      const cfg = config(hooksOn('BeforeTool', [printing(output)]));
      const r = await runCli(['dispatch', 'BeforeTool', '-c', cfg]);
      expect([r.code, JSON.parse(r.stdout).decision]).toEqual([0, decision]);
    }
  });

  it('fills in sessionId, cwd and timestamp; the event argument wins over the input', async () => {
    const cfg = config(
      hooksOn('BeforeTurn', [
        {
          type: 'command',
          argv: [
            process.execPath,
            '-e',
            "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const i=JSON.parse(s);console.log(JSON.stringify({additionalContext:[i.event,i.sessionId,i.cwd,typeof i.timestamp].join(' ')}))})",
          ],
        },
      ]),
    );
    const dir = tempDir();
    const input = writeConfig(dir, 'in.json', { event: 'SessionEnd', prompt: 'hi' });
    const r = await runCli(['dispatch', 'UserPromptSubmit', '-c', cfg, '-i', input], { cwd: dir });
    expect(JSON.parse(r.stdout).additionalContext).toBe(`BeforeTurn cli ${dir} string`);
  });

  it('prints config warnings on stderr and keeps going', async () => {
    const cfg = config({
      hooks: {
        PlatformAlert: [{ hooks: [{ command: 'x' }] }],
        SessionStart: [{ hooks: [printing({ additionalContext: 'ok' })] }],
      },
    });
    const r = await runCli(['dispatch', 'SessionStart', '-c', cfg]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /^hookwarden: warning: .*hooks.json: hooks.PlatformAlert: unknown event "PlatformAlert"/,
    );
    expect(JSON.parse(r.stdout).additionalContext).toBe('ok');
  });

  it("runs a tenant's own hooks for --tenant, and warns when the tenant has none", async () => {
    const cfg = config({
      hooks: { SessionStart: [{ hooks: [printing({ additionalContext: 'project' })] }] },
      tenants: { acme: { hooks: { SessionStart: [{ hooks: [printing({ additionalContext: 'acme' })] }] } } },
    });
    const own = await runCli(['dispatch', 'SessionStart', '-c', cfg, '--tenant', 'acme']);
    expect([own.code, JSON.parse(own.stdout).additionalContext, own.stderr]).toEqual([0, 'acme', '']);
    const none = await runCli(['dispatch', 'SessionStart', '-c', cfg, '--tenant', 'globex']);
    expect(JSON.parse(none.stdout).decision).toBe('passthrough');
    expect(none.stderr).toMatch(/--tenant: no tenant "globex" in the config's "tenants"/);
    const bad = await runCli(['dispatch', 'SessionStart', '-c', cfg, '--tenant', '../etc']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/tenant: expected a tenant id .*"\.\.\/etc"/);
  });

  it('exits 1 with one line and no stack trace on usage and config errors', async () => {
    const cases = [
      ['dispatch', 'BeforeTool', '-c', '/nonexistent/hooks.json'],
      ['dispatch', 'NoSuchEvent', '-c', config({})],
      ['dispatch', 'BeforeTool'],
      ['dispatch', 'BeforeTool', '-c', config({}), '-i', '/nonexistent/input.json'],
      ['dispatch', 'BeforeTool', '-c', config({}), '--bogus'],
    ];
    for (const args of cases) {
      const r = await runCli(args);
      expect([args.join(' '), r.code, r.stdout]).toEqual([args.join(' '), 1, '']);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(r.stderr.length).toBeGreaterThan(0);
    }
    const unknown = await runCli(['dispatch', 'NoSuchEvent', '-c', config({})]);
    expect(unknown.stderr).toMatch(/unknown event "NoSuchEvent"; valid events are SessionStart/);
  });

  it('reports invalid input with the field and value', async () => {
    const r = await runCli(
      ['dispatch', 'BeforeTool', '-c', config(hooksOn('BeforeTool', [printing({})])), '-i', '-'],
      { stdin: '{"toolName": 7}' },
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('input.toolName');
    expect(r.stderr).toContain('got 7');
  });

  it('appends audit records with metadata only', async () => {
    const dir = tempDir();
    const audit = join(dir, 'audit.jsonl');
    const cfg = config(hooksOn('BeforeTool', [printing({ decision: 'allow' })]));
    await runCli(['dispatch', 'BeforeTool', '-c', cfg, '--audit', audit, '-i', '-'], {
      stdin: '{"toolInput":{"command":"TOPSECRET"}}',
    });
    await runCli(['dispatch', 'BeforeTool', '-c', cfg, '--audit', audit]);
    const lines = readFileSync(audit, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.event, l.outcome, l.scope])).toEqual([
      ['BeforeTool', 'allow', 'project'],
      ['BeforeTool', 'allow', 'project'],
    ]);
    expect(readFileSync(audit, 'utf8')).not.toContain('TOPSECRET');
  });
});

describe('hookwarden validate', () => {
  it('lists every problem with its JSON path and exits 1', async () => {
    const cfg = config({
      hooks: { BeforeTool: [{ hooks: [{ command: 'x', timeoutMs: 'soon' }] }], Nope: [] },
    });
    const r = await runCli(['validate', cfg]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('error: ');
    expect(r.stdout).toContain(
      'hooks.BeforeTool[0].hooks[0].timeoutMs: expected a positive integer, got "soon"',
    );
    expect(r.stdout).toContain('warning: ');
    expect(r.stdout).toContain(`error: ${cfg}: no hook loaded`);
    expect(r.stdout).toMatch(/invalid: 0 hooks loaded; 2 errors, 1 warning\n$/);
  });

  it('exits 0 for a valid file, and 1 with --strict when there are warnings', async () => {
    const cfg = config({
      hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'true', timeout: 900 }] }] },
    });
    expect((await runCli(['validate', cfg])).code).toBe(0);
    expect((await runCli(['validate', cfg, '--strict'])).code).toBe(1);
    const json = await runCli(['validate', cfg, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: true, hookCount: 1, warningCount: 2 });
  });
});

describe('hookwarden --help', () => {
  it('wraps the description only where the terminal width makes it (no hard break mid-sentence)', async () => {
    const top = await runCli(['--help']);
    const lines = top.stdout.split('\n');
    const paragraph = lines.slice(lines.indexOf('') + 1, lines.indexOf('', lines.indexOf('') + 1));
    expect(paragraph.join(' ')).toBe(
      'Run lifecycle hooks safely and fast: command hooks in restricted subprocesses, JS hooks in QuickJS isolates, one deterministic verdict (allow, deny, ask or passthrough).',
    );
    // Greedy wrapping at 80 columns: each line is full, i.e. the next word would not have fit.
    for (const [i, line] of paragraph.slice(0, -1).entries()) {
      const next = paragraph[i + 1]!.split(' ')[0]!;
      expect(line.length + 1 + next.length).toBeGreaterThan(80);
    }
  });

  it('--version prints the package version', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    for (const flag of ['--version', '-V'])
      expect(await runCli([flag])).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
  });

  it('says that dispatch reads a piped stdin and what an interrupt answers', async () => {
    const d = await runCli(['dispatch', '--help']);
    expect(d.stdout).toContain('else stdin when it is a pipe or a file');
    expect(d.stdout).toContain('Ctrl-C or SIGTERM at any moment');
  });

  it('teaches with examples and exit codes', async () => {
    const top = await runCli(['--help']);
    expect(top.code).toBe(0);
    expect(top.stdout).toContain('Examples:');
    const d = await runCli(['dispatch', '--help']);
    expect(d.stdout).toContain(
      'Exit status: 0 proceed (allow, ask, passthrough), 2 deny, 1 usage or config error.',
    );
    expect(d.stdout).toContain('--policy <file>');
  });

  it('prints the JSON Schema of hooks.json', async () => {
    const r = await runCli(['schema']);
    expect(JSON.parse(r.stdout)).toMatchObject({ title: 'hookwarden hooks.json', type: 'object' });
  });
});

describe('hookwarden validate with JS hooks', () => {
  it('compiles JS sources and reports syntax errors with file and line', async () => {
    const dir = tempDir();
    writeConfig(dir, 'hooks/bad.js', 'export default function (input) {\n  const x = ;\n}\n');
    writeConfig(dir, 'hooks/good.js', 'export default () => ({})');
    const cfg = writeConfig(dir, 'hooks.json', {
      hooks: {
        BeforeTool: [
          {
            hooks: [
              { type: 'js', source: 'hooks/good.js' },
              { type: 'js', source: 'hooks/bad.js' },
              { type: 'js', code: 'export default (' },
            ],
          },
        ],
      },
    });
    const r = await runCli(['validate', cfg]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /error: .*hooks.json: hooks.BeforeTool\[0\].hooks\[1\]: SyntaxError: .* at .*hooks\/bad\.js:2/,
    );
    expect(r.stdout).toMatch(/hooks.BeforeTool\[0\].hooks\[2\]: SyntaxError/);
    expect(r.stdout).toMatch(/3 hooks loaded; 2 errors/);
  });
});

describe('strict and policy-only', () => {
  it('dispatch --strict turns a skipped entry into exit 1; validate --policy works without a config', async () => {
    const cfg = config({ hooks: { BeforeTool: [{ hooks: [{ command: 'exit 2', onError: 'dny' }] }] } });
    const lenient = await runCli(['dispatch', 'BeforeTool', '-c', cfg], { stdin: '{}' });
    expect(lenient.code).toBe(0);
    const strict = await runCli(['dispatch', 'BeforeTool', '-c', cfg, '--strict'], { stdin: '{}' });
    expect([strict.code, strict.stdout]).toEqual([1, '']);
    expect(strict.stderr).toMatch(/onError: expected "skip" or "deny", got "dny"/);
    expect(strict.stderr).not.toContain('(skipped)');
    const policy = config({ hooks: { BeforeTool: [{ hooks: [{ name: 'g', command: 'true' }] }] } });
    const v = await runCli(['validate', '--policy', policy]);
    expect([v.code, v.stdout]).toEqual([0, expect.stringMatching(/^ok: 1 hook loaded/m)]);
    expect((await runCli(['validate'])).code).toBe(1);
  });
});
