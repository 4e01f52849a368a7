// `hookwarden test` and `pack test` run what dispatch runs: one loader (src/executor/load-options.ts)
// for createExecutor, reload, validate, the fixture runner and the benchmark; the configuration is
// loaded once per run; every hook type dispatch admits is loaded and covered; a fixture may expect
// any verdict a dispatch returns (`defer` included), from the one list in src/contract/decisions.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VERDICTS } from '../../src/contract/decisions.js';
import { fixtureExpectSchema } from '../../src/packs/fixture-schema.js';
import { lockPack } from '../../src/packs/lock-pack.js';
import { bundlePack } from '../../src/packs/remote/bundle-pack.js';
import { signPack } from '../../src/packs/sign-pack.js';
import { runFixtures } from '../../src/packs-entry.js';
import { BundleServer } from '../helpers/bundle-server.js';
import { runCli } from '../helpers/cli.js';
import { hooksOn, printing, tempDir, writeConfig } from '../helpers/fixture.js';
import { json, startHookServer } from '../helpers/hook-server.js';
import { keyPair, script, writePack } from '../helpers/pack.js';

const bashFixture = (expect: Record<string, unknown>, name = 'bash') => ({
  name,
  event: 'PreToolUse',
  input: { tool_name: 'Bash', tool_input: { command: 'ls' } },
  expect,
});

describe('fixtures run what dispatch runs', () => {
  it('an http hook admitted by --allow-http-url runs, and coverage lists it', async () => {
    const server = await startHookServer((_req, res) =>
      json(res, { decision: 'deny', reason: 'http says no' }),
    );
    const dir = tempDir('hw-fx-');
    const config = writeConfig(
      dir,
      'hooks.json',
      hooksOn('PreToolUse', [{ type: 'http', name: 'remote-guard', url: `${server.origin}/check` }]),
    );
    const fixtures = writeConfig(dir, 'f.json', [
      bashFixture({ decision: 'deny', reasonMatches: 'http says no' }),
    ]);
    const r = await runCli(['test', config, fixtures, '--allow-http-url', `${server.origin}/*`]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('coverage: 1 of 1 hook reached');
    expect(r.stdout).toContain('BeforeTool remote-guard (http, project): 1 fixture; deny 1');
    expect(server.requests).toHaveLength(1);
  });

  it("pack test --allow-http-url admits a pack's http hook as dispatch does", async () => {
    const server = await startHookServer((_req, res) =>
      json(res, { decision: 'deny', reason: 'http says no' }),
    );
    const pack = writePack({
      hooks: {
        BeforeTool: [{ hooks: [{ type: 'http', name: 'remote-guard', url: `${server.origin}/check` }] }],
      },
      files: {
        'tests/bash.json': JSON.stringify(bashFixture({ decision: 'deny', reasonMatches: 'http says no' })),
      },
    });
    const r = await runCli(['pack', 'test', pack, '--allow-http-url', `${server.origin}/*`]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('BeforeTool remote-guard (http, policy): 1 fixture; deny 1');
  });

  it('a fixture can expect every verdict, defer included', async () => {
    expect(fixtureExpectSchema.shape.decision.options).toEqual([...VERDICTS]);
    const dir = tempDir('hw-fx-');
    const config = writeConfig(dir, 'hooks.json', {
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              printing({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'defer' } }),
            ],
          },
        ],
      },
    });
    const report = await runFixtures({
      executor: { config: [config], root: dir },
      fixtures: [{ ...bashFixture({ decision: 'defer' }), file: 'inline', at: '' }] as never,
    });
    expect(report.results.map((x) => [x.status, x.actual])).toEqual([['pass', 'defer']]);
  });

  it('loads the configuration once: a url-pinned pack is fetched once per run', async () => {
    const keys = await keyPair();
    const pack = writePack({
      hooks: { BeforeTool: [{ matcher: 'Bash', hooks: [{ name: 'guard', command: './check.sh' }] }] },
      files: { 'check.sh': script({ decision: 'deny', reason: 'pack says no' }) },
    });
    await lockPack(pack);
    await signPack(pack, readFileSync(keys.key));
    const out = join(tempDir('hw-fx-bundle-'), 'guard.tar.gz');
    await bundlePack(pack, out);
    const server = new BundleServer();
    await server.start();
    server.routes.set('/guard.tar.gz', { body: readFileSync(out) });
    const dir = tempDir('hw-fx-');
    const policy = writeConfig(dir, 'policy.json', {
      packs: [{ url: server.url('/guard.tar.gz'), name: 'guard', publicKeys: [keys.pub] }],
    });
    const report = await runFixtures({
      executor: { policy: [policy], root: dir, remotePacks: { cacheDir: join(dir, 'cache') } },
      fixtures: [
        { ...bashFixture({ decision: 'deny', reasonMatches: 'pack says no' }), file: 'inline', at: '' },
      ] as never,
    });
    expect(report.passed).toBe(1);
    expect(server.requests.map((s) => s.path)).toEqual(['/guard.tar.gz']);
  });
});
