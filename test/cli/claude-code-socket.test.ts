// `hookwarden serve --socket` and the Claude Code adapter forwarding to it: real processes (the
// built CLI), a real Unix socket. The adapter uses the daemon only when it is this user's, in a
// directory only this user can write, runs the same configuration and answers a well-formed
// result; otherwise it dispatches in its own process (and says why on stderr when stderr is not a
// reason). Never a stack trace.
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bashInput } from '../helpers/claude-code.js';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeConfig, writeFile } from '../helpers/fixture.js';
import { startServe } from '../helpers/serve.js';

const bash = bashInput;
const guard = (script: string) => ({
  hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: script }] }] },
});
const NO_RM = guard('grep -q "rm -rf" && { echo "no recursive deletes" >&2; exit 2; }; exit 0');
const DENY_ALL = guard('echo "the daemon denies everything" >&2; exit 2');
const NOT_USED = /hookwarden: the daemon was not used \((.*)\): dispatched in this process/;

function adapter(args: string[], input: unknown, env: NodeJS.ProcessEnv = {}) {
  return runCli(['claude-code', ...args], {
    stdin: JSON.stringify(input),
    env: { ...process.env, HOOKWARDEN_SOCKET: '', ...env },
  });
}

const noStack = (text: string) => expect(text).not.toMatch(/\n\s+at .+:\d+:\d+/);

/** Requests the daemon logged (its log lines are batched: wait for `count`). */
const requests = (s: Awaited<ReturnType<typeof startServe>>, count: number) =>
  s.waitForLogs((l) => l.msg === 'request' && l.route === '/v1/dispatch/:event', count);

const fakes: Server[] = [];
afterAll(() => {
  for (const f of fakes) f.close();
});

const NO_READS = '{"reads":[]}';
const READS_ANSWER = `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${NO_READS.length}\r\n\r\n${NO_READS}`;

/**
 * A socket server in this process answering every dispatch with `raw` (or never, if undefined), and
 * the list of what it loaded with an empty one.
 */
function fakeDaemon(path: string, raw: string | undefined): Promise<void> {
  const server = createServer((c) => {
    c.on('data', (d: Buffer) => {
      if (d.toString('latin1').startsWith('GET /v1/config-reads ')) c.end(READS_ANSWER);
      else if (raw !== undefined) c.end(raw);
    });
    c.on('error', () => {});
  });
  fakes.push(server);
  return new Promise((resolve) => server.listen(path, resolve));
}

/** A socket file left behind by a process killed with SIGKILL (nothing listens on it). */
async function staleSocket(path: string): Promise<void> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['-e', `require('net').createServer().listen(${JSON.stringify(path)}, () => console.log('up'))`],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
  const gone = new Promise((resolve) => child.once('close', resolve));
  child.kill('SIGKILL');
  await gone;
  expect(lstatSync(path).isSocket()).toBe(true);
}

