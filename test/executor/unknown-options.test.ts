// Every public options object refuses keys it does not know, naming the key it was probably meant
// to be: `createExecutor({ polcy })` must not start an executor without its policy (a typo that
// fails open). Config files warn instead; an unknown limit in a policy file is a policy failure.
import { describe, expect, it } from 'vitest';
import { verifyChain } from '../../src/audit/index.js';
import { createExecutor, type HookwardenError, validateConfig } from '../../src/index.js';
import { lockPack, runFixtures, testPack, verifyPack } from '../../src/packs-entry.js';
import { resolveServeOptions } from '../../src/server/options.js';
import {
  hooksOn,
  input,
  printing,
  tempDir,
  withExecutor,
  writeConfig,
  writeFile,
} from '../helpers/fixture.js';

/** The invalid_options message a call rejects (or throws) with. */
async function refusal(call: () => unknown): Promise<string> {
  try {
    await call();
  } catch (err) {
    expect((err as HookwardenError).code).toBe('invalid_options');
    return (err as Error).message;
  }
  throw new Error('the call was not refused');
}

describe('unknown option keys are refused with the name they probably meant', () => {
  const dir = tempDir('hw-opts-');
  const policy = writeConfig(dir, 'policy.json', hooksOn('BeforeTool', [printing({ decision: 'deny' })]));

  it.each([
    [{ polcy: policy }, 'polcy: unknown option (did you mean "policy"?)'],
    [{ config: [{ path: policy, scop: 'user' }] }, 'config[0].scop: unknown option (did you mean "scope"?)'],
    [{ limits: { maxHookCall: 3 } }, 'limits.maxHookCall: unknown option (did you mean "maxHookCalls"?)'],
    [{ limits: { minIsolation: { usr: 'namespace' } } }, 'limits.minIsolation'],
    [{ audit: { file: `${dir}/a.jsonl`, fsyn: true } }, 'audit.fsyn: unknown option (did you mean "fsync"?)'],
    [{ queue: { concurency: 2 } }, 'queue.concurency: unknown option (did you mean "concurrency"?)'],
    [{ remotePacks: { cachedir: dir } }, 'remotePacks.cachedir: unknown option (did you mean "cacheDir"?)'],
    [{ xyzzy: 1 }, 'xyzzy: unknown option; the options are config, policy, root'],
  ])('createExecutor(%j)', async (options, message) => {
    expect(await refusal(() => createExecutor({ root: dir, ...(options as object) }))).toContain(message);
    const key = Object.keys(options)[0]!;
    if (key !== 'audit' && key !== 'queue')
      expect(await refusal(() => validateConfig({ root: dir, ...(options as object) }))).toContain(message);
  });

  it('dispatch, register, setTenant and close check theirs', async () => {
    await withExecutor({ policy: [policy], root: dir }, async (hw) => {
      const bash = input({ toolName: 'Bash' });
      expect(await refusal(() => hw.dispatch('BeforeTool', bash, { tenat: 'acme' } as never))).toBe(
        'dispatch options.tenat: unknown option (did you mean "tenant"?)',
      );
      expect(await refusal(() => hw.dispatch('BeforeTool', bash, 'acme' as never))).toMatch(
        /^dispatch options: expected an object/,
      );
      expect(
        await refusal(() =>
          hw.register({ event: 'BeforeTool', name: 't', handler: () => undefined, matchr: 'Bash' } as never),
        ),
      ).toBe('register.matchr: unknown option (did you mean "matcher"?)');
      expect(await refusal(() => hw.setTenant('acme', { confg: policy } as never))).toBe(
        'setTenant.confg: unknown option (did you mean "config"?)',
      );
      expect(await refusal(() => hw.setTenant('acme', { limits: { maxQueud: 1 } } as never))).toBe(
        'setTenant: limits.maxQueud: unknown option (did you mean "maxQueued"?)',
      );
      expect(await refusal(() => hw.close({ drain: 10 } as never))).toBe(
        'close options.drain: unknown option (did you mean "drainMs"?)',
      );
      // Nothing above changed the executor: it still denies with its policy.
      expect((await hw.dispatch('BeforeTool', bash)).decision).toBe('deny');
    });
  });

  it('serve and the pack and audit tools check theirs', async () => {
    expect(() =>
      resolveServeOptions({ executor: {}, listen: '127.0.0.1:0', drainTimeotMs: 5 } as never),
    ).toThrow('drainTimeotMs: unknown option (did you mean "drainTimeoutMs"?)');
    expect(() =>
      resolveServeOptions({ executor: { polcy: policy }, listen: '127.0.0.1:0' } as never),
    ).toThrow('executor.polcy: unknown option (did you mean "policy"?)');
    expect(() =>
      resolveServeOptions({ executor: { onWarning: () => {} }, listen: '127.0.0.1:0' } as never),
    ).toThrow(/executor\.onWarning: set by the server/);
    const pack = tempDir('hw-opts-pack-');
    writeFile(`${pack}/hookpack.json`, JSON.stringify({ name: 'p', version: '1.0.0', hooks: {} }));
    expect(await refusal(() => verifyPack(pack, { digst: 'x' } as never))).toContain('verifyPack.digst');
    expect(await refusal(() => lockPack(pack, { requireTest: true } as never))).toContain(
      'did you mean "requireTests"',
    );
    expect(await refusal(() => testPack(pack, { rooot: pack } as never))).toContain('testPack.rooot');
    expect(
      await refusal(() => runFixtures({ executor: { polcy: policy }, fixtures: [] } as never)),
    ).toContain('polcy: unknown option (did you mean "policy"?)');
    expect(
      await refusal(() => runFixtures({ executor: {}, fixtures: [], onResults: () => {} } as never)),
    ).toContain('runFixtures.onResults');
    expect(await refusal(() => verifyChain('', { keys: 'x' } as never))).toContain(
      'verifyChain.keys: unknown option (did you mean "key"?)',
    );
  });
});

describe('an unknown limit in a config file', () => {
  it('is a policy failure in a policy file, and a warning with the likely key elsewhere', async () => {
    const dir = tempDir('hw-opts-');
    const file = writeConfig(dir, 'x.json', {
      limits: { minIsolaton: 'namespace' },
      ...hooksOn('BeforeTool', [printing({ decision: 'allow' })]),
    });
    const asPolicy = await withExecutor({ policy: [file], root: dir }, (hw) =>
      hw.dispatch('BeforeTool', input({ toolName: 'Bash' })),
    );
    expect(asPolicy).toMatchObject({ decision: 'deny', decidedBy: 'policy' });
    expect(asPolicy.reason).toContain(
      'limits.minIsolaton: unknown limit ignored (did you mean "minIsolation"?)',
    );
    await withExecutor({ config: [file], root: dir }, async (hw, warnings) => {
      expect((await hw.dispatch('BeforeTool', input({ toolName: 'Bash' }))).decision).toBe('allow');
      expect(warnings).toEqual([
        expect.stringMatching(
          /^limits\.minIsolaton: unknown limit ignored \(did you mean "minIsolation"\?\)/,
        ),
      ]);
    });
  });
});
