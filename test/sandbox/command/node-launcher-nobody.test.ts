// The Node spawn path starts its rlimit wrapper (hw-exec) as the hook's user. A runAs "nobody" hook
// from a checkout nobody cannot enter (a clone under /root or any 0700 directory) must be refused with
// a message that names the closed directory, not fail with a bare EACCES from spawn.
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { LaunchEvents, LaunchSpec } from '../../../sandbox/command/launch.js';
import { findNativeHelper } from '../../../sandbox/command/native-helper.js';
import { NodeSpawnLauncher } from '../../../sandbox/command/node-launcher.js';

const helper = findNativeHelper('hw-exec');
const asRoot = process.getuid?.() === 0;
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function start(launcher: NodeSpawnLauncher, cwd: string): Promise<{ failed?: string; exit?: number | null }> {
  return new Promise((resolve) => {
    const events: LaunchEvents = {
      started() {},
      output() {},
      closed() {},
      failed: (message: string) => resolve({ failed: message }),
      exited: (code: number | null) => resolve({ exit: code }),
    } as unknown as LaunchEvents;
    const spec: LaunchSpec = {
      argv: ['/bin/true'],
      env: {},
      fd3: undefined,
      cwd,
      limits: { cpuSeconds: 5, openFiles: 64, fileSizeBytes: 1 << 20, addressSpaceBytes: undefined },
      maxProcesses: 64,
      runAs: { uid: 65534, gid: 65534 },
      stdin: '',
      maxOutputBytes: 1024,
      contain: 'off',
      dropCapabilities: true,
    };
    launcher.start(spec, events);
  });
}

describe.skipIf(helper === undefined || !asRoot)('Node spawn path, runAs nobody', () => {
  it('refuses, naming the closed directory, when nobody cannot reach hw-exec', async () => {
    const closed = mkdtempSync(join(tmpdir(), 'hw-closed-'));
    dirs.push(closed);
    chmodSync(closed, 0o700);
    const bin = join(closed, 'native');
    mkdirSync(bin, { mode: 0o755 });
    copyFileSync(helper!, join(bin, 'hw-exec'));
    chmodSync(join(bin, 'hw-exec'), 0o755);
    const r = await start(new NodeSpawnLauncher({ kind: 'hw-exec', path: join(bin, 'hw-exec') }), '/');
    expect(r.failed).toContain(`inside ${closed} (mode 700), which nobody cannot enter`);
    expect(r.failed).toContain('The hook was not run.');
  });

  it('starts the hook as nobody when every directory on the way is open', async () => {
    const open = mkdtempSync(join(tmpdir(), 'hw-open-'));
    dirs.push(open);
    chmodSync(open, 0o755);
    copyFileSync(helper!, join(open, 'hw-exec'));
    chmodSync(join(open, 'hw-exec'), 0o755);
    const r = await start(new NodeSpawnLauncher({ kind: 'hw-exec', path: join(open, 'hw-exec') }), '/');
    expect(r).toEqual({ exit: 0 });
  });
});
