// hookwarden-client and its daemon for every agent (issue 39): Codex, Gemini CLI, Cursor and Copilot
// CLI get the daemon Claude Code has, each in its own protocol. Differential: every recorded input
// of every event of each agent, through the client with its daemon warm and through the Node
// adapter in process, must answer the same, byte for byte (exit code, stdout, stderr); the daemon
// answered them (none fell back). Per-call flags (Copilot's --event, Cursor's --explicit-allow) go
// to one daemon; each agent's project directory variable names the root as the adapter reads it.
import { describe, expect, it } from 'vitest';
import type { AgentName } from '../../src/contract/agents/protocol.js';
import { AGENT_NAMES, type Obj, recorded } from '../helpers/agents.js';
import { BIN, CLIENT, runCli, runProgram } from '../helpers/cli.js';
import { tempDir, writeConfig } from '../helpers/fixture.js';
import { daemonEnv, daemonStatus, waitUntil } from '../helpers/native-client.js';

/** A JS guard on every catalogue event: a deny for `rm -rf` anywhere in the input, else context. */
const GUARD = `export default (i) => JSON.stringify(i).includes('rm -rf') ? { decision: 'deny', reason: 'no rm -rf (' + i.event + ')' } : { additionalContext: 'seen ' + i.event }`;
const EVENTS = [
  'SessionStart',
  'BeforeTurn',
  'BeforeModel',
  'BeforeTool',
  'ApprovalRequest',
  'AfterTool',
  'AfterModel',
  'BeforeCompact',
  'AfterCompact',
  'BeforeSubagent',
  'AfterSubagent',
  'AfterTurn',
  'SessionEnd',
  'Notification',
  'StopFailure',
];

function config(): string {
  const dir = tempDir();
  writeConfig(dir, 'guard.js', GUARD);
  return writeConfig(dir, 'hooks.json', {
    hooks: Object.fromEntries(EVENTS.map((e) => [e, [{ hooks: [{ type: 'js', source: 'guard.js' }] }]])),
  });
}

/** `input` with `rm -rf /` wherever it names a command, a prompt or a path (a deny where the event can). */
const hostile = (input: Obj): Obj =>
  JSON.parse(JSON.stringify(input).replace(/"(ls|ls -la|npm test|hello|src\/[^"]*)"/g, '"rm -rf /"'));

describe.each(AGENT_NAMES)('%s through hookwarden-client', (agent: AgentName) => {
  it('answers every recorded event as the Node adapter does, from its daemon', async () => {
    const env = daemonEnv();
    const args = [
      '--timeout',
      '20',
      '--config',
      config(),
      ...(agent === 'cursor' ? ['--explicit-allow'] : []),
    ];
    const events = recorded(agent);
    const withEvent = (event: string) => (agent === 'copilot' ? ['--event', event] : []);
    const viaClient = (event: string, input: Obj) =>
      runProgram(CLIENT, [process.execPath, BIN, agent, ...args, ...withEvent(event)], {
        stdin: JSON.stringify(input),
        env,
      });
    const inProcess = (event: string, input: Obj) =>
      runCli([agent, ...args, ...withEvent(event)], { stdin: JSON.stringify(input), env });
    // The first call starts the daemon (whatever its event: Copilot's --event is a per-call flag).
    const [firstEvent, firstInput] = Object.entries(events)[0]!;
    await viaClient(firstEvent, firstInput);
    await waitUntil(
      async () => ((await daemonStatus(env))[0]?.status.pid === undefined ? undefined : true),
      'the daemon',
    );
    const before = (await daemonStatus(env))[0]!.status.calls;
    let n = 0;
    for (const [event, input] of Object.entries(events))
      for (const variant of [input, hostile(input)]) {
        const [a, b] = [await viaClient(event, variant), await inProcess(event, variant)];
        expect(a, `${event} ${JSON.stringify(variant).slice(0, 120)}`).toEqual(b);
        n++;
      }
    const after = (await daemonStatus(env))[0]!.status.calls;
    expect(after.fellBack - before.fellBack).toBe(0);
    expect(after.answered - before.answered).toBe(n);
    expect((await daemonStatus(env)).length).toBe(1);
  }, 600_000);
});

it('the root is the project directory each agent names (GEMINI_PROJECT_DIR, CURSOR_PROJECT_DIR)', async () => {
  for (const [agent, variable] of [
    ['gemini', 'GEMINI_PROJECT_DIR'],
    ['cursor', 'CURSOR_PROJECT_DIR'],
  ] as const) {
    const project = tempDir();
    const dir = tempDir();
    const hooks = writeConfig(dir, 'hooks.json', {
      hooks: {
        SessionStart: [
          { hooks: [{ type: 'command', command: 'echo "{\\"additionalContext\\": \\"root $PWD\\"}"' }] },
        ],
      },
    });
    const env = daemonEnv({ [variable]: project });
    const input = JSON.stringify(
      Object.values(recorded(agent)).find((i) => /sessionstart/i.test(String(i.hook_event_name)))!,
    );
    const call = () =>
      runProgram(CLIENT, [process.execPath, BIN, agent, '--config', hooks], { stdin: input, env, cwd: dir });
    const first = await call();
    await waitUntil(async () => ((await daemonStatus(env)).length === 1 ? true : undefined), 'the daemon');
    const second = await call();
    expect([second.code, second.stdout]).toEqual([first.code, first.stdout]);
    expect(second.stdout).toContain(`root ${project}`);
    expect((await daemonStatus(env))[0]!.status.root).toBe(project);
  }
}, 120_000);
