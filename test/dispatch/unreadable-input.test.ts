// Trust invariant 4 for the library: an input no JSON can hold, or options of the wrong kind, are
// the caller's bad input: dispatch() rejects with invalid_input / invalid_options, naming what is
// wrong, never with a TypeError or DataCloneError from deep inside the dispatch. Each case was a
// counterexample of the invariant-4 property (test/properties/bad-input.test.ts).
import { describe, expect, it } from 'vitest';
import { hooksOn, input, tempDir, withExecutor, writeConfig } from '../helpers/fixture.js';

class Refusing {
  toJSON(): never {
    throw new Error('no');
  }
}

const inputs: [string, () => unknown, RegExp][] = [
  [
    'a getter that throws',
    () =>
      input({
        toolName: 'Bash',
        toolInput: {
          get command() {
            throw new Error('no');
          },
        },
      }),
    /cannot be read as JSON \(reading it threw Error: no\)/,
  ],
  ['a BigInt', () => input({ toolName: 'Bash', toolInput: { n: 10n } }), /a bigint is not JSON/],
  ['a function', () => input({ toolName: 'Bash', toolResult: { 0: () => 1 } }), /a function is not JSON/],
  ['a symbol', () => input({ toolName: 'Bash', toolInput: { s: Symbol('s') } }), /a symbol is not JSON/],
  [
    'a Proxy',
    () => input({ toolName: 'Bash', toolInput: new Proxy({ command: 'ls' }, {}) }),
    /a Proxy is not JSON/,
  ],
  ['a Proxy as the input', () => new Proxy(input({ toolName: 'Bash' }), {}), /a Proxy is not JSON/],
  // Found by the fuzz tier (seed 20261202): a Promise as toolResult reached a trusted hook's
  // structuredClone and rejected with a DataCloneError. Every value the clone refuses, at any depth.
  [
    'a Promise',
    () => input({ toolName: 'Bash', toolResult: Promise.resolve(1) }),
    /cannot be read as JSON \(reading it threw DataCloneError/,
  ],
  [
    'a WeakMap',
    () => input({ toolName: 'Bash', toolInput: { m: [new WeakMap()] } }),
    /reading it threw DataCloneError/,
  ],
  [
    'an iterator',
    () => input({ toolName: 'Bash', toolInput: { it: [1].values() } }),
    /reading it threw DataCloneError/,
  ],
  [
    'a toJSON() that throws',
    () => input({ toolName: 'Bash', toolInput: { command: new Refusing() } }),
    /cannot be written as JSON \(Error: no\)/,
  ],
];

describe('an input no JSON can hold', () => {
  it.each(inputs)('%s is invalid_input, with every hook type configured', async (_, make, message) => {
    const dir = tempDir('hw-unreadable-');
    const config = writeConfig(dir, 'hooks.json', {
      ...hooksOn('BeforeTool', [{ type: 'js', name: 'js', code: 'export default () => undefined' }]),
    });
    await withExecutor({ config: [config], root: dir }, async (hw) => {
      hw.register({ event: 'BeforeTool', name: 'platform', handler: () => undefined });
      await expect(hw.dispatch('BeforeTool', make() as never)).rejects.toMatchObject({
        name: 'HookwardenError',
        code: 'invalid_input',
        message: expect.stringMatching(message),
      });
    });
  });

  it('undefined values are left out, as JSON leaves them out', async () => {
    await withExecutor({ root: tempDir('hw-unreadable-') }, async (hw) => {
      let seen: unknown;
      hw.register({
        event: 'BeforeTool',
        name: 'platform',
        handler: (i) => {
          seen = i.toolInput;
          return undefined;
        },
      });
      const r = await hw.dispatch(
        'BeforeTool',
        input({ toolName: 'Bash', toolInput: { command: 'ls', cwd: undefined } }),
      );
      expect(r.decision).toBe('passthrough');
      expect(seen).toEqual({ command: 'ls' });
    });
  });
});

describe('dispatch options of the wrong kind', () => {
  it.each([
    ['null', null, /expected an object like \{ tenant, signal \}, got null/],
    ['a signal that is not an AbortSignal', { signal: 'no' }, /signal: expected an AbortSignal, got "no"/],
    [
      'an onHookTiming that is not a function',
      { onHookTiming: 1 },
      /onHookTiming: expected a function, got 1/,
    ],
  ])('%s: invalid_options', async (_, options, message) => {
    await withExecutor({ root: tempDir('hw-unreadable-') }, async (hw) => {
      hw.register({ event: 'SessionStart', name: 'platform', handler: () => undefined });
      await expect(hw.dispatch('SessionStart', input(), options as never)).rejects.toMatchObject({
        code: 'invalid_options',
        message: expect.stringMatching(message),
      });
    });
  });

  it('a tenant id that is not a string: invalid_input, before the rate limiter sees it', async () => {
    await withExecutor({ root: tempDir('hw-unreadable-'), limits: { tenantRatePerSec: 5 } }, async (hw) => {
      await expect(
        hw.dispatch('SessionStart', input(), { tenant: { id: 1 } as never }),
      ).rejects.toMatchObject({
        code: 'invalid_input',
        message: expect.stringMatching(/^tenant: expected a tenant id/),
      });
    });
  });
});
