// A pack's command hooks in namespace isolation: the sandbox sees the sandbox root, not the rest of the
// host, so the pack's own directory is mounted read-only at its path. Without that, a pack kept
// outside the root (as packs are: under the operator's config, or the url-pin cache) could not run
// its own scripts in a namespace at all.
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { namespaceSupport } from '../../sandbox/command/namespace-profile.js';
import { lockPack } from '../../src/packs/lock-pack.js';
import { input, tempDir, withExecutor } from '../helpers/fixture.js';
import { writePack } from '../helpers/pack.js';

const ns = namespaceSupport();
const required = process.env.HOOKWARDEN_REQUIRE_NAMESPACE === '1';
if (!ns.ok && !required) console.warn(`pack namespace tests not run here (${ns.reason}; ${ns.hint})`);

describe.runIf(ns.ok || required)('a pack command hook in namespace isolation', () => {
  it('runs its script from a pack outside the sandbox root, and cannot write to the pack', async () => {
    const dir = writePack({
      hooks: {
        BeforeTool: [
          { hooks: [{ name: 'ns', command: './check.sh', isolation: 'namespace', onError: 'deny' }] },
        ],
      },
      files: {
        'check.sh': [
          '#!/bin/sh',
          'touch "$HOOK_PACK_DIR/written" 2>/dev/null && w=writable || w=read-only',
          'printf \'{"decision":"deny","reason":"%s %s"}\' "$HOOK_PACK_DIR" "$w"',
          '',
        ].join('\n'),
      },
    });
    const { digest } = await lockPack(dir);
    const root = tempDir('hw-ns-root-');
    await withExecutor({ policy: { packs: [{ path: dir, digest }] }, root }, async (hw, warnings) => {
      expect(warnings).toEqual([]);
      const r = await hw.dispatch('BeforeTool', input({ toolName: 'Bash' }));
      expect(r).toMatchObject({
        decision: 'deny',
        reason: `${realpathSync(dir)} read-only`,
        decidedBy: 'ns',
      });
    });
    expect(join(dir, '..')).not.toBe(root);
  });
});
