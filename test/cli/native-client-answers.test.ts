// Issue 25, item 4: a hook call answered by the daemon (hookwarden-client → daemon) is exactly the
// call answered in the caller's own process (`node bin/hookwarden claude-code`): the same exit code,
// stdout and stderr, the same CLAUDE_ENV_FILE lines, and hooks that see the caller's working
// directory, project, environment (through the same filters), never the daemon's own.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeConfig, writeFile } from '../helpers/fixture.js';
import { daemonEnv, daemonStatus, runAdapter, runClient, startDaemon } from '../helpers/native-client.js';

const project = tempDir('hw-project-');
const sub = join(project, 'src');
writeFile(join(sub, '.keep'), '');
writeFile(
  join(project, '.claude', 'guard.js'),
  'export default (i) => (i.toolInput.file_path.endsWith(".env") ? { decision: "deny", reason: "not the env file" } : {})',
);
const GUARD = [
  'input=$(cat)',
  'case "$input" in',
  '  *"rm -rf"*) echo "no recursive deletes" >&2; exit 2;;',
  '  *\'"echo hi"\'*) echo \'{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"echo hello"}}}\';;',
  'esac',
].join('\n');
const SEES =
  'printf "cwd=%s project=%s probe=%s token=%s path=%s" "$(pwd)" "$CLAUDE_PROJECT_DIR" "$HW_PROBE" "$HW_PROBE_TOKEN" "$PATH"';
const config = writeConfig(join(project, '.claude'), 'settings.hookwarden.json', {
  dialect: 'claude-code',
  hooks: {
    PreToolUse: [
      { matcher: 'Bash', hooks: [{ type: 'command', command: GUARD }] },
      { matcher: 'Edit', hooks: [{ type: 'js', source: 'guard.js' }] },
    ],
    UserPromptSubmit: [
      { hooks: [{ type: 'command', command: SEES, inheritEnv: ['HW_PROBE', 'HW_PROBE_TOKEN'] }] },
    ],
    SessionStart: [
      {
        hooks: [
          {
            type: 'command',
            command: 'echo "export HW_SESSION=$HW_PROBE" >> "$CLAUDE_ENV_FILE"; echo started',
            inheritEnv: ['HW_PROBE'],
          },
        ],
      },
    ],
    PermissionRequest: [
      {
        matcher: 'Bash',
        hooks: [
          {
            type: 'command',
            command: `echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}'`,
          },
        ],
      },
    ],
    Stop: [{ hooks: [{ type: 'command', command: 'exec sleep 20' }] }],
  },
  // A key the loader warns about: the warning is a note on stderr, both ways.
  colour: 'blue',
});

// A project file's inheritEnv and session variables are the policy's to grant (docs/security.md).
const policy = writeConfig(tempDir(), 'policy.json', {
  grants: { project: { inheritEnv: ['HW_PROBE', 'HW_PROBE_TOKEN'] } },
  sessionEnv: { allow: ['HW_SESSION'] },
});

const base = (event: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    session_id: 's1',
    transcript_path: '/tmp/t.jsonl',
    cwd: sub,
    hook_event_name: event,
    ...extra,
  });
const tool = (name: string, input: Record<string, unknown>) =>
  base('PreToolUse', { tool_name: name, tool_input: input, tool_use_id: 'toolu_1' });

const CASES: [string, string, string[]?][] = [
  ['a block (exit 2)', tool('Bash', { command: 'rm -rf /' })],
  ['an allow with a rewrite', tool('Bash', { command: 'echo hi' })],
  ['nothing to say', tool('Bash', { command: 'ls' })],
  ['no hook matches (the fast path)', tool('Read', { file_path: '/etc/hosts' })],
  ['a JS guard', tool('Edit', { file_path: '/app/.env', old_string: 'a', new_string: 'b' })],
  ['what a hook sees: cwd, project, environment', base('UserPromptSubmit', { prompt: 'hi' })],
  ['session variables for CLAUDE_ENV_FILE', base('SessionStart', { source: 'startup' })],
  [
    'a PermissionRequest decision',
    base('PermissionRequest', { tool_name: 'Bash', tool_input: { command: 'ls' } }),
  ],
  ['input that is not JSON', '{"hook_event_name": '],
  ['an unknown event', base('NoSuchEvent')],
  ['no verdict within --timeout', base('Stop', { stop_hook_active: false }), ['--timeout', '1']],
];

describe('the same answer through the daemon as in the caller’s process', () => {
  const args = ['--config', config, '--policy', policy];
  // The daemon's own environment differs from every caller's: a hook must never see it.
  const callerEnv = (envFile: string) =>
    daemonEnv({
      CLAUDE_PROJECT_DIR: project,
      CLAUDE_ENV_FILE: envFile,
      HW_PROBE: 'caller',
      HW_PROBE_TOKEN: 'a-caller-secret',
      PATH: `/caller/bin:${process.env.PATH}`,
    });
  const envFile = join(tempDir(), 'claude-env.sh');
  const env = callerEnv(envFile);
  let daemon: Awaited<ReturnType<typeof startDaemon>>;
  beforeAll(async () => {
    daemon = await startDaemon(args, env, {
      cwd: sub,
      daemonEnv: {
        ...env,
        HW_PROBE: 'daemon',
        PATH: `/daemon/bin:${process.env.PATH}`,
        CLAUDE_ENV_FILE: '/nowhere',
      },
    });
  });

  it.each(CASES)('%s', async (_what, input, extra = []) => {
    writeFileSync(envFile, '');
    const inProcess = await runAdapter([...extra, ...args], input, env, sub);
    const envInProcess = readFileSync(envFile, 'utf8');
    writeFileSync(envFile, '');
    const before = (await daemonStatus(env))[0]!.status.calls.answered;
    const viaDaemon = await runClient([...extra, ...args], input, env, sub);
    expect(viaDaemon).toEqual(inProcess);
    expect(readFileSync(envFile, 'utf8')).toBe(envInProcess);
    // It was the daemon's answer, not the client's fallback (which would answer the same).
    expect((await daemonStatus(env))[0]!.status.calls.answered).toBe(before + 1);
    expect(daemon.child.exitCode).toBeNull();
  });

  it('hooks see the caller’s working directory, project and environment, filtered, never the daemon’s', async () => {
    const r = await runClient(args, base('UserPromptSubmit', { prompt: 'hi' }), env, sub);
    const context = JSON.parse(r.stdout).hookSpecificOutput.additionalContext as string;
    expect(context).toContain(`cwd=${project} project=${project} probe=caller token= path=/caller/bin:`);
    const session = await runClient(args, base('SessionStart', { source: 'startup' }), env, sub);
    expect(session.code).toBe(0);
    expect(readFileSync(envFile, 'utf8')).toContain('export HW_SESSION=caller');
  });
});
