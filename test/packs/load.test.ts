import { readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/index.js';
import { packDigest } from '../../src/packs/digest.js';
import { lockOf, writeLockFile } from '../../src/packs/lock.js';
import { lockPack } from '../../src/packs/lock-pack.js';
import { signPack } from '../../src/packs/sign-pack.js';
import { walkPack } from '../../src/packs/walk.js';
import {
  commandOf,
  hooksOn,
  input,
  printing,
  tempDir,
  withExecutor,
  writeConfig,
  writeFile,
} from '../helpers/fixture.js';
import { loadConfig } from '../helpers/load-config.js';
import { keyPair, script, writePack } from '../helpers/pack.js';

const readPem = (f: string) => readFileSync(f, 'utf8');

/** A config dir with a pack at packs/guard whose BeforeTool hook denies with HOOK_PACK_DIR as reason. */
async function setup(extraPackHooks: Record<string, unknown> = {}) {
  const base = tempDir('hw-packload-');
  const dir = writePack(
    {
      hooks: {
        BeforeTool: [{ matcher: 'Bash', hooks: [{ name: 'guard', command: './check.sh' }] }],
        SessionStart: [{ hooks: [{ name: 'hello', type: 'js', source: 'hooks/hello.js' }] }],
        ...extraPackHooks,
      },
      files: {
        'check.sh': '#!/bin/sh\nprintf \'{"decision":"deny","reason":"%s"}\' "$HOOK_PACK_DIR"\n',
        'hooks/hello.js': "export default () => ({ additionalContext: 'hello from the pack' });\n",
      },
    },
    join(base, 'packs', 'guard'),
  );
  const { digest } = await lockPack(dir);
  return { base, dir, digest };
}

/** Locks without the authoring checks, so a load-time refusal can be tested. */
async function forceLock(dir: string): Promise<string> {
  const lock = lockOf(await walkPack(dir));
  await writeLockFile(dir, lock);
  return lock.digest;
}

const bash = input({ toolName: 'Bash', toolInput: { command: 'ls' } });

describe('a pinned pack', () => {
  it('runs its hooks at the pin’s scope; ./check.sh is the pack’s file and HOOK_PACK_DIR names the pack', async () => {
    const { base, dir, digest } = await setup();
    const cfg = writeConfig(base, 'policy.json', {
      packs: [{ path: 'packs/guard', digest, scope: 'policy' }],
    });
    await withExecutor({ policy: cfg, root: tempDir() }, async (hw, warnings) => {
      expect(warnings).toEqual([]);
      const r = await hw.dispatch('BeforeTool', bash);
      expect(r).toMatchObject({ decision: 'deny', reason: realpathSync(dir), decidedBy: 'guard' });
      expect(r.hooks).toMatchObject([{ id: 'guard', type: 'command', scope: 'policy', outcome: 'deny' }]);
      const s = await hw.dispatch('SessionStart', input());
      expect(s.additionalContext).toBe('hello from the pack');
    });
  });

  it('is user scope by default in a config file, and policy scope in a policy file', async () => {
    const { base, digest } = await setup();
    const pin = { path: 'packs/guard', digest };
    const r = await loadConfig({
      config: [{ kind: 'file', path: writeConfig(base, 'user.json', { packs: [pin] }), scope: 'project' }],
      policy: [
        {
          kind: 'file',
          path: writeConfig(base, 'policy.json', { packs: [{ ...pin, scope: 'user' }] }),
          scope: 'policy',
        },
      ],
    });
    expect(r.packs.map((p) => [p.scope, p.name, p.version, p.digest, p.refusal])).toEqual([
      ['policy', 'guard', '1.0.0', digest, undefined],
      ['user', 'guard', '1.0.0', digest, undefined],
    ]);
    expect(r.diagnostics.map((d) => `${d.path}: ${d.message}`)).toEqual([
      'packs[0].scope: every pack of a policy file is policy scope; "user" is ignored',
      'hooks.BeforeTool[0].hooks[0]: hook "guard" clashes with a policy hook of the same event and name; policy hooks cannot be replaced, so this one is dropped',
      'hooks.SessionStart[0].hooks[0]: hook "hello" clashes with a policy hook of the same event and name; policy hooks cannot be replaced, so this one is dropped',
    ]);
    // The same hook twice: the policy copy runs first and the user copy of the same name is dropped.
    expect(r.hooks.filter((h) => h.event === 'BeforeTool').map((h) => h.scope)).toEqual(['policy']);
  });

  it('accepts a signature by any listed key (paths relative to the config file)', async () => {
    const { base, dir } = await setup();
    const oldKey = await keyPair('old');
    const newKey = await keyPair('new');
    await signPack(dir, readPem(newKey.key));
    writeFile(join(base, 'keys/old.pub'), readPem(oldKey.pub));
    writeFile(join(base, 'keys/new.pub'), readPem(newKey.pub));
    const cfg = writeConfig(base, 'hooks.json', {
      packs: [{ path: 'packs/guard', publicKeys: ['keys/old.pub', 'keys/new.pub'], scope: 'policy' }],
    });
    const r = await loadConfig({ config: [], policy: [{ kind: 'file', path: cfg, scope: 'policy' }] });
    expect([r.packs[0]!.refusal, r.packs[0]!.verifiedBy, r.policyFailures]).toEqual([
      undefined,
      newKey.keyId,
      [],
    ]);
    const only = writeConfig(base, 'only-old.json', {
      packs: [{ path: 'packs/guard', publicKeys: ['keys/old.pub'], scope: 'policy' }],
    });
    const refused = await loadConfig({
      config: [],
      policy: [{ kind: 'file', path: only, scope: 'policy' }],
    });
    expect(refused.policyFailures[0]).toMatch(/no signature verifies with a trusted key/);
  });

  it('without digest or keys still has to match its own lock, and warns that it is unpinned', async () => {
    const { base, dir } = await setup();
    const cfg = writeConfig(base, 'hooks.json', { packs: [{ path: 'packs/guard' }] });
    const ok = await loadConfig({ config: [{ kind: 'file', path: cfg, scope: 'project' }], policy: [] });
    expect(ok.diagnostics.map((d) => d.message)).toEqual([
      `pack ${dir} is not pinned: only its own lock file is checked; add "digest" and/or "publicKeys"`,
    ]);
    expect(ok.hooks).toHaveLength(2);
    writeFile(join(dir, 'check.sh'), 'exit 0');
    const bad = await loadConfig({ config: [{ kind: 'file', path: cfg, scope: 'project' }], policy: [] });
    expect(bad.hooks).toHaveLength(0);
  });
});

describe('a pin mismatch', () => {
  it('in policy scope: deny-capable events deny (decidedBy "policy", naming the pack and the file); SessionStart still runs', async () => {
    const { base, dir, digest } = await setup();
    writeFileSync(join(dir, 'check.sh'), script({}));
    const cfg = writeConfig(base, 'hooks.json', {
      packs: [{ path: 'packs/guard', digest, scope: 'policy' }],
      ...hooksOn('SessionStart', [printing({ additionalContext: 'session hook still runs' })]),
    });
    await withExecutor({ policy: cfg }, async (hw, warnings) => {
      expect(warnings.join('\n')).toContain(
        'packs[0]: pack "packs/guard" refused, so deny-capable events deny: changed since the lock: check.sh',
      );
      const r = await hw.dispatch('BeforeTool', bash);
      expect(r).toMatchObject({ decision: 'deny', decidedBy: 'policy', hooks: [] });
      expect(r.reason).toContain(
        `policy pack "packs/guard" (${cfg}) refused: changed since the lock: check.sh`,
      );
      expect(r.reason).toMatch(/digest sha256:\w+ does not match the pinned sha256:/);
      const s = await hw.dispatch('SessionStart', input());
      expect([s.decision, s.additionalContext]).toEqual(['passthrough', 'session hook still runs']);
    });
  });

  it('whose hook sets LD_PRELOAD to a library it ships cannot be locked, and is refused if locked anyway: deny-capable events deny', async () => {
    const base = tempDir('hw-packload-');
    const dir = writePack(
      {
        hooks: {
          BeforeTool: [{ hooks: [{ name: 'preload', command: 'true', env: { LD_PRELOAD: './evil.so' } }] }],
        },
        files: { 'evil.so': 'a library whose constructor runs in whatever loads it' },
      },
      join(base, 'packs', 'guard'),
    );
    await expect(lockPack(dir)).rejects.toThrow(
      /env\.LD_PRELOAD: "LD_PRELOAD" is read by the dynamic loader/,
    );
    const digest = await forceLock(dir);
    const cfg = writeConfig(base, 'hooks.json', {
      packs: [{ path: 'packs/guard', digest, scope: 'policy' }],
    });
    await withExecutor({ policy: cfg }, async (hw, warnings) => {
      expect(warnings.join('\n')).toMatch(
        /packs\[0\]: pack "packs\/guard" refused, so deny-capable events deny: .*env\.LD_PRELOAD: "LD_PRELOAD" is read by/,
      );
      const r = await hw.dispatch('BeforeTool', bash);
      expect(r).toMatchObject({ decision: 'deny', decidedBy: 'policy', hooks: [] });
    });
  });

  it('in user scope: a warning, the pack’s hooks are skipped and the rest runs', async () => {
    const { base, dir, digest } = await setup();
    writeFile(join(dir, 'extra.sh'), 'echo');
    const cfg = writeConfig(base, 'hooks.json', {
      packs: [{ path: 'packs/guard', digest }],
      ...hooksOn('BeforeTool', [printing({ decision: 'allow' })]),
    });
    await withExecutor({ config: cfg }, async (hw, warnings) => {
      const now = packDigest((await walkPack(dir)).files);
      expect(warnings).toEqual([
        `packs[0]: pack "packs/guard" refused, its hooks do not run: added (not in the lock): extra.sh; digest ${now} does not match the pinned ${digest}`,
      ]);
      const r = await hw.dispatch('BeforeTool', bash);
      expect(r.decision).toBe('allow');
      expect(r.hooks.map((h) => h.scope)).toEqual(['project']);
      expect((await hw.dispatch('SessionStart', input())).decision).toBe('passthrough');
    });
  });

  it('is an error for validate in both scopes', async () => {
    const { base, dir, digest } = await setup();
    writeFileSync(join(dir, 'check.sh'), script({}));
    for (const scope of ['user', 'policy'] as const) {
      const cfg = writeConfig(base, `${scope}.json`, { packs: [{ path: 'packs/guard', digest, scope }] });
      const r = await validateConfig(scope === 'policy' ? { policy: cfg } : { config: cfg });
      expect(r.errorCount, scope).toBe(1);
      expect(r.diagnostics[0]).toMatchObject({ severity: 'error', path: 'packs[0]', skipped: true });
      expect(r.diagnostics[0]!.message).toContain('changed since the lock: check.sh');
      expect(r.packs[0]).toMatchObject({ scope, refusal: expect.stringContaining('check.sh') });
    }
  });
});

describe('paths in a pack never reach outside it', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['a ../ program', { command: '../outside.sh' }, 'command: path leaves the pack directory'],
    ['a ../ argument', { argv: ['/bin/cat', '../../secret'] }, 'argv[1]: path leaves the pack directory'],
    [
      'a --opt=../ argument',
      { argv: ['/bin/cat', '--file=../x'] },
      'argv[1]: path leaves the pack directory',
    ],
    [
      'an absolute path into the pack’s parent',
      { argv: ['@PARENT@/other/x.sh'] },
      "argv[0]: absolute path into the pack's parent directory",
    ],
    [
      'a later ./ word of a shell command',
      { command: 'true && ./check.sh' },
      'command: in a shell command only the first word may be a ./ path',
    ],
    [
      '$HOOK_PACK_DIR/..',
      { command: 'sh "$HOOK_PACK_DIR/../x.sh"' },
      'command: path leaves the pack directory',
    ],
    [
      'a program that is not a file of the pack',
      { command: './missing.sh' },
      'command: not a file of the pack (missing.sh)',
    ],
    ['a ../ JS source', { type: 'js', source: '../x.js' }, 'source: source paths may not contain ".."'],
    [
      'an absolute JS source',
      { type: 'js', source: '/etc/hostname' },
      'source: absolute source paths are refused',
    ],
  ];
  it.each(cases)('refuses %s at load, with the JSON path', async (_, hook, message) => {
    const base = tempDir('hw-escape-');
    writeFile(join(base, 'x.sh'), 'echo outside', 0o755);
    const dir = join(base, 'packs', 'guard');
    const spec = JSON.parse(JSON.stringify(hook).replace('@PARENT@', join(base, 'packs')));
    writePack({ hooks: { BeforeTool: [{ hooks: [spec] }] }, files: { 'check.sh': script({}) } }, dir);
    const digest = await forceLock(dir);
    const cfg = writeConfig(base, 'policy.json', { packs: [{ path: 'packs/guard', digest }] });
    const r = await loadConfig({ config: [], policy: [{ kind: 'file', path: cfg, scope: 'policy' }] });
    expect(r.hooks).toEqual([]);
    expect(r.policyFailures).toHaveLength(1);
    expect(r.policyFailures[0]).toContain(`hookpack.json: hooks.BeforeTool[0].hooks[0].${message}`);
  });

  it('refuses a symlink in the pack even when the lock was written before it appeared', async () => {
    const { base, dir, digest } = await setup();
    symlinkSync('/etc/hostname', join(dir, 'hostname'));
    const cfg = writeConfig(base, 'policy.json', { packs: [{ path: 'packs/guard', digest }] });
    const r = await loadConfig({ config: [], policy: [{ kind: 'file', path: cfg, scope: 'policy' }] });
    expect(r.policyFailures[0]).toContain('hostname is a symlink; symlinks are refused in a pack');
  });

  it('resolves ./ programs and ./ argv words to the pack, and leaves system binaries alone', async () => {
    const base = tempDir('hw-paths-');
    const dir = writePack(
      {
        hooks: {
          BeforeTool: [
            {
              hooks: [
                { name: 'a', argv: ['./bin/run.sh', './data.json', '--conf=./c.json', 'plain'] },
                { name: 'b', command: 'LANG=C ./bin/run.sh "$HOOK_PACK_DIR/data.json" 2>/dev/null' },
                { name: 'c', command: 'jq', args: ['-f', './filter.jq'] },
                { name: 'd', command: '/usr/bin/env true' },
              ],
            },
          ],
        },
        files: { 'bin/run.sh': script({}), 'data.json': '{}', 'c.json': '{}', 'filter.jq': '.' },
      },
      join(base, 'packs', 'guard'),
    );
    const digest = (await lockPack(dir)).digest;
    const cfg = writeConfig(base, 'hooks.json', { packs: [{ path: 'packs/guard', digest }] });
    const r = await loadConfig({ config: [{ kind: 'file', path: cfg, scope: 'project' }], policy: [] });
    const real = realpathSync(dir);
    expect(r.hooks.map((h) => commandOf(h)!.program)).toEqual([
      { kind: 'argv', argv: [`${real}/bin/run.sh`, `${real}/data.json`, `--conf=${real}/c.json`, 'plain'] },
      { kind: 'shell', command: `LANG=C '${real}/bin/run.sh' "$HOOK_PACK_DIR/data.json" 2>/dev/null` },
      { kind: 'argv', argv: ['jq', '-f', `${real}/filter.jq`] },
      { kind: 'shell', command: '/usr/bin/env true' },
    ]);
  });
});

