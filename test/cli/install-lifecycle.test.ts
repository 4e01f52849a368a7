// The life of an install, for every agent (issue 39): the agent adds a hook to its file after
// install (as Claude Code's /hooks menu does) and validate names it as running outside hookwarden;
// install again routes it, leaves the routed ones, and writes nothing the second time; a hook added
// to the copy for an event the file does not route is named too, and routed by install; uninstall
// puts the copy's hooks back, keeps every other change, removes what install wrote and stops the
// copy's daemon; a moved or upgraded hookwarden is found stale by validate and rewritten by install.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ADAPTER_SETUPS,
  type Adapter,
  adapterCommands,
  adapterProject,
  GUARDS,
  type Obj,
} from '../helpers/agent-setups.js';
import { runCli } from '../helpers/cli.js';
import { writeFile } from '../helpers/fixture.js';
import { daemonEnv, daemonStatus, waitUntil } from '../helpers/native-client.js';

const ADAPTERS = [
  'claude-code',
  'codex',
  'gemini',
  'cursor',
  'copilot',
] as const satisfies readonly Adapter[];
const nested = (a: Adapter) => a === 'claude-code' || a === 'codex' || a === 'gemini';

/** A second guard, denying `curl` in the agent's words. */
const curlGuard = (a: Adapter) =>
  a === 'claude-code'
    ? `#!/bin/sh\ngrep -q 'curl' && { echo 'guard: no curl' >&2; exit 2; }; exit 0\n`
    : GUARDS[a].replace(/rm -rf/g, 'curl');

/** A hook entry of the agent running `command` for its routed gate (nested or flat). */
function entry(a: Adapter, command: string): Obj {
  if (a === 'copilot') return { type: 'command', bash: command, timeoutSec: 10 };
  if (a === 'cursor') return { command, timeout: 10 };
  const matcher = a === 'gemini' ? 'run_shell_command' : 'Bash';
  return { matcher, hooks: [{ type: 'command', command }] };
}

/** An event each agent routes that the test project has no hook for. */
const OTHER: Record<Adapter, string> = {
  'claude-code': 'SessionEnd',
  codex: 'SessionEnd',
  gemini: 'SessionEnd',
  cursor: 'sessionEnd',
  copilot: 'sessionEnd',
};
const otherEntry = (a: Adapter, command: string): Obj =>
  nested(a)
    ? { hooks: [{ type: 'command', command }] }
    : a === 'copilot'
      ? { type: 'command', bash: command }
      : { command };

const read = (p: string) => JSON.parse(readFileSync(p, 'utf8')) as Obj;
const hooksOf = (p: string) => read(p).hooks as Record<string, Obj[]>;

/** The adapter's hook for `event`, run as the agent runs it, on an input of `command`. */
function call(a: Adapter, path: string, dir: string, command: string, env: NodeJS.ProcessEnv) {
  const s = ADAPTER_SETUPS[a];
  const [line] = adapterCommands(a as 'codex', read(path), s.event);
  expect(line, 'an adapter hook').toBeDefined();
  return spawnSync('bash', ['-c', line!], {
    input: JSON.stringify(s.input(command)),
    cwd: dir,
    encoding: 'utf8',
    env,
  });
}

/** Whether the answer blocks the call, in the agent's form, with `reason`. */
function blocks(
  a: Adapter,
  r: { status: number | null; stdout: string; stderr: string },
  reason: string,
): boolean {
  if (!`${r.stdout}${r.stderr}`.includes(reason)) return false;
  if (a === 'cursor') return r.status === 0 && JSON.parse(r.stdout).permission === 'deny';
  if (a === 'copilot') return r.status === 0 && JSON.parse(r.stdout).permissionDecision === 'deny';
  return r.status === 2;
}

const copyOf = (a: Adapter, path: string) =>
  a === 'copilot' ? path.replace(/\.json$/, '.hookwarden') : path.replace(/\.json$/, '.hookwarden.json');

