// Landlock on top of the namespaces (docs/security.md, "Defence in depth: Landlock"): where the
// kernel has ABI 6, a contained hook (which shares the host's network namespace) cannot connect to
// the host's abstract Unix sockets, and two namespace hooks of the same tenant (which share their
// tenant's network namespace) cannot reach each other's. The record names the ABI. Real sockets, a
// real Node client in the hook, FIFOs for the waits.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serverCheck } from '../../../sandbox/command/server-check.js';
import { FifoFeed, FifoLines, mkfifo } from '../../helpers/fifo.js';
import { input, sharedTempDir, withExecutor, writeFile } from '../../helpers/fixture.js';

const ABI = serverCheck()?.landlock ?? 0;
const NODE = process.execPath;

/** A hook that connects to the abstract socket `name` and says how it went. */
const CONNECT = `const s = require('net').connect(process.env.SOCKET.replace('@', '\\0'));
s.on('connect', () => { console.log(JSON.stringify({ additionalContext: 'connected' })); s.end(); });
s.on('error', (e) => console.log(JSON.stringify({ additionalContext: e.code })));`;

/** A hook that listens on the abstract socket `name`, says so on a FIFO, and waits for a line. */
const LISTEN = `const fs = require('fs');
const srv = require('net').createServer((c) => c.end()).listen(process.env.SOCKET.replace('@', '\\0'), () => {
  fs.writeSync(fs.openSync(process.env.STARTED, 'w'), 'listening\\n');
  fs.readSync(fs.openSync(process.env.RELEASE, 'r'), Buffer.alloc(16));
  srv.close();
  console.log('{}');
});`;

function scripts(): string {
  const dir = sharedTempDir('hw-landlock-');
  writeFile(join(dir, 'connect.js'), CONNECT);
  writeFile(join(dir, 'listen.js'), LISTEN);
  return dir;
}

describe.runIf(ABI >= 6)('Landlock scoping (ABI 6+)', () => {
  it("a contained hook cannot connect to the host's abstract Unix sockets; the host can", async () => {
    const dir = scripts();
    const name = `@hw-host-${randomUUID()}`;
    const server = createServer((c) => c.end());
    await new Promise<void>((r) => server.listen(name.replace('@', '\0'), r));
    try {
      for (const [isolation, expected] of [
        ['process', /^(EPERM|EACCES)$/],
        ['namespace', /^(ECONNREFUSED|ENOENT|EPERM|EACCES)$/],
      ] as const) {
        const hook = { argv: [NODE, './connect.js'], isolation, env: { SOCKET: name } };
        const result = await withExecutor(
          { config: { hooks: { BeforeTool: [{ hooks: [hook] }] } }, root: dir },
          (hw) => hw.dispatch('BeforeTool', input({ toolName: 'Bash' })),
        );
        expect(result.hooks[0]).toMatchObject({ outcome: 'proceed', landlock: ABI });
        expect([isolation, result.additionalContext]).toEqual([isolation, expect.stringMatching(expected)]);
      }
    } finally {
      server.close();
    }
  });

  it.runIf(NODE.startsWith('/usr/'))(
    "two namespace hooks of one tenant (one network namespace) cannot reach each other's abstract sockets",
    async () => {
      const dir = scripts();
      const lines = new FifoLines(mkfifo(dir, 'started'));
      const feed = new FifoFeed(mkfifo(dir, 'release'));
      const env = { SOCKET: `@hw-tenant-${randomUUID()}`, STARTED: './started', RELEASE: './release' };
      const hook = (script: string) => [{ hooks: [{ isolation: 'namespace', argv: [NODE, script], env }] }];
      // One tenant, two events: both hooks in that tenant's network namespace, at the same time.
      const config = {
        tenants: { acme: { hooks: { BeforeTool: hook('./listen.js'), AfterTool: hook('./connect.js') } } },
      };
      await withExecutor({ config, root: dir }, async (hw) => {
        const held = hw.dispatch('BeforeTool', input({ toolName: 'Bash' }), { tenant: 'acme' });
        expect(await lines.next()).toBe('listening');
        const probe = await hw.dispatch('AfterTool', input({ toolName: 'Bash' }), { tenant: 'acme' });
        feed.send();
        await held;
        expect(probe.hooks[0]).toMatchObject({ landlock: ABI });
        expect(probe.additionalContext).toMatch(/^(EPERM|EACCES)$/);
      });
    },
  );
});
