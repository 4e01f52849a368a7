// Nothing of the operator's reaches a tenant (docs/security.md, "What a tenant's sandbox shows"): a
// tenant's namespace hook that scans everything it can see — its variables and arguments, every
// process's command line and environment, the mount table, cgroups, the file tree, /etc's users, its
// input — finds no path of the operator's layout (the sandbox root's, the config folder's), no
// machinery, and no host account. The one documented exception is the kernel's own: the fourth field
// of /proc/self/mountinfo for the root's bind mount. The operator's own hook, scanning the same way,
// does see the host's paths (the scan can find them). Real executor, real tenants, both dialects.
import { randomUUID } from 'node:crypto';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { DispatchResult } from '../../../src/index.js';
import { input, sharedTempDir, withExecutor, writeConfig } from '../../helpers/fixture.js';

const SCAN = fileURLToPath(new URL('../../fixtures/hostile/scan-layout.sh', import.meta.url));

function layout() {
  const id = randomUUID().slice(0, 8);
  const marker = `hw-operator-${id}`;
  const root = sharedTempDir(`${marker}-root-`);
  const config = sharedTempDir(`${marker}-config-`);
  copyFileSync(SCAN, join(root, 'scan.sh'));
  return { marker, root, config };
}

const scanned = (r: DispatchResult) =>
  Buffer.from(String(r.additionalContext ?? ''), 'base64').toString('utf8');

/** The section `name` of a scan. */
const section = (scan: string, name: string) => scan.split(`== ${name}\n`)[1]?.split('\n== ')[0] ?? '';

/** The scan without the fourth field of the line mounting the sandbox root at /project (documented). */
function withoutRootSource(scan: string): string {
  return scan.replace(/^(\d+ \d+ \S+ )(\S+)( \/project )/gm, '$1<root>$3');
}

/**
 * The scan without the host's own mounts beneath /usr (documented): /usr is carried into the sandbox
 * with what is mounted under it, so a host that hides a program by mounting over it (as the
 * no-bubblewrap checks hide /usr/bin/bwrap) shows that mount's line. It is the host's, not the
 * machinery's.
 */
function withoutUsrSubmounts(scan: string): string {
  return scan.replace(/^\d+ \d+ \S+ \S+ \/usr\/\S*.*$/gm, '<usr submount>');
}

const TENANT_HOOKS = {
  hookwarden: { hooks: { BeforeTool: [{ hooks: [{ command: 'sh scan.sh', isolation: 'namespace' }] }] } },
  'claude-code': {
    dialect: 'claude-code',
    hooks: {
      PreToolUse: [
        {
          matcher: '*',
          hooks: [{ type: 'command', command: 'sh "$CLAUDE_PROJECT_DIR"/scan.sh', isolation: 'namespace' }],
        },
      ],
    },
  },
} as const;

describe.each(Object.keys(TENANT_HOOKS) as (keyof typeof TENANT_HOOKS)[])(
  "a tenant's namespace hook (%s file)",
  (dialect) => {
    it("sees nothing of the operator's layout: paths, machinery, accounts; its input's paths are the sandbox's", async () => {
      const { marker, root, config } = layout();
      const file = writeConfig(join(config, 'acme'), 'hooks.json', TENANT_HOOKS[dialect]);
      const result = await withExecutor({ config: [], root }, async (hw) => {
        await hw.setTenant('acme', { config: [file] });
        const event = input({ cwd: root, toolName: 'Write', toolInput: { file_path: `${root}/src/x.ts` } });
        return hw.dispatch('BeforeTool', event, { tenant: 'acme' });
      });
      expect(result.hooks[0]).toMatchObject({ outcome: 'proceed', containment: 'namespace' });
      const scan = scanned(result);
      expect(scan).toContain('== mountinfo');
      expect(withoutRootSource(scan)).not.toContain(marker);
      expect(withoutUsrSubmounts(scan)).not.toMatch(/bwrap|hw-spawn-server|hookwarden-client/);
      const env = section(scan, 'env');
      expect(env).toMatch(/^HOOK_PROJECT_DIR=\/project$/m);
      expect(env).toMatch(/^CLAUDE_PROJECT_DIR=\/project$/m);
      expect(env).toMatch(/^HOME=\/tmp$/m);
      expect(env).not.toMatch(/^CLAUDE_PLUGIN_ROOT=/m);
      expect(section(scan, 'pwd').trim()).toBe('/project');
      // PID 1 is the hook itself (its shell, or what that shell exec'd).
      expect(section(scan, '/proc/1').split('\n')[0]).toMatch(/scan\.sh/);
      expect(section(scan, 'users').trim().split('\n')).toEqual([
        'root:x:0:0:root:/tmp:/bin/sh',
        'nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin',
        'root:x:0:',
        'nogroup:x:65534:',
      ]);
      expect(section(scan, 'input')).toContain('"/project/src/x.ts"');
      expect(section(scan, 'input')).toMatch(/"cwd":"\/project"/);
    });
  },
);

const PLUGIN_ROOT = ['$', '{CLAUDE_PLUGIN_ROOT}'].join('');

describe("a tenant's namespace hook naming the operator's folders", () => {
  it.each([
    { command: `${PLUGIN_ROOT}/guard.sh`, args: ['--check'] },
    { command: '/bin/cat', args: [`${PLUGIN_ROOT}/secrets.json`] },
  ])('is not run, and the error names no path ($command $args)', async (hook) => {
    const { marker, root, config } = layout();
    const hooks = {
      dialect: 'claude-code',
      hooks: {
        PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', ...hook, isolation: 'namespace' }] }],
      },
    };
    const file = writeConfig(join(config, 'acme'), 'hooks.json', hooks);
    const result = await withExecutor({ config: [], root }, async (hw) => {
      await hw.setTenant('acme', { config: [file] });
      return hw.dispatch('BeforeTool', input({ toolName: 'Bash' }), { tenant: 'acme' });
    });
    expect(result.hooks[0]).toMatchObject({
      outcome: 'not-run',
      error: {
        code: 'spawn_failed',
        message: expect.stringMatching(/refers to CLAUDE_PLUGIN_ROOT, a folder outside/),
      },
    });
    expect(JSON.stringify(result)).not.toContain(marker);
  });
});

describe("the operator's own namespace hook (the scan's control)", () => {
  it('sees the sandbox root at its own path', async () => {
    const { marker, root } = layout();
    const config = {
      hooks: { BeforeTool: [{ hooks: [{ command: 'sh scan.sh', isolation: 'namespace' }] }] },
    };
    const result = await withExecutor({ config, root }, (hw) =>
      hw.dispatch('BeforeTool', input({ toolName: 'Bash' })),
    );
    const scan = scanned(result);
    expect(section(scan, 'pwd').trim()).toBe(root);
    expect(withoutRootSource(scan)).toContain(marker);
  });
});