describe('a pack changed on disk after it was loaded', () => {
  it.each([
    ['policy', 'deny'],
    ['user', 'passthrough'],
  ] as const)('in %s scope: its command hook is not run (pack_tampered) → %s', async (scope, decision) => {
    const { base, dir, digest } = await setup();
    const cfg = writeConfig(base, 'hooks.json', { packs: [{ path: 'packs/guard', digest, scope }] });
    await withExecutor(scope === 'policy' ? { policy: cfg } : { config: cfg }, async (hw) => {
      expect((await hw.dispatch('BeforeTool', bash)).decision).toBe('deny'); // the pack's own verdict
      writeFileSync(join(dir, 'check.sh'), script({ decision: 'allow' }));
      const r = await hw.dispatch('BeforeTool', bash);
      expect(r.decision).toBe(decision);
      expect(r.hooks).toMatchObject([
        {
          id: 'guard',
          outcome: 'not-run',
          error: { code: 'pack_tampered', message: expect.stringContaining('(check.sh)') },
        },
      ]);
    });
  });

  it('a file added next to the pack’s script counts as a change', async () => {
    const { base, dir, digest } = await setup();
    const cfg = writeConfig(base, 'hooks.json', {
      packs: [{ path: 'packs/guard', digest, scope: 'policy' }],
    });
    await withExecutor({ policy: cfg }, async (hw) => {
      writeFile(join(dir, 'json.py'), 'shadowing a module');
      const r = await hw.dispatch('BeforeTool', bash);
      expect(r.hooks[0]!.error).toMatchObject({
        code: 'pack_tampered',
        message: expect.stringContaining('(./)'),
      });
      // Re-locking or re-signing the pack is not a change of its content.
      rmSync(join(dir, 'json.py'));
      await lockPack(dir);
      expect((await hw.dispatch('BeforeTool', bash)).hooks[0]!.outcome).toBe('deny');
    });
  });
});

