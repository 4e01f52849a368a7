// A dispatch's `env` option: the environment hooks inherit from is the caller's (a daemon answering
// The files are the user's own (a project's inheritEnv and allowedEnvVars need the policy's grant).
// for another process), never this process's, and it goes through the same filters.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { tempDir, withExecutor, writeConfig } from '../helpers/fixture.js';

const PRINT_ENV =
  'printf \'{"additionalContext": "%s|%s|%s|%s"}\' "$HW_CALLER_COLOR" "$HW_CALLER_TOKEN" "$HOME" "$USER"';

describe('the environment a dispatch passes to its hooks', () => {
  it('is the caller’s: inheritEnv, the host variables of a Claude Code hook and HOME come from `env`, through the secret filters', async () => {
    const dir = tempDir();
    process.env.HW_CALLER_COLOR = 'from-this-process';
    const config = writeConfig(dir, 'settings.json', {
      dialect: 'claude-code',
      hooks: {
        SessionStart: [
          {
            hooks: [
              { type: 'command', command: PRINT_ENV, inheritEnv: ['HW_CALLER_COLOR', 'HW_CALLER_TOKEN'] },
            ],
          },
        ],
      },
    });
    await withExecutor({ config: [{ path: config, scope: 'user' }], root: dir }, async (ex) => {
      const env = { HW_CALLER_COLOR: 'blue', HW_CALLER_TOKEN: 'x', HOME: '/home/caller', USER: 'caller' };
      const r = await ex.dispatch('SessionStart', { sessionId: 's' }, { env });
      // A secret-looking name never passes, whoever's environment it is.
      expect(r.additionalContext).toBe('blue||/home/caller|caller');
      const own = await ex.dispatch('SessionStart', { sessionId: 's' });
      expect(own.additionalContext).toMatch(/^from-this-process\|\|/);
    });
    delete process.env.HW_CALLER_COLOR;
  });

  it('fills an http hook’s header variables from `env`', async () => {
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(String(req.headers['x-color']));
      req.resume();
      req.on('end', () => res.end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    const dir = tempDir();
    const config = writeConfig(dir, 'settings.json', {
      dialect: 'claude-code',
      hooks: {
        Stop: [
          {
            hooks: [{ type: 'http', url, headers: { 'x-color': '$HW_COLOR' }, allowedEnvVars: ['HW_COLOR'] }],
          },
        ],
      },
    });
    try {
      await withExecutor(
        { config: [{ path: config, scope: 'user' }], root: dir, allowedHttpHookUrls: [url] },
        async (ex) => {
          await ex.dispatch('Stop', { sessionId: 's' }, { env: { HW_COLOR: 'green' } });
          await ex.dispatch('Stop', { sessionId: 's' }, { env: {} });
        },
      );
    } finally {
      server.close();
    }
    expect(seen).toEqual(['green', '']);
  });

  // Found by the invariant-4 property: `{ env: { HW_X: [{ toString: '' }] } }` made an http hook's
  // header fill throw a TypeError out of dispatch(); every env that is not an object of strings is
  // a typed error before any hook reads it, and a getter is read once.
  it('is an object of strings: anything else is invalid_options, read once', async () => {
    const dir = tempDir();
    const config = writeConfig(dir, 'hooks.json', {
      hooks: {
        BeforeTool: [
          {
            hooks: [
              { type: 'command', command: 'cat >/dev/null; echo "{}"', inheritEnv: ['HW_X'] },
              {
                type: 'http',
                url: 'http://127.0.0.1:9/never',
                headers: { 'x-token': '$HW_X' },
                allowedEnvVars: ['HW_X'],
              },
            ],
          },
        ],
      },
    });
    let reads = 0;
    const counted = {
      get HW_X() {
        reads++;
        return 'v';
      },
    };
    const throwing = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('proxy says no');
        },
      },
    );
    // Every read throws, printing it included (the error message must not read it either).
    const loud = new Proxy(
      {},
      {
        get() {
          throw new Error('proxy says no');
        },
        ownKeys() {
          throw new Error('proxy says no');
        },
      },
    );
    await withExecutor({ config: [{ path: config, scope: 'user' }], root: dir }, async (ex) => {
      const input = { toolName: 'Bash', toolInput: { command: 'ls' } };
      await expect(ex.dispatch('BeforeTool', input, { signal: loud } as never)).rejects.toMatchObject({
        code: 'invalid_options',
        message: 'dispatch options: signal: expected an AbortSignal, got an unreadable object',
      });
      for (const [i, env] of [
        loud,
        { HW_X: loud },
        { HW_X: [{ toString: '' }] },
        { HW_X: 7 },
        { HW_X: null },
        null,
        'HW_X=1',
        ['HW_X=1'],
        throwing,
      ].entries()) {
        await expect(ex.dispatch('BeforeTool', input, { env } as never), `env ${i}`).rejects.toMatchObject({
          code: 'invalid_options',
          message: expect.stringMatching(/^dispatch options: env/),
        });
      }
      await ex.dispatch('BeforeTool', input, { env: { HW_X: undefined } });
      await ex.dispatch('BeforeTool', input, { env: counted });
      expect(reads).toBe(1);
    });
  });
});
