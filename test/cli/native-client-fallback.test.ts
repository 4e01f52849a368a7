// hookwarden-client when the daemon cannot be trusted with the call: a protocol error, a daemon that
// never answers (its --timeout and a second), one that dies mid-call, files changed since it loaded
// them (issue 23, finding 4: the call right after an edit is decided by the edited guard), hooks
// whose meaning depends on the process. Each answers exactly what the Node adapter answers in
// process; the daemon is back in use once it has reloaded.
import { closeSync, constants, existsSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FrameReader, frame, manifest } from '../../src/cli/claude-code/daemon/wire.js';
import { lockPack } from '../../src/packs/index.js';
import { mkfifo } from '../helpers/fifo.js';
import { tempDir, writeConfig, writeFile } from '../helpers/fixture.js';
import {
  daemonEnv,
  daemonStatus,
  guarded,
  ls,
  NO_RM,
  noteOf,
  rm,
  runAdapter,
  runClient,
  socketOf,
  startDaemon,
} from '../helpers/native-client.js';
import { script, writePack } from '../helpers/pack.js';

const fakes: Server[] = [];
afterAll(() => {
  for (const f of fakes) f.close();
});

/**
 * A daemon in this process, with an empty manifest beside its socket (unless `manifest` is false):
 * `answer` answers the request ('close': the connection is closed; undefined: never answered).
 */
function fakeDaemon(
  socket: string,
  answer: Buffer | 'close' | undefined,
  withManifest = true,
): Promise<void> {
  mkdirSync(dirname(socket), { recursive: true, mode: 0o700 });
  if (withManifest) writeFileSync(`${socket}.reads`, manifest([]).bytes, { mode: 0o600 });
  const server = createServer((c) => {
    const reader = new FrameReader();
    c.on('error', () => {});
    c.on('data', (d: Buffer) => {
      reader.push(d);
      if (reader.next(1 << 26) === undefined) return;
      if (answer === 'close') c.destroy();
      else if (answer !== undefined) c.end(answer);
    });
  });
  fakes.push(server);
  return new Promise((resolve) => server.listen(socket, resolve));
}