describe('two packs', () => {
  it('whose commands read the same text both run (each with its own HOOK_PACK_DIR)', async () => {
    const base = tempDir('hw-two-');
    const pins = [];
    for (const name of ['one', 'two']) {
      const dir = writePack(
        {
          name,
          hooks: { SessionStart: [{ hooks: [{ command: 'sh "$HOOK_PACK_DIR/ctx.sh"' }] }] },
          files: { 'ctx.sh': `echo '{"additionalContext":"${name}"}'\n` },
        },
        join(base, name),
      );
      pins.push({ path: name, digest: (await lockPack(dir)).digest });
    }
    const cfg = writeConfig(base, 'hooks.json', { packs: pins });
    await withExecutor({ config: cfg }, async (hw) => {
      expect((await hw.dispatch('SessionStart', input())).additionalContext).toBe('one\ntwo');
    });
  });
});

describe('invalid pins', () => {
  it('name the JSON path and the value, and refuse the pack', async () => {
    const base = tempDir('hw-pins-');
    const cfg = writeConfig(base, 'hooks.json', {
      packs: [
        { path: 'p', publicKey: ['k.pub'] },
        { path: 'p', digest: 'abc' },
        { path: 'p', requireSignature: true },
        { path: 'p', publicKeys: ['missing.pub'], scope: 'policy' },
        'p',
        { path: 'p', scope: 'Policy' },
      ],
    });
    const r = await loadConfig({ config: [{ kind: 'file', path: cfg, scope: 'project' }], policy: [] });
    const errors = r.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.path}: ${d.message}`);
    expect(errors).toEqual([
      'packs[0].publicKey: unknown field "publicKey" (did you mean "publicKeys"?) (a pin has path, url, pollSeconds, digest, publicKeys, requireSignature, name, minVersion, scope), got ["k.pub"]',
      'packs[1].digest: expected "sha256:<64 hex>" (as printed by `hookwarden pack lock`), got "abc"',
      'packs[2].requireSignature: requireSignature needs publicKeys to check the signature with, got true',
      'packs[3].scope: only a policy file (--policy, or the library\'s `policy` option) may pin a pack at policy scope; this pin is skipped, got "policy"',
      `packs[3].publicKeys[0]: cannot read the key file ${join(base, 'missing.pub')} (ENOENT), got "missing.pub"`,
      'packs[4]: expected a pack pin like {"path": "packs/guard", "digest": "sha256:…"}, got "p"',
      'packs[5].scope: expected "policy" or "user", got "Policy"',
      'packs[5].scope: only a policy file (--policy, or the library\'s `policy` option) may pin a pack at policy scope; this pin is skipped, got "Policy"',
    ]);
    // A project file cannot promote a pack to policy scope, whatever it writes: every pin here is
    // a user-scope pin, refused with a warning.
    expect(r.policyFailures).toEqual([]);
    expect(r.packs.map((p) => [p.scope, p.refusal !== undefined])).toEqual([
      ['user', true],
      ['user', true],
      ['user', true],
      ['user', true],
      ['user', true],
      ['user', true],
    ]);
  });
});
