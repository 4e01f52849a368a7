// hookwarden-client when the Node adapter cannot answer (issue 39): node gone, hookwarden gone, a
// crash before the adapter answered. The client then gives the adapter's own fail-closed answer for
// the call's event, from the table the build generated from the specs: byte for byte what the Node
// adapter answers for that event (reason aside), for every event of every agent, and for events it
// cannot name (unknown, escaped, repeated keys, --event where the adapter takes it).
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { adapterSpecOf } from '../../src/cli/adapter/specs.js';
import { AGENTS } from '../../src/contract/agents/index.js';
import { CLAUDE_CODE_EVENTS } from '../../src/contract/claude-code-events.js';
import { BIN, CLIENT, runProgram } from '../helpers/cli.js';
import { tempDir, writeConfig } from '../helpers/fixture.js';
import { daemonEnv } from '../helpers/native-client.js';

const ADAPTERS = ['claude-code', 'codex', 'gemini', 'cursor', 'copilot'] as const;
const eventsOf = (a: (typeof ADAPTERS)[number]) =>
  a === 'claude-code' ? Object.keys(CLAUDE_CODE_EVENTS) : Object.keys(AGENTS[a].events);

/** The answer with its reason cut out (everything between "hookwarden: " and the line's end or quote). */
const shape = (text: string) => text.replace(/hookwarden: [^"\n]*/g, 'hookwarden: <reason>');

/** The fail-closed answer the Node adapter gives for `event` (undefined: an event it cannot name). */
function expected(adapter: string, event: string | undefined) {
  const a = adapterSpecOf(adapter)!.failure(event, 'x');
  return { code: a.exitCode, stdout: shape(a.stdout), stderr: shape(a.stderr) };
}

const config = writeConfig(tempDir(), 'hooks.json', { hooks: {} });
const env = daemonEnv();

/** The client with a node that cannot run: the adapter never starts, the client answers. */
async function noNode(adapter: string, input: string, extra: string[] = []) {
  const r = await runProgram(
    CLIENT,
    ['/nonexistent/node', BIN, adapter, '--timeout', '5', '--config', config, ...extra],
    { stdin: input, env },
  );
  return { code: r.code, stdout: shape(r.stdout), stderr: shape(r.stderr), raw: r };
}

describe.each(ADAPTERS)('%s: the client answers for an adapter that cannot start', (adapter) => {
  const flag = adapter === 'copilot';
  it('every event gets the adapter’s own fail-closed answer', async () => {
    for (const event of eventsOf(adapter)) {
      const input = JSON.stringify({ hook_event_name: event, session_id: 's', cwd: '/' });
      const r = await noNode(adapter, input, flag ? ['--event', event] : []);
      expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }, event).toEqual(expected(adapter, event));
      expect(r.raw.stderr, event).toMatch(/\/nonexistent\/node .* before it answered/);
    }
  });

  it('an event it cannot name is answered as the adapter answers an unknown one', async () => {
    const unknown = expected(adapter, undefined);
    for (const input of [
      '{"hook_event_name": "NoSuchEvent"}',
      'not json',
      '',
      '{"hook_event_name": "Pre\\u0054oolUse"}', // escaped: JSON.parse reads PreToolUse, the scanner will not guess
      '{"nested": {"hook_event_name": "Stop"}, "tool_name": "Bash"}',
    ]) {
      const r = await noNode(adapter, input);
      expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }, input).toEqual(unknown);
    }
  });
});

describe('the event, as JSON.parse reads it', () => {
  it('the last of a repeated key wins, past nested values, strings with braces and a BOM', async () => {
    const gate = expected('claude-code', 'PreToolUse');
    for (const input of [
      '{"hook_event_name": "Notification", "hook_event_name": "PreToolUse"}',
      '\uFEFF{ "a": {"b": [1, "}", {"c": "]"}]}, "hook_event_name" : "PreToolUse" }',
      '{"tool_input": {"hook_event_name": "Stop"}, "hook_event_name": "PreToolUse", "x": null}',
    ]) {
      const r = await noNode('claude-code', input);
      expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }, input).toEqual(gate);
    }
  });

  it('Copilot CLI: --event names the event (its inputs do not), the last one wins', async () => {
    const r = await noNode('copilot', '{"toolName": "bash"}', ['--event', 'agentStop', '--event=preToolUse']);
    expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual(expected('copilot', 'preToolUse'));
  });
});

describe('a Node adapter that ends without answering', () => {
  it.each([
    ['exits 1 (a crash, a stack trace)', 'exit 1'],
    ['exits 0 saying nothing', 'exit 0'],
    ['is killed by a signal', 'kill -9 $$'],
  ])('%s: a gate is denied, in each agent’s form', async (_what, body) => {
    const dir = tempDir();
    const node = join(dir, 'node');
    writeFileSync(node, `#!/bin/sh\ncat >/dev/null\n${body}\n`);
    chmodSync(node, 0o755);
    for (const [adapter, event] of [
      ['claude-code', 'PreToolUse'],
      ['codex', 'PreToolUse'],
      ['gemini', 'BeforeTool'],
      ['cursor', 'beforeShellExecution'],
      ['copilot', 'preToolUse'],
    ] as const) {
      const r = await runProgram(
        CLIENT,
        [node, BIN, adapter, '--config', config, ...(adapter === 'copilot' ? ['--event', event] : [])],
        { stdin: JSON.stringify({ hook_event_name: event }), env },
      );
      expect({ code: r.code, stdout: shape(r.stdout), stderr: shape(r.stderr) }, adapter).toEqual(
        expected(adapter, event),
      );
    }
  });

  it('an adapter that answered is passed through as it answered (its word on the pipe)', async () => {
    // The real adapter: no hook matches, nothing to say (exit 0, empty), and an unreadable input (exit 2).
    const ok = await runProgram(CLIENT, [process.execPath, BIN, 'claude-code', '--config', config], {
      stdin: JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Read', tool_input: {} }),
      env,
    });
    expect([ok.code, ok.stdout]).toEqual([0, '']);
    const bad = await runProgram(CLIENT, [process.execPath, BIN, 'claude-code', '--config', config], {
      stdin: '{"hook_event_name": "PreToolUse", "tool_name": 7}',
      env,
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).not.toMatch(/before it answered/);
  });
});
