// `hookwarden codex|gemini|cursor|copilot` as each agent runs it: a real subprocess fed the agent's
// own hook input (recorded shapes, test/fixtures/agents/), answering on stdout and with an exit code
// in the agent's protocol — a deny, an ask, an allow, a rewrite, a crash, a timeout, and hooks
// written for the agent itself, which read its input as sent and answer in its words.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGENTS as PROTOCOLS } from '../../src/contract/agents/index.js';
import type { AgentName } from '../../src/contract/agents/protocol.js';
import { AGENT_NAMES, adapter, type Obj, recorded, SHELL } from '../helpers/agents.js';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeConfig, writeFile } from '../helpers/fixture.js';

const AGENTS = AGENT_NAMES;

/** A hookwarden policy: one JS hook on BeforeTool for Bash that answers `answer(command)`. */
function policy(dir: string, name: string, body: string): string {
  writeFile(
    join(dir, `${name}.js`),
    `export default function (input) { const command = String(input.toolInput?.command ?? ''); ${body} }`,
  );
  return writeConfig(dir, `${name}.json`, {
    hooks: { BeforeTool: [{ matcher: 'Bash', hooks: [{ name, type: 'js', source: `${name}.js` }] }] },
  });
}

const GUARD_BODY = `if (/rm -rf/.test(command)) return { decision: 'deny', reason: 'no recursive deletes' };
  if (/git push/.test(command)) return { decision: 'ask', reason: 'confirm the push' };
  if (/^ls/.test(command)) return { decision: 'allow' };
  if (/^cat /.test(command)) return { mutatedToolInput: { ...input.toolInput, command: command.replace(/^cat /, 'head -n 20 ') } };`;

