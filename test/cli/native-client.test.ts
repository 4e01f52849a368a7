// hookwarden-client and the daemon it forwards to (issue 25): the command install writes, the daemon
// started on demand, and every way the client falls back to the Node adapter in its own process —
// no daemon, a stale socket, another configuration, another user, a protocol error, a daemon that
// dies mid-call or never answers, files changed since the daemon loaded them. The verdict is right
// in every case; only where it was computed differs, and the adapter's debug note says why.
import { spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { firstCommandWords } from '../../src/cli/adapter/install-state.js';
import { requestFrame } from '../../src/cli/claude-code/daemon/wire.js';
import { shellWords } from '../../src/cli/claude-code/routing.js';
import { runCli, runProgram } from '../helpers/cli.js';
import { tempDir, writeConfig } from '../helpers/fixture.js';
import {
  daemonEnv,
  daemonStatus,
  guarded,
  ls,
  NO_RM,
  noteOf,
  rm,
  runClient,
  socketOf,
  startDaemon,
  waitUntil,
} from '../helpers/native-client.js';

const NOBODY = 65534;

/** The pid of the one daemon of `env` (after its status says it runs). */
async function onlyDaemon(env: NodeJS.ProcessEnv) {
  return waitUntil(async () => {
    const s = await daemonStatus(env);
    return s.length === 1 && s[0]!.status.error === undefined ? s[0]! : undefined;
  }, 'the daemon to answer status');
}

describe('hookwarden-client', () => {
  it('is what install writes; the first call answers in process and starts the daemon, the next ones are its', async () => {
    const dir = tempDir();
    const settings = writeConfig(join(dir, '.claude'), 'settings.json', {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: NO_RM }] }] },
    });
    const env = daemonEnv({ CLAUDE_PROJECT_DIR: dir });
    const install = await runCli(['claude-code', 'install', settings, '--write'], { env });
    expect(install.code, install.stderr).toBe(0);
    const command = JSON.parse(readFileSync(settings, 'utf8')).hooks.PreToolUse[0].hooks[0].command as string;
    expect(shellWords(command)[0]).toMatch(/\/dist\/native\/hookwarden-client$/);
    // As Claude Code runs it: the command string through a shell, the input piped.
    const claude = (input: string) => runProgram('/bin/sh', ['-c', command], { stdin: input, env, cwd: dir });
    const first = await claude(ls);
    expect(first.code).toBe(0);
    expect(noteOf(first.stderr)).toBe('no daemon runs for this configuration yet');
    const daemon = await onlyDaemon(env);
    // The adapter and its flags, without the per-call --timeout (and nothing of the guard after `||`).
    const words = firstCommandWords(command);
    expect(daemon.status.args).toEqual(
      words.slice(3).filter((_, i, a) => a[i - 1] !== '--timeout' && a[i] !== '--timeout'),
    );
    expect(daemon.status.log).toMatch(
      new RegExp(`^${env.XDG_STATE_HOME}/hookwarden/daemon/hw-[0-9a-f]{32}\\.log$`),
    );
    expect(readFileSync(daemon.status.log!, 'utf8')).toContain('"msg":"listening"');
    const second = await claude(rm);
    expect([second.code, second.stderr]).toEqual([2, 'no recursive deletes\n']);
    const third = await claude(ls);
    expect([third.code, third.stderr, third.stdout]).toEqual([0, '', '']);
    expect((await daemonStatus(env))[0]!.status.calls.answered).toBe(2);
  });

  it('falls back when the socket is stale (its daemon was killed), and a new daemon replaces it', async () => {
    const dir = tempDir();
    const args = ['--config', guarded(dir)];
    const env = daemonEnv();
    const d = await startDaemon(args, env);
    d.child.kill('SIGKILL');
    await d.done;
    expect(existsSync(d.socket)).toBe(true);
    const r = await runClient(args, ls, env);
    expect(noteOf(r.stderr)).toMatch(/no daemon listens \(a stale socket\)/);
    expect((await runClient(args, rm, env)).code).toBe(2);
    await onlyDaemon(env);
  });

  it('falls back when the daemon on its socket runs another configuration', async () => {
    const dir = tempDir();
    const args = ['--config', guarded(dir)];
    const other = guarded(tempDir(), 'exit 0');
    const env = daemonEnv();
    // A daemon of the other configuration, at this one's socket.
    await startDaemon(['--config', other], env, { socket: await socketOf(args, env) });
    const r = await runClient(args, ls, env);
    expect(noteOf(r.stderr)).toMatch(/this daemon runs another configuration/);
    const denied = await runClient(args, rm, env);
    expect([denied.code, denied.stderr]).toEqual([2, 'no recursive deletes\n']);
  });

  it('never uses a socket directory or socket another user owns, nor a daemon running as another user', async () => {
    const dir = tempDir();
    const args = ['--config', guarded(dir)];
    const env = daemonEnv();
    const socket = await socketOf(args, env);
    // (1) the directory is another user's
    mkdirSync(dirname(socket), { mode: 0o700 });
    chownSync(dirname(socket), NOBODY, NOBODY);
    const a = await runClient(args, ls, env);
    expect(noteOf(a.stderr)).toMatch(/belongs to user 65534, not to this user/);
    expect((await runClient(args, rm, env)).code).toBe(2);
    chownSync(dirname(socket), process.getuid!(), process.getgid!());
    // (2) the socket is another user's
    const d = await startDaemon(args, env);
    chownSync(socket, NOBODY, NOBODY);
    const b = await runClient(args, ls, env);
    expect(noteOf(b.stderr)).toBe(`${socket} is not a socket of this user`);
    d.child.kill('SIGTERM');
    await d.done;
    // (3) the process listening is another user's (bound here, then listening as nobody: SO_PEERCRED)
    const fake = spawn('python3', [
      '-c',
      `import os, socket\ns = socket.socket(socket.AF_UNIX)\ns.bind(${JSON.stringify(socket)})\nos.setgid(${NOBODY}); os.setuid(${NOBODY})\ns.listen(8)\nprint('up', flush=True)\nwhile True:\n  c, _ = s.accept()\n  c.recv(1 << 20)\n  c.close()`,
    ]);
    await new Promise<void>((resolve) => fake.stdout.once('data', () => resolve()));
    try {
      const c = await runClient(args, ls, env);
      expect(noteOf(c.stderr)).toBe(`the daemon on ${socket} runs as another user`);
      expect((await runClient(args, rm, env)).code).toBe(2);
    } finally {
      fake.kill('SIGKILL');
    }
  });

  it('the daemon refuses a peer of another user, whatever the file modes let through (SO_PEERCRED)', async () => {
    const dir = tempDir();
    const args = ['--config', guarded(dir)];
    const env = daemonEnv();
    const d = await startDaemon(args, env);
    // Every directory on the way open to others, the socket too: only SO_PEERCRED stands in the way.
    for (let p = dirname(d.socket); p !== dirname(env.XDG_RUNTIME_DIR); p = dirname(p)) chmodSync(p, 0o711);
    chmodSync(dirname(env.XDG_RUNTIME_DIR), 0o711);
    chmodSync(d.socket, 0o666);
    const hello = requestFrame({ kind: 'call', cwd: dir, args, env: Object.create(null) }).toString('base64');
    // As nobody: connect, send a hello, print what comes back before the daemon closes.
    const peer = await runProgram(
      process.execPath,
      [
        '-e',
        `process.setgid(${NOBODY}); process.setuid(${NOBODY});
         const c = require('net').connect(${JSON.stringify(d.socket)});
         let got = 0; c.on('connect', () => c.write(Buffer.from(${JSON.stringify(hello)}, 'base64')));
         c.on('data', (b) => (got += b.length)); c.on('error', (e) => console.log('error', e.code));
         c.on('close', () => console.log('received', got));`,
      ],
      {},
    );
    // It got through the file modes (no EACCES), and the daemon closed on it without a byte.
    expect(peer.stdout).toMatch(/^(error (EPIPE|ECONNRESET)\n)?received 0\n$/);
    await d.stderrIncludes(`"msg":"refused a peer","peer":{"pid":`);
    await d.stderrIncludes(`"uid":${NOBODY},"gid":${NOBODY}}`);
  });
});