describe('serve --socket and the adapter forwarding to it', () => {
  it('listens on a 0600 socket of its own user, forwards the adapter verdicts, and removes the socket when it ends', async () => {
    const dir = tempDir();
    const config = writeConfig(dir, 'settings.json', NO_RM);
    const path = join(dir, 'hw.sock');
    const s = await startServe(['-c', config, '--socket', path]);
    expect(s.socket).toBe(path);
    expect(s.url).toBe('');
    const st = lstatSync(path);
    expect([st.isSocket(), st.mode & 0o777, st.uid]).toEqual([true, 0o600, process.getuid!()]);

    const denied = await adapter(['-c', config, '--socket', path], bash('rm -rf /'));
    expect([denied.code, denied.stderr]).toEqual([2, 'no recursive deletes\n']);
    expect(JSON.parse(denied.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    // $HOOKWARDEN_SOCKET names it too; exit 0 shows no note: the daemon answered.
    const allowed = await adapter(['-c', config], bash('ls'), { HOOKWARDEN_SOCKET: path });
    expect([allowed.code, allowed.stdout, allowed.stderr]).toEqual([0, '', '']);
    const logged = await requests(s, 2);
    expect(logged.map((l) => l.decision)).toEqual(['deny', 'passthrough']);

    const exit = await s.stop();
    expect(exit.code).toBe(0);
    expect(existsSync(path)).toBe(false);
  });

  it('falls back to dispatching in-process when the daemon runs another configuration (409 config_mismatch)', async () => {
    const dir = tempDir();
    const daemonConfig = writeConfig(dir, 'daemon.json', DENY_ALL);
    const mine = writeConfig(dir, 'mine.json', NO_RM);
    const path = join(dir, 'hw.sock');
    // Started in `dir`: its config is named relative to it, and its sandbox root is `dir`.
    const s = await startServe(['-c', 'daemon.json', '--socket', path], { cwd: dir });
    const other = await adapter(['-c', mine, '--root', dir, '--socket', path], bash('ls'));
    expect(other.code).toBe(0);
    expect(NOT_USED.exec(other.stderr)?.[1]).toBe('the daemon answered 409 (config_mismatch)');
    // Another sandbox root (here the default: this process's cwd) is another configuration too.
    const root = await adapter(['-c', daemonConfig, '--socket', path], bash('ls'));
    expect([root.code, root.stderr]).toEqual([2, 'the daemon denies everything\n']);
    expect((await requests(s, 2)).map((l) => l.status)).toEqual([409, 409]);
    // The same files and root, named from another directory, are the same configuration.
    const same = await adapter(['-c', daemonConfig, '--root', dir, '--socket', path], bash('ls'));
    expect([same.code, same.stderr]).toEqual([2, 'the daemon denies everything\n']);
    expect((await requests(s, 3)).map((l) => l.status)).toEqual([409, 409, 200]);
  });

  it('falls back when the socket is absent, stale, not a socket, or in a directory others can write', async () => {
    const dir = tempDir();
    const config = writeConfig(dir, 'settings.json', NO_RM);
    const why = async (path: string) => {
      const r = await adapter(['-c', config, '--socket', path], bash('ls'));
      expect([r.code, r.stdout]).toEqual([0, '']);
      noStack(r.stderr);
      return NOT_USED.exec(r.stderr)?.[1];
    };
    expect(await why(join(dir, 'absent.sock'))).toMatch(
      /no such socket \(is `hookwarden serve --socket` running\?\)/,
    );
    const stale = join(dir, 'stale.sock');
    await staleSocket(stale);
    expect(await why(stale)).toMatch(/ECONNREFUSED/);
    const file = writeConfig(dir, 'file.sock', '');
    expect(await why(file)).toMatch(/is not a socket/);
    // The guard still guards on the fallback path.
    const r = await adapter(['-c', config, '--socket', stale], bash('rm -rf /'));
    expect([r.code, r.stderr]).toEqual([2, 'no recursive deletes\n']);

    // A daemon whose directory becomes writable by others is not trusted any more.
    const open = tempDir();
    const path = join(open, 'hw.sock');
    const s = await startServe(['-c', config, '--socket', path]);
    chmodSync(open, 0o777);
    expect(await why(path)).toMatch(/is writable by others \(mode 777\)/);
    chmodSync(open, 0o700);
    expect(await why(path)).toBeUndefined();
    await s.stop();
  });

  it('does not forward what the daemon cannot honour (--strict, --audit…)', async () => {
    const dir = tempDir();
    const config = writeConfig(dir, 'settings.json', NO_RM);
    const path = join(dir, 'hw.sock');
    const s = await startServe(['-c', config, '--socket', path]);
    const audit = join(dir, 'audit.jsonl');
    const r = await adapter(['-c', config, '--socket', path, '--audit', audit], bash('ls'));
    expect(r.code).toBe(0);
    expect(NOT_USED.exec(r.stderr)?.[1]).toBe('--audit given to the adapter');
    expect(existsSync(audit)).toBe(true);
    expect(s.logs().filter((l) => l.msg === 'request')).toEqual([]);
  });

  it('never takes a malformed answer from a daemon, and a daemon that never answers ends at --timeout, closed', async () => {
    const dir = tempDir();
    const config = writeConfig(dir, 'settings.json', NO_RM);
    const answer = (status: string, body: string) =>
      `HTTP/1.1 ${status}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    const cases: [string, string, RegExp][] = [
      ['bad-verdict', answer('200 OK', '{"decision":"yes","hooks":[]}'), /decision: not a verdict/],
      ['not-json', answer('200 OK', 'allow'), /answered 200 without JSON/],
      [
        'short',
        'HTTP/1.1 200 OK\r\ncontent-length: 99\r\n\r\n{}',
        /closed the connection before a complete answer/,
      ],
      ['bad-field', answer('200 OK', '{"decision":"allow","hooks":[],"reason":7}'), /reason: /],
      ['refused', answer('503 Service Unavailable', '{"error":{"code":"draining"}}'), /503 \(draining\)/],
    ];
    for (const [name, raw, why] of cases) {
      const path = join(dir, `${name}.sock`);
      await fakeDaemon(path, raw);
      // A malformed "allow" must not let rm -rf through: the adapter runs the guard itself.
      const r = await adapter(['-c', config, '--socket', path], bash('rm -rf /'));
      expect([name, r.code, r.stderr]).toEqual([name, 2, 'no recursive deletes\n']);
      const ok = await adapter(['-c', config, '--socket', path], bash('ls'));
      expect([name, ok.code]).toEqual([name, 0]);
      expect(NOT_USED.exec(ok.stderr)?.[1]).toMatch(why);
    }
    const hung = join(dir, 'hung.sock');
    await fakeDaemon(hung, undefined);
    const r = await adapter(['-c', config, '--socket', hung, '--timeout', '1'], bash('ls'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no verdict within --timeout 1 s/);
    noStack(r.stderr);
  });

  // Issue 23, finding 4: the daemon answered with the hooks it loaded after the user had edited them.
  it.each([
    ['the config file', 'settings.json'],
    ['a JS guard it loaded', 'guard.js'],
  ])(
    'never answers for %s edited since it loaded it: the call right after the edit falls back, and the new guard decides',
    async (_what, edited) => {
      const dir = tempDir();
      const PUSH = 'grep -q "push --force" && { echo "no force pushes" >&2; exit 2; }; exit 0';
      writeFile(join(dir, 'guard.js'), 'export default () => ({})');
      const config = writeConfig(dir, 'settings.json', {
        hooks: {
          PreToolUse: [
            {
              matcher: 'Bash',
              hooks: [
                { type: 'js', source: 'guard.js' },
                { type: 'command', command: 'exit 0' },
              ],
            },
          ],
        },
      });
      const path = join(dir, 'hw.sock');
      // --no-watch: the digest check alone must catch the edit, whatever a watcher would do.
      const s = await startServe(['-c', config, '--socket', path, '--root', dir, '--no-watch']);
      const args = ['-c', config, '--socket', path, '--root', dir];
      const push = bash('git push --force origin main');
      const before = await adapter(args, push);
      expect([before.code, NOT_USED.exec(before.stderr)]).toEqual([0, null]);
      if (edited === 'settings.json')
        writeConfig(dir, 'settings.json', {
          hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: PUSH }] }] },
        });
      else
        writeFile(
          join(dir, 'guard.js'),
          'export default (i) => (/push --force/.test(i.toolInput.command) ? { decision: "deny", reason: "no force pushes" } : {})',
        );
      const after = await adapter(args, push);
      expect(after.code).toBe(2);
      expect(after.stderr).toMatch(/no force pushes/);
      // The daemon said why it did not answer (409 config_changed), and reloaded: the next call is its.
      await s.waitForLog((l) => l.msg === 'configuration reloaded');
      const next = await adapter(args, push);
      expect([next.code, next.stderr]).toEqual([2, expect.stringMatching(/no force pushes/)]);
      const codes = (await requests(s, 3)).map((l) => l.status);
      expect(codes).toEqual([200, 409, 200]);
    },
  );

  it('watches its files by default with --socket: an edit is loaded without a call', async () => {
    const dir = tempDir();
    const config = writeConfig(dir, 'settings.json', NO_RM);
    const s = await startServe(['-c', config, '--socket', join(dir, 'hw.sock')]);
    writeConfig(dir, 'settings.json', DENY_ALL);
    await s.waitForLog((l) => l.msg === 'configuration reloaded');
  });

  it('refuses a socket path it cannot own safely, with a message and no stack trace', async () => {
    const config = writeConfig(tempDir(), 'settings.json', NO_RM);
    const serve = (path: string) => runCli(['serve', '-c', config, '--socket', path]);
    const open = tempDir();
    chmodSync(open, 0o777);
    const a = await serve(join(open, 'hw.sock'));
    expect(a.code).not.toBe(0);
    expect(a.stderr).toMatch(/is writable by others \(mode 777\)/);
    noStack(a.stderr);
    const dir = tempDir();
    const file = join(dir, 'taken');
    writeFileSync(file, 'x');
    const b = await serve(file);
    expect(b.stderr).toMatch(/exists and is not a socket: remove it or choose another path/);
    const c = await serve(join(dir, 'x'.repeat(120)));
    expect(c.stderr).toMatch(/longer than 107 bytes/);
    for (const r of [b, c]) {
      expect(r.code).not.toBe(0);
      noStack(r.stderr);
    }
    // A live server's socket is not taken over; a stale one is replaced.
    const path = join(dir, 'hw.sock');
    const s = await startServe(['-c', config, '--socket', path]);
    const d = await serve(path);
    expect(d.stderr).toMatch(/another server is listening there/);
    await s.stop();
    await staleSocket(path);
    const again = await startServe(['-c', config, '--socket', path]);
    expect(lstatSync(path).mode & 0o777).toBe(0o600);
    const r = await adapter(['-c', config, '--socket', path], bash('rm -rf /'));
    expect(r.code).toBe(2);
    expect((await requests(again, 1))[0]!.decision).toBe('deny');
  });
});
