// A command hook's `env` and `inheritEnv` at load: variables the dynamic loader or the C library
// read are refused (the hook is skipped, the path names the variable), in both isolation modes;
// hookwarden's own variables cannot be replaced; secret-looking names are dropped.
import { describe, expect, it } from 'vitest';
import type { SourceSpec } from '../../src/config/read-source.js';
import { LOADER_VARIABLES } from '../../src/contract/refused-env.js';
import { commandOf, hooksOn, input, tempDir, withExecutor, writeConfig } from '../helpers/fixture.js';
import { loadConfig } from '../helpers/load-config.js';

const load = async (hook: Record<string, unknown>, scope: SourceSpec['scope'] = 'project') => {
  const path = writeConfig(tempDir(), 'hooks.json', hooksOn('BeforeTool', [hook]));
  const spec: SourceSpec = { kind: 'file', path, scope: scope === 'policy' ? 'project' : scope };
  const r = await loadConfig(
    scope === 'policy' ? { config: [], policy: [spec] } : { config: [spec], policy: [] },
  );
  return { ...r, messages: r.diagnostics.map((d) => `${d.severity} ${d.path}: ${d.message}`) };
};

/** Every class the loader refuses: glibc's list, any LD_* / MALLOC_*, whatever the case. */
const REFUSED = [
  ...LOADER_VARIABLES,
  'LD_PRELOAD',
  'LD_LIBRARY_PATH',
  'LD_AUDIT',
  'LD_DEBUG',
  'LD_DEBUG_OUTPUT',
  'LD_PROFILE',
  'LD_ORIGIN_PATH',
  'LD_BIND_NOW',
  'LD_SHOW_AUXV',
  'LD_HWCAP_MASK',
  'LD_USE_LOAD_BIAS',
  'LD_AOUT_PRELOAD',
  'LD_SOMETHING_NEW',
  'ld_preload',
  'Ld_Library_Path',
  'MALLOC_CHECK_',
  'MALLOC_TRACE',
  'MALLOC_ARENA_MAX',
  'MALLOC_ARENA_TEST',
  'MALLOC_PERTURB_',
  'MALLOC_TOP_PAD_',
  'MALLOC_MMAP_THRESHOLD_',
  'GLIBC_TUNABLES',
  'glibc_tunables',
];

describe.each(['process', 'namespace'] as const)('loader variables (%s isolation)', (isolation) => {
  it.each(REFUSED)('env.%s skips the hook with an error naming the variable', async (name) => {
    const r = await load({ command: 'true', isolation, env: { OK: '1', [name]: './evil.so' } });
    expect(r.hooks).toEqual([]);
    expect(r.messages).toEqual([
      expect.stringMatching(
        new RegExp(
          `^error hooks\\.BeforeTool\\[0\\]\\.hooks\\[0\\]\\.env\\.${name}: "${name}" is read by the dynamic loader or the C library .* never passed to hooks; the hook is skipped, got "\\./evil\\.so"$`,
        ),
      ),
    ]);
  });

  it.each(REFUSED)('inheritEnv "%s" skips the hook too', async (name) => {
    const r = await load({ command: 'true', isolation, inheritEnv: ['EDITOR', name] });
    expect(r.hooks).toEqual([]);
    expect(r.messages).toEqual([
      expect.stringMatching(
        new RegExp(
          `^error hooks\\.BeforeTool\\[0\\]\\.hooks\\[0\\]\\.inheritEnv\\[1\\]: "${name}" is read by`,
        ),
      ),
    ]);
  });
});