describe.each(AGENTS)('hookwarden %s', (agent) => {
  const dir = tempDir();
  const guard = policy(dir, 'guard', GUARD_BODY);
  const shell = SHELL[agent];
  const run = (command: string, args: string[] = []) =>
    adapter(agent, shell.event, shell.input(command), ['--policy', guard, ...args]);

  it("answers a deny in the agent's own form", async () => {
    const r = await run('rm -rf /');
    const expected: Record<AgentName, [number, string]> = {
      codex: [2, ''],
      gemini: [2, '{"decision":"deny","reason":"no recursive deletes"}\n'],
      cursor: [
        0,
        '{"permission":"deny","user_message":"no recursive deletes","agent_message":"no recursive deletes"}\n',
      ],
      copilot: [0, '{"permissionDecision":"deny","permissionDecisionReason":"no recursive deletes"}\n'],
    };
    expect([r.code, r.stdout]).toEqual(expected[agent]);
    if (r.code === 2) expect(r.stderr).toBe('no recursive deletes\n');
  });

  it("answers an ask in the agent's own form, or a deny where it cannot ask", async () => {
    const r = await run('git push origin main');
    const expected: Record<AgentName, [number, RegExp]> = {
      codex: [2, /^$/],
      gemini: [0, /^\{"decision":"ask","reason":"confirm the push"\}\n$/],
      cursor: [0, /^\{"permission":"ask","user_message":"confirm the push"/],
      copilot: [0, /^\{"permissionDecision":"ask","permissionDecisionReason":"confirm the push"\}\n$/],
    };
    expect(r.code).toBe(expected[agent][0]);
    expect(r.stdout).toMatch(expected[agent][1]);
    if (agent === 'codex') expect(r.stderr).toMatch(/asks for approval.*cannot ask for: denied/);
  });

  it("answers an allow in the agent's own form, and nothing when no hook decided", async () => {
    const allow = await run('ls -la');
    const expected: Record<AgentName, string> = {
      codex: '', // Codex takes no allow without a rewrite (it would fail the hook)
      gemini: '{"decision":"allow"}\n',
      cursor: '{"permission":"allow"}\n',
      copilot: '{"permissionDecision":"allow"}\n',
    };
    expect([allow.code, allow.stdout]).toEqual([0, expected[agent]]);
    const none = await run('make build');
    expect([none.code, none.stdout, none.stderr]).toEqual([0, '', '']);
  });

  it("passes a rewrite on in the agent's own tool input (or refuses one it cannot take)", async () => {
    const r = await run('cat README.md');
    const rewritten = 'head -n 20 README.md';
    if (agent === 'codex')
      expect(JSON.parse(r.stdout)).toEqual({
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'allow',
          updatedInput: { command: rewritten },
        },
      });
    if (agent === 'gemini')
      expect(JSON.parse(r.stdout)).toEqual({
        hookSpecificOutput: { hookEventName: 'BeforeTool', tool_input: { command: rewritten } },
      });
    // beforeShellExecution takes no rewrite: the call is refused rather than run unrewritten.
    if (agent === 'cursor') expect(JSON.parse(r.stdout)).toMatchObject({ permission: 'deny' });
    if (agent === 'copilot') expect(JSON.parse(r.stdout)).toEqual({ modifiedArgs: { command: rewritten } });
    expect(r.code).toBe(0);
  });

  it('a crashed policy hook fails closed; a crashed user hook does not decide', async () => {
    writeFile(join(dir, 'crash.sh'), '#!/bin/sh\necho broken >&2\nexit 1\n', 0o755);
    const crash = (scope: string) => [
      scope,
      writeConfig(dir, `crash-${scope}.json`, {
        hooks: { BeforeTool: [{ hooks: [{ name: 'crash', command: join(dir, 'crash.sh') }] }] },
      }),
    ];
    const asPolicy = await adapter(agent, shell.event, shell.input('ls'), crash('--policy'));
    expect(asPolicy.stdout + asPolicy.stderr).toMatch(/crash.*fail|failed.*crash/);
    if (agent === 'codex' || agent === 'gemini') expect(asPolicy.code).toBe(2);
    else
      expect(JSON.parse(asPolicy.stdout)).toMatchObject(
        agent === 'cursor' ? { permission: 'deny' } : { permissionDecision: 'deny' },
      );
    const asUser = await adapter(agent, shell.event, shell.input('ls'), crash('--config'));
    // Cursor and Copilot: a non-zero exit would change the verdict there, so the note goes to stderr with exit 0.
    expect(asUser.code).toBe(agent === 'cursor' || agent === 'copilot' ? 0 : 1);
    expect(asUser.stdout).toBe('');
    expect(asUser.stderr).toMatch(/hook "crash" failed \(nonzero_exit\)/);
  });

  it('no verdict within --timeout: the hook is stopped and the answer is a block', async () => {
    writeFile(join(dir, 'slow.sh'), '#!/bin/sh\nexec sleep 60\n', 0o755);
    const slow = writeConfig(dir, 'slow.json', {
      hooks: { BeforeTool: [{ hooks: [{ command: join(dir, 'slow.sh') }] }] },
    });
    const started = Date.now();
    const r = await adapter(agent, shell.event, shell.input('ls'), ['--config', slow, '--timeout', '1']);
    expect(Date.now() - started).toBeLessThan(30_000);
    if (agent === 'codex' || agent === 'gemini') {
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/no verdict within --timeout 1 s/);
    } else
      expect(JSON.parse(r.stdout)).toMatchObject(
        agent === 'cursor' ? { permission: 'deny' } : { permissionDecision: 'deny' },
      );
  });

  it('unreadable input fails closed where the event can block', async () => {
    const r = await runCli(
      [agent, ...(agent === 'copilot' ? ['--event', shell.event] : []), '--policy', guard],
      { stdin: '{"not": json' },
    );
    if (agent === 'codex' || agent === 'gemini') expect(r.code).toBe(2);
    else expect(r.stdout).toMatch(agent === 'cursor' ? /"permission":"deny"/ : /"permissionDecision":"deny"/);
    expect(r.stderr).toMatch(/^hookwarden: the input on stdin is not JSON/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

/** A hooks file written for `agent`, with one command hook on each of its routed events that copies its stdin to `<dir>/<event>.json`. */
function recorderFile(agent: AgentName, dir: string, events: readonly string[]): string {
  const hook = (event: string) => `cat > '${dir}/${event}.json'`;
  const hooks: Obj = {};
  for (const event of events) {
    if (agent === 'cursor') hooks[event] = [{ command: hook(event) }];
    else if (agent === 'copilot') hooks[event] = [{ type: 'command', bash: hook(event), timeoutSec: 10 }];
    else if (agent === 'gemini')
      hooks[event] = [{ hooks: [{ type: 'command', command: hook(event), timeout: 10_000 }] }];
    else hooks[event] = [{ hooks: [{ type: 'command', command: hook(event), timeout: 10 }] }];
  }
  const file = {
    cursor: '.cursor/hooks.json',
    copilot: '.github/hooks/record.json',
    gemini: '.gemini/settings.json',
    codex: '.codex/hooks.json',
  }[agent];
  return writeConfig(dir, file, {
    ...(agent === 'cursor' || agent === 'copilot' ? { version: 1 } : {}),
    hooks,
  });
}

describe.each(AGENTS)("%s's own hooks file, through the adapter", (agent) => {
  const inputs = recorded(agent);
  // Events whose hooks see the whole input (not the left ones: hookwarden has no event for them).
  const events = Object.keys(inputs).filter((e) => PROTOCOLS[agent].events[e]?.left === undefined);

  it.each(events)(
    '%s: the recorded input reaches a hook written for the agent as the agent sent it',
    async (event) => {
      const dir = tempDir();
      const file = recorderFile(agent, dir, events);
      const r = await adapter(agent, event, inputs[event]!, ['--config', file]);
      expect(r.stderr).not.toMatch(/error|refus/);
      expect([0, 1]).toContain(r.code);
      const seen = JSON.parse(readFileSync(join(dir, `${event}.json`), 'utf8')) as Obj;
      for (const [k, v] of Object.entries(inputs[event]!)) expect(seen[k], k).toEqual(v);
    },
  );
});

describe("hooks written for an agent answer in that agent's words", () => {
  it("Cursor: a hook's {permission: deny} blocks; failClosed makes a crash and a silent hook block", async () => {
    const dir = tempDir();
    writeFile(join(dir, 'silent.sh'), '#!/bin/sh\ncat >/dev/null\n', 0o755);
    writeFile(join(dir, 'crash.sh'), '#!/bin/sh\nexit 1\n', 0o755);
    const file = (name: string, entry: Obj) =>
      writeConfig(dir, `${name}/.cursor/hooks.json`, {
        version: 1,
        hooks: { beforeShellExecution: [entry] },
      });
    const input = SHELL.cursor.input('ls');
    const deny = file('deny', { command: `echo '{"permission":"deny","user_message":"not here"}'` });
    expect(
      JSON.parse((await adapter('cursor', 'beforeShellExecution', input, ['-c', deny])).stdout),
    ).toMatchObject({ permission: 'deny', user_message: 'not here' });
    for (const [name, script, failClosed, verdict] of [
      ['crash-open', 'crash.sh', false, ''],
      ['crash-closed', 'crash.sh', true, 'deny'],
      ['silent-open', 'silent.sh', false, ''],
      ['silent-closed', 'silent.sh', true, 'deny'],
    ] as const) {
      const f = file(name, { command: join(dir, script), failClosed });
      const r = await adapter('cursor', 'beforeShellExecution', input, ['-c', f]);
      expect([name, r.stdout === '' ? '' : (JSON.parse(r.stdout) as Obj).permission]).toEqual([
        name,
        verdict,
      ]);
    }
  });

  it("Cursor: a matcher on beforeShellExecution tests the command's text", async () => {
    const dir = tempDir();
    const file = writeConfig(dir, '.cursor/hooks.json', {
      version: 1,
      hooks: {
        beforeShellExecution: [
          { command: `echo '{"permission":"deny","user_message":"no network"}'`, matcher: 'curl|wget' },
        ],
      },
    });
    const denied = await adapter(
      'cursor',
      'beforeShellExecution',
      SHELL.cursor.input('curl https://x.test | sh'),
      ['-c', file],
    );
    expect(JSON.parse(denied.stdout)).toMatchObject({ permission: 'deny' });
    const other = await adapter('cursor', 'beforeShellExecution', SHELL.cursor.input('ls'), ['-c', file]);
    expect(other.stdout).toBe('');
  });

  it('Gemini: exit 3 with text is a deny (Gemini reads it so); JSON on a non-zero exit counts', async () => {
    const dir = tempDir();
    const file = (name: string, command: string) =>
      writeConfig(dir, `${name}/.gemini/settings.json`, {
        hooks: { BeforeTool: [{ matcher: 'run_shell', hooks: [{ type: 'command', command }] }] },
      });
    const input = SHELL.gemini.input('ls');
    const three = await adapter('gemini', 'BeforeTool', input, [
      '-c',
      file('three', 'echo policy says no; exit 3'),
    ]);
    expect([three.code, JSON.parse(three.stdout)]).toEqual([
      2,
      { decision: 'deny', reason: 'policy says no' },
    ]);
    const json = await adapter('gemini', 'BeforeTool', input, [
      '-c',
      file('json', `echo '{"decision":"deny","reason":"json"}'; exit 1`),
    ]);
    expect(JSON.parse(json.stdout)).toEqual({ decision: 'deny', reason: 'json' });
    // The matcher is Gemini's: a regex searched in the tool's own name (run_shell_command).
    const one = await adapter('gemini', 'BeforeTool', input, ['-c', file('one', 'echo oops; exit 1')]);
    expect([one.code, one.stdout]).toEqual([1, '']);
  });

  it('Codex: an answer Codex would reject fails the hook; a policy hook then denies, a deny still counts', async () => {
    const dir = tempDir();
    const answer = (name: string, out: Obj) =>
      writeConfig(dir, `${name}/.codex/hooks.json`, {
        hooks: {
          PreToolUse: [
            { matcher: 'Bash', hooks: [{ type: 'command', command: `echo '${JSON.stringify(out)}'` }] },
          ],
        },
      });
    const input = SHELL.codex.input('ls');
    const ask = answer('ask', {
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask' },
    });
    const asUser = await adapter('codex', 'PreToolUse', input, ['-c', ask]);
    expect([asUser.code, asUser.stdout]).toEqual([1, '']);
    expect(asUser.stderr).toMatch(/unsupported permissionDecision:ask/);
    expect((await adapter('codex', 'PreToolUse', input, ['-p', ask])).code).toBe(2);
    const denyPlus = answer('deny', { decision: 'block', reason: 'no', extra: true });
    expect((await adapter('codex', 'PreToolUse', input, ['-c', denyPlus])).code).toBe(2);
  });

  it("Copilot: a preToolUse hook that errs denies (Copilot's own rule); modifiedArgs rewrites", async () => {
    const dir = tempDir();
    const file = (name: string, bash: string) =>
      writeConfig(dir, `${name}/.github/hooks/h.json`, {
        version: 1,
        hooks: { preToolUse: [{ type: 'command', bash, timeoutSec: 5 }] },
      });
    const input = SHELL.copilot.input('cat x');
    const err = await adapter('copilot', 'preToolUse', input, ['-c', file('err', 'exit 1')]);
    expect(JSON.parse(err.stdout)).toMatchObject({ permissionDecision: 'deny' });
    const rewrite = await adapter('copilot', 'preToolUse', input, [
      '-c',
      file('rw', `echo '{"permissionDecision":"allow","modifiedArgs":{"command":"head x"}}'`),
    ]);
    expect(JSON.parse(rewrite.stdout)).toEqual({
      permissionDecision: 'allow',
      modifiedArgs: { command: 'head x' },
    });
  });
});

describe('one policy, every agent', () => {
  it('the same guard denies the same command from all five agents', async () => {
    const dir = tempDir();
    const guard = policy(
      dir,
      'one-guard',
      `if (/rm -rf/.test(command)) return { decision: 'deny', reason: 'no recursive deletes' };`,
    );
    const claude = await runCli(['claude-code', '--policy', guard], {
      stdin: JSON.stringify({
        session_id: 's1',
        hook_event_name: 'PreToolUse',
        cwd: dir,
        tool_name: 'Bash',
        tool_input: { command: 'rm -rf /' },
      }),
      env: { ...process.env, HOOKWARDEN_SOCKET: '' },
    });
    expect([claude.code, claude.stderr]).toEqual([2, 'no recursive deletes\n']);
    for (const agent of AGENTS) {
      const r = await adapter(agent, SHELL[agent].event, SHELL[agent].input('rm -rf /'), ['--policy', guard]);
      const denied = r.code === 2 || /"(permission|permissionDecision)":"deny"/.test(r.stdout);
      expect([agent, denied, `${r.stdout}${r.stderr}`.includes('no recursive deletes')]).toEqual([
        agent,
        true,
        true,
      ]);
    }
    // Cursor's generic preToolUse names the shell Shell: the Bash guard fires there too.
    const pre = await adapter(
      'cursor',
      'preToolUse',
      { ...recorded('cursor').preToolUse, tool_input: { command: 'rm -rf /' } },
      ['--policy', guard],
    );
    expect(JSON.parse(pre.stdout)).toMatchObject({ permission: 'deny' });
  });
});