describe('hookwarden-client falls back to the adapter in process', () => {
  it.each([
    ['an answer that is not one', frame(Buffer.from('Xwhat')), true, /protocol: a malformed answer/],
    ['a malformed answer', frame(Buffer.from('A')), true, /protocol: a malformed answer/],
    ['a connection closed mid-call', 'close' as const, true, /the daemon did not answer the call/],
    ['no list of its files', frame(Buffer.from('A')), false, /the daemon's list of files .* is missing/],
  ])('on %s', async (_what, answer, withManifest, why) => {
    const args = ['--config', guarded(tempDir())];
    const env = daemonEnv();
    await fakeDaemon(await socketOf(args, env), answer, withManifest);
    const r = await runClient(args, ls, env);
    expect([r.code, noteOf(r.stderr)]).toEqual([0, expect.stringMatching(why)]);
    const denied = await runClient(args, rm, env);
    expect([denied.code, denied.stderr]).toEqual([2, 'no recursive deletes\n']);
  });

  it('when the daemon never answers: at its --timeout and a second, with the rest of the time for the adapter', async () => {
    const args = ['--timeout', '1', '--config', guarded(tempDir())];
    const env = daemonEnv();
    await fakeDaemon(await socketOf(args, env), undefined);
    const started = Date.now();
    const r = await runClient(args, ls, env);
    expect([r.code, noteOf(r.stderr)]).toEqual([
      0,
      'the daemon did not answer the call (Connection timed out)',
    ]);
    const denied = await runClient(args, rm, env);
    expect([denied.code, denied.stderr]).toEqual([2, 'no recursive deletes\n']);
    // Two calls, each cut at 1 s + 1 s: well under Claude Code's timeout (the adapter's + 3 s).
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('when the daemon dies mid-call: the call runs again in process, and answers', async () => {
    const dir = tempDir();
    const fifo = mkfifo(dir, 'hold');
    const args = [
      '--config',
      guarded(
        dir,
        `if [ -e ${dir}/ran ]; then echo "run again in process" >&2; exit 2; fi; touch ${dir}/ran; cat ${fifo} >/dev/null; exit 0`,
      ),
    ];
    const env = daemonEnv();
    const d = await startDaemon(args, env);
    const call = runClient(args, ls, env);
    const until = Date.now() + 30_000;
    while (!existsSync(join(dir, 'ran')) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    d.child.kill('SIGKILL');
    const r = await call;
    expect([r.code, r.stderr]).toEqual([2, 'run again in process\n']);
    // Whatever of the daemon's hook survived it: let it end.
    try {
      closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // nobody reads it any more
    }
  });

  it.each([
    ['the config file', 'config'],
    ['the JS guard it loaded', 'source'],
  ])(
    'when %s changed since the daemon loaded it: the next call is the edited guard’s, then the daemon’s again',
    async (_what, edited) => {
      const dir = tempDir();
      writeFile(join(dir, 'guard.js'), 'export default () => ({})');
      const config = writeConfig(dir, 'settings.hookwarden.json', {
        dialect: 'claude-code',
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'js', source: 'guard.js' }] }] },
      });
      const args = ['--config', config];
      const env = daemonEnv();
      const d = await startDaemon(args, env);
      expect((await runClient(args, rm, env)).code).toBe(0);
      if (edited === 'config') guarded(dir);
      else
        writeFile(
          join(dir, 'guard.js'),
          'export default (i) => (/rm -rf/.test(i.toolInput.command) ? { decision: "deny", reason: "no recursive deletes" } : {})',
        );
      const after = await runClient(args, rm, env);
      expect([after.code, after.stderr]).toEqual([2, 'no recursive deletes\n']);
      // It fell back (the digests), unless the daemon's watcher had reloaded first (300 ms after the
      // edit: only on a stalled machine): never the hooks the edit replaced.
      const calls = (await daemonStatus(env))[0]!.status.calls;
      expect(calls.answered + calls.fellBack).toBe(2);
      await d.stderrIncludes('"msg":"configuration reloaded"');
      const next = await runClient(args, rm, env);
      expect([next.code, next.stderr]).toEqual([2, 'no recursive deletes\n']);
      expect((await daemonStatus(env))[0]!.status.calls.answered).toBe(calls.answered + 1);
    },
  );

  it('when a pack the configuration pins changed: the in-process answer (the pack refused), not the daemon’s', async () => {
    const dir = tempDir();
    const pack = writePack(
      {
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './guard.sh' }] }] },
        files: { 'guard.sh': script({ decision: 'deny', reason: 'the pack says no' }) },
      },
      join(dir, 'pack'),
    );
    const { digest } = await lockPack(pack);
    const config = writeConfig(dir, 'hooks.json', { packs: [{ path: pack, digest }] });
    const args = ['--config', config];
    const env = daemonEnv();
    await startDaemon(args, env);
    expect((await runClient(args, ls, env)).code).toBe(2);
    writeFileSync(join(pack, 'guard.sh'), script({}));
    // At once after the edit (the daemon, watching, reloads 300 ms later), then in process.
    const r = await runClient(args, ls, env);
    const inProcess = await runAdapter(args, ls, env);
    expect(inProcess.code).not.toBe(2); // the pack is refused: its guard no longer decides
    expect([r.code, r.stdout]).toEqual([inProcess.code, inProcess.stdout]);
  });

  it.each([
    ['once', { once: true }, /`once` hooks/],
    ['async', { async: true }, /async hooks/],
  ])(
    'for a configuration with %s hooks (their meaning depends on the process)',
    async (_what, extra, why) => {
      const args = ['--config', guarded(tempDir(), NO_RM, extra)];
      const env = daemonEnv();
      await startDaemon(args, env);
      const r = await runClient(args, ls, env);
      expect(noteOf(r.stderr)).toMatch(why);
    },
  );
});