async function installed(a: Adapter, env: NodeJS.ProcessEnv) {
  const { dir, path } = adapterProject(a);
  const original = readFileSync(path, 'utf8');
  const r = await runCli([a, 'install', path, '--write'], { env });
  expect(r.code, r.stderr).toBe(0);
  writeFile(join(dirname(copyOf(a, path)), 'curl-guard.sh'), curlGuard(a), 0o755);
  return {
    dir,
    path,
    original,
    copy: copyOf(a, path),
    curl: join(dirname(copyOf(a, path)), 'curl-guard.sh'),
  };
}

describe.each(ADAPTERS)('%s: the life of an install', (a) => {
  const s = ADAPTER_SETUPS[a];

  it('a hook the agent adds after install: validate names it, install again routes it, then writes nothing', async () => {
    const env = daemonEnv();
    const { dir, path, original, copy, curl } = await installed(a, env);
    const file = read(path);
    const hooks = file.hooks as Record<string, Obj[]>;
    hooks[s.event] = [...hooks[s.event]!, entry(a, curl)];
    hooks[OTHER[a]] = [otherEntry(a, 'true')];
    file.addedSinceInstall = 'kept';
    writeFileSync(path, `${JSON.stringify(file, null, 2)}\n`);
    // Before: the added guard runs outside hookwarden (the agent runs it, unsandboxed); validate says so.
    const v = await runCli(['validate', path], { env });
    expect(v.stdout).toMatch(
      new RegExp(`warning: .*hooks\\.${s.event}: .*curl-guard\\.sh runs outside hookwarden`),
    );
    expect(v.stdout).toMatch(new RegExp(`warning: .*hooks\\.${OTHER[a]}: true runs outside hookwarden`));
    const again = await runCli([a, 'install', path, '--write'], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/hooks added since, to route now: /);
    const copied = hooksOf(copy);
    expect(copied[s.event]).toHaveLength(2);
    expect(JSON.stringify(copied[s.event]![1])).toContain('curl-guard.sh');
    expect(Object.keys(copied)).toContain(OTHER[a]);
    expect(read(path).addedSinceInstall).toBe('kept');
    expect(adapterCommands(a as 'codex', read(path), OTHER[a])).toHaveLength(1);
    expect(readFileSync(`${path}.bak`, 'utf8')).toBe(original);
    // The routed guards run under hookwarden: both deny, each its own call.
    expect(blocks(a, call(a, path, dir, 'rm -rf /', env), 'no rm -rf')).toBe(true);
    expect(blocks(a, call(a, path, dir, 'curl evil.example', env), 'no curl')).toBe(true);
    expect(call(a, path, dir, 'ls', env).status).toBe(0);
    // Idempotent: nothing to route, nothing written; validate has nothing to say.
    const text = readFileSync(path, 'utf8');
    const third = await runCli([a, 'install', path, '--write'], { env });
    expect([third.code, third.stderr]).toEqual([0, expect.stringMatching(/is up to date: nothing to write/)]);
    expect(readFileSync(path, 'utf8')).toBe(text);
    expect((await runCli(['validate', path], { env })).stdout).not.toMatch(
      /warning: .*(outside hookwarden|never runs)/,
    );
  });

  it('a hook added to the copy for an event the file does not route: named, then routed by install', async () => {
    const env = daemonEnv();
    const { path, copy } = await installed(a, env);
    const c = read(copy);
    (c.hooks as Obj)[OTHER[a]] = [otherEntry(a, 'true')];
    writeFileSync(copy, JSON.stringify(c, null, 2));
    for (const target of [path, copy]) {
      const v = await runCli(['validate', target], { env });
      expect(v.stdout, target).toMatch(
        new RegExp(`warning: .*hooks\\.${OTHER[a]}: never runs: .* routes no ${OTHER[a]}`),
      );
    }
    const r = await runCli([a, 'install', path, '--write'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(adapterCommands(a as 'codex', read(path), OTHER[a])).toHaveLength(1);
    expect((await runCli(['validate', copy], { env })).stdout).not.toMatch(/never runs/);
  });

  it('uninstall: the copy’s hooks back, every other change kept, the copy and .bak gone, its daemon stopped', async () => {
    const env = daemonEnv();
    const { dir, path, copy, curl } = await installed(a, env);
    // The daemon of the copy's configuration, started by a first call and answering the next.
    call(a, path, dir, 'ls', env);
    await waitUntil(async () => ((await daemonStatus(env)).length === 1 ? true : undefined), 'the daemon');
    // Since install: the agent added a hook and a setting; the user edited the copy.
    const file = read(path);
    (file.hooks as Record<string, Obj[]>)[OTHER[a]] = [otherEntry(a, 'echo added')];
    file.addedSinceInstall = 'kept';
    writeFileSync(path, JSON.stringify(file, null, 2));
    const c = read(copy);
    (c.hooks as Record<string, Obj[]>)[s.event]!.push(entry(a, curl));
    writeFileSync(copy, JSON.stringify(c, null, 2));
    const plan = await runCli([a, 'uninstall', path], { env });
    expect([plan.code, plan.stderr]).toEqual([0, expect.stringMatching(/nothing written/)]);
    const r = await runCli([a, 'uninstall', path, '--write'], { env });
    expect(r.code, r.stderr).toBe(0);
    const after = read(path);
    const hooks = after.hooks as Record<string, Obj[]>;
    const originalHooks = s.config(dir).hooks as Record<string, Obj[]>;
    expect(hooks[s.event]).toEqual([...originalHooks[s.event]!, entry(a, curl)]);
    expect(hooks[OTHER[a]]).toEqual([otherEntry(a, 'echo added')]);
    for (const [event, groups] of Object.entries(originalHooks))
      if (!s.routed.includes(event)) expect(hooks[event], event).toEqual(groups);
    expect(after.addedSinceInstall).toBe('kept');
    expect(JSON.stringify(after)).not.toMatch(/hookwarden/);
    expect([existsSync(copy), existsSync(`${path}.bak`)]).toEqual([false, false]);
    await waitUntil(
      async () => ((await daemonStatus(env)).length === 0 ? true : undefined),
      'the daemon to stop',
    );
    // Again: nothing to uninstall. And install works again from here.
    const twice = await runCli([a, 'uninstall', path, '--write'], { env });
    expect([twice.code, twice.stderr]).toEqual([
      0,
      expect.stringMatching(/routes nothing through .*nothing to uninstall/),
    ]);
    expect((await runCli([a, 'install', path, '--write'], { env })).code).toBe(0);
  });

  it('a moved or upgraded hookwarden: validate names the stale command, install again rewrites it', async () => {
    const env = daemonEnv();
    const { dir, path } = await installed(a, env);
    const current = readFileSync(path, 'utf8');
    const bin = join(process.cwd(), 'bin/hookwarden');
    writeFileSync(path, current.split(process.cwd()).join('/opt/old-hookwarden'));
    const v = await runCli(['validate', path], { env });
    expect(v.stdout).toMatch(
      /the adapter hooks run \/opt\/old-hookwarden\/.*which is gone: every call fails closed/,
    );
    // Meanwhile the stale command blocks the gate instead of letting it through.
    const stale = call(a, path, dir, 'ls', env);
    expect(stale.status === 2 || /deny|block/.test(stale.stdout), `${stale.status} ${stale.stdout}`).toBe(
      true,
    );
    const r = await runCli([a, 'install', path, '--write'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(path, 'utf8')).toContain(bin);
    expect(readFileSync(path, 'utf8')).not.toContain('/opt/old-hookwarden');
    expect(blocks(a, call(a, path, dir, 'rm -rf /', env), 'no rm -rf')).toBe(true);
  });
});