describe('other env rules at load', () => {
  it('lets interpreter and shell start-up variables through: they reach only the hook’s own processes', async () => {
    const env = {
      BASH_ENV: './setup.sh',
      ENV: './setup.sh',
      SHELLOPTS: 'xtrace',
      PS4: '+ ',
      NODE_OPTIONS: '--max-old-space-size=64',
      PYTHONSTARTUP: './s.py',
      PERL5OPT: '-w',
      PATH: '/opt/tool/bin:/usr/bin:/bin',
      LANG: 'de_DE.UTF-8',
      TZ: 'Europe/Berlin',
    };
    const r = await load({ command: 'true', env });
    expect(r.messages).toEqual([]);
    expect({ ...commandOf(r.hooks[0]!)!.env }).toEqual(env);
  });

  it('ignores, with a warning, env and inheritEnv entries naming a variable hookwarden sets', async () => {
    // A user's own file (a project's inheritEnv needs the policy's grant: grants.test.ts).
    const r = await load(
      {
        command: 'true',
        env: { HOME: '/root', TMPDIR: '/var/tmp', HOOK_EVENT: 'Spoofed', HOOK_TOOL_NAME: 'x', KEEP: '1' },
        inheritEnv: ['HOME', 'EDITOR'],
      },
      'user',
    );
    expect({ ...commandOf(r.hooks[0]!)!.env }).toEqual({ KEEP: '1' });
    expect(commandOf(r.hooks[0]!)!.inheritEnv).toEqual(['EDITOR']);
    expect(r.messages).toEqual([
      'warning hooks.BeforeTool[0].hooks[0].env.HOME: "HOME" is set by hookwarden for every command hook; this value is ignored',
      'warning hooks.BeforeTool[0].hooks[0].env.TMPDIR: "TMPDIR" is set by hookwarden for every command hook; this value is ignored',
      'warning hooks.BeforeTool[0].hooks[0].env.HOOK_EVENT: "HOOK_EVENT" is set by hookwarden for every command hook; this value is ignored',
      'warning hooks.BeforeTool[0].hooks[0].env.HOOK_TOOL_NAME: "HOOK_TOOL_NAME" is set by hookwarden for every command hook; this value is ignored',
      'warning hooks.BeforeTool[0].hooks[0].inheritEnv[0]: "HOME" is set by hookwarden for every command hook and is not inherited',
    ]);
  });

  it('refuses a NUL byte in a value (it would split into more variables or bwrap arguments)', async () => {
    const r = await load({ command: 'true', env: { A: 'x\u0000LD_PRELOAD=./evil.so' } });
    expect(r.hooks).toEqual([]);
    expect(r.messages).toEqual([
      'error hooks.BeforeTool[0].hooks[0].env.A: an environment value cannot contain a NUL byte, got "x\\u0000LD_PRELOAD=./evil.so"',
    ]);
  });

  it('warns at load when an inherited variable’s current value carries a credential (never showing it)', async () => {
    process.env.HW_TEST_DATABASE_URL = 'postgres://app:hunter2@db.internal/app';
    try {
      const r = await load({ command: 'true', inheritEnv: ['HW_TEST_DATABASE_URL'] }, 'user');
      expect(r.messages).toEqual([
        'warning hooks.BeforeTool[0].hooks[0].inheritEnv[0]: the current value of "HW_TEST_DATABASE_URL" carries a credential (a URL with user:password@) and is not passed to hooks',
      ]);
      expect(r.messages.join()).not.toContain('hunter2');
    } finally {
      delete process.env.HW_TEST_DATABASE_URL;
    }
  });

  it('a policy hook refused for LD_PRELOAD is a policy failure: deny-capable events deny', async () => {
    const r = await load({ name: 'guard', command: 'true', env: { LD_PRELOAD: './evil.so' } }, 'policy');
    expect(r.policyFailures).toEqual([expect.stringContaining('env.LD_PRELOAD: "LD_PRELOAD" is read by')]);
    const policy = hooksOn('BeforeTool', [
      { name: 'guard', command: 'true', env: { LD_PRELOAD: './evil.so' } },
    ]);
    const result = await withExecutor({ policy, root: tempDir() }, (hw) =>
      hw.dispatch('BeforeTool', input({ toolName: 'Bash' })),
    );
    expect(result).toMatchObject({ decision: 'deny', reason: expect.stringContaining('env.LD_PRELOAD') });
    expect(result.hooks).toEqual([]);
  });
});
