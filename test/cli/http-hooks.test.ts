// A Claude Code user's settings.json with an http hook, run through the real `hookwarden` binary
// against a real guard server on 127.0.0.1: allowed by a managed-settings policy or --allow-http-url,
// and refused (with a warning that says how to allow it) otherwise.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeFile } from '../helpers/fixture.js';
import { type HookServer, json, startHookServer } from '../helpers/hook-server.js';
import { post, startServe } from '../helpers/serve.js';

const FIXTURES = join(import.meta.dirname, '../fixtures/claude-code-http');

/** The fixture settings with the guard server's origin in place of the one written there. */
function settingsFor(server: HookServer, file = 'settings.json'): string {
  const text = readFileSync(join(FIXTURES, file), 'utf8').replaceAll('http://localhost:8787', server.origin);
  return writeFile(join(tempDir(), file), text.replaceAll('http://localhost:*', 'http://127.0.0.1:*'));
}

/** A guard that denies recursive deletes, in Claude Code's output shape. */
async function guard(): Promise<HookServer> {
  return startHookServer((req, res) => {
    const event = JSON.parse(req.body) as { tool_input?: { command?: string } };
    if (event.tool_input?.command?.includes('rm -rf'))
      json(res, {
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: 'recursive delete refused by the team guard',
        },
      });
    else res.writeHead(204).end();
  });
}

const claudeInput = (command: string) =>
  JSON.stringify({
    session_id: 'abc123',
    transcript_path: '/tmp/t.jsonl',
    cwd: '/tmp',
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command },
    tool_use_id: 'toolu_1',
  });

const ENV = { ...process.env, GUARD_TOKEN: 'team-token-1', TEAM_NAME: 'platform' };

describe('hookwarden dispatch with an http hook', () => {
  it('runs the hook when a managed-settings policy allows its URL, with the variables the policy names', async () => {
    const server = await guard();
    const settings = settingsFor(server);
    const policy = settingsFor(server, 'managed-settings.json');
    const deny = await runCli(['dispatch', 'PreToolUse', '-c', settings, '-p', policy], {
      stdin: claudeInput('rm -rf /'),
      env: ENV,
    });
    expect(deny.code).toBe(2);
    expect(JSON.parse(deny.stdout)).toMatchObject({
      decision: 'deny',
      reason: 'recursive delete refused by the team guard',
      hooks: [{ type: 'http', outcome: 'deny' }],
    });
    const ok = await runCli(['dispatch', 'PreToolUse', '-c', settings, '-p', policy], {
      stdin: claudeInput('ls'),
      env: ENV,
    });
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ decision: 'passthrough', hooks: [{ outcome: 'proceed' }] });
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]!.headers).toMatchObject({
      authorization: 'Bearer team-token-1',
      'x-team': 'platform',
    });
    expect(JSON.parse(server.requests[0]!.body)).toMatchObject({
      session_id: 'abc123',
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'rm -rf /' },
    });
  });

  it('with --allow-http-url alone runs the hook, but a secret-looking variable is sent empty', async () => {
    const server = await guard();
    const r = await runCli(
      ['dispatch', 'PreToolUse', '-c', settingsFor(server), '--allow-http-url', `${server.origin}/hooks/*`],
      { stdin: claudeInput('rm -rf /'), env: ENV },
    );
    expect(r.code).toBe(2);
    // A project file's allowedEnvVars are the policy's to grant (grants.inheritEnv): with no policy,
    // even the variable that is not secret-looking is sent empty.
    expect(server.requests[0]!.headers).toMatchObject({ authorization: 'Bearer', 'x-team': '' });
    expect(r.stderr).toContain('"GUARD_TOKEN" looks like a secret and is sent empty');
  });

  it('without an allow-list runs no http hook and says which key to set', async () => {
    const server = await guard();
    const r = await runCli(['dispatch', 'PreToolUse', '-c', settingsFor(server)], {
      stdin: claudeInput('rm -rf /'),
      env: ENV,
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ decision: 'passthrough', hooks: [] });
    expect(r.stderr).toMatch(/no "allowedHttpHookUrls" is set.*--allow-http-url/);
    expect(server.requests).toEqual([]);
  });

  it('refuses an invalid --allow-http-url pattern with exit 1 and no stack trace', async () => {
    const server = await guard();
    const r = await runCli(
      ['dispatch', 'PreToolUse', '-c', settingsFor(server), '--allow-http-url', 'ftp://x/*'],
      {
        stdin: claudeInput('ls'),
      },
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('allowedHttpHookUrls[0]: only http and https URLs are allowed');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('hookwarden validate with an http hook', () => {
  it('shows the URL and the pattern that allows it', async () => {
    const server = await guard();
    const settings = settingsFor(server);
    const r = await runCli(['validate', settings, '--allow-http-url', `${server.origin}/hooks/*`]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      `http hook: ${settings}: hooks.PreToolUse[0].hooks[0]: BeforeTool → POST ${server.origin}/hooks/pre-tool-use (allowed by "${server.origin}/hooks/*")`,
    );
    expect(server.requests).toEqual([]);
  });

  it('serve takes --allow-http-url too: a dispatch over HTTP runs the admitted hook', async () => {
    const server = await guard();
    const s = await startServe(
      ['-c', settingsFor(server), '--listen', '127.0.0.1:0', '--allow-http-url', `${server.origin}/hooks/*`],
      { env: ENV },
    );
    const r = await post(`${s.url}/v1/dispatch/PreToolUse`, undefined, JSON.parse(claudeInput('rm -rf /')));
    expect(r.status).toBe(200);
    expect(r.body.decision).toBe('deny');
    expect(server.requests).toHaveLength(1);
    await s.stop();
  });
});
