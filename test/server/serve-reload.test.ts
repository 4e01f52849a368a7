// Reloading a running `hookwarden serve`: SIGHUP (systemd's ExecReload) reads the configuration
// (last-known-good) and the auth file again; --watch reloads when a config file changes.
import { writeFileSync } from 'node:fs';
import { Pool } from 'undici';
import { describe, expect, it } from 'vitest';
import { newToken } from '../../src/server/tokens.js';
import { hooksOn, printing, tempDir, writeConfig } from '../helpers/fixture.js';
import { post, startServe, writeAuthFile } from '../helpers/serve.js';

const answering = (reason: string) =>
  hooksOn('BeforeTool', [printing({ decision: 'allow', reason }, { name: 'h' })]);

describe('reload of a running server', () => {
  it('SIGHUP reloads the configuration and the auth file, keeping both when the new ones are broken', async () => {
    const dir = tempDir('hw-hup-');
    const config = writeConfig(dir, 'hooks.json', answering('first'));
    const auth = writeAuthFile(dir, ['admin']);
    const s = await startServe(['-c', config, '--listen', '127.0.0.1:0', '--auth', auth.path]);
    // One keep-alive connection for every request: a token verified on it is remembered.
    const one = new Pool(s.url, { connections: 1 });
    const dispatch = async (token: string) => {
      const res = await one.request({
        path: '/v1/dispatch/BeforeTool',
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{"toolName":"Bash"}',
      });
      return { status: res.statusCode, body: (await res.body.json()) as { reason?: string } };
    };
    expect((await dispatch(auth.tokens.admin!)).body.reason).toBe('first');
    expect((await dispatch(auth.tokens.admin!)).body.reason).toBe('first');

    writeConfig(dir, 'hooks.json', answering('second'));
    const added = newToken({ admin: true });
    writeFileSync(auth.path, JSON.stringify({ tokens: [added.entry] }), { mode: 0o600 });
    s.child.kill('SIGHUP');
    await s.waitForLog((l) => l.msg === 'auth file reloaded');
    expect((await dispatch(added.token)).body.reason).toBe('second');
    // The old token is gone with its entry, also on the keep-alive connection that presented it
    // before (the connection's remembered verification belongs to the old token table).
    expect((await dispatch(auth.tokens.admin!)).status).toBe(401);

    writeConfig(dir, 'hooks.json', '{ "hooks": ');
    writeFileSync(auth.path, '{ "tokens": "none" }');
    s.child.kill('SIGHUP');
    await s.waitForLog((l) => typeof l.msg === 'string' && l.msg.startsWith('auth file refused'));
    const kept = await dispatch(added.token);
    expect(kept.status).toBe(200);
    expect(kept.body.reason).toBe('second');
    expect(s.logs().some((l) => l.level === 'warn' && String(l.msg).startsWith('reload refused'))).toBe(true);
    await one.close();
    expect((await s.stop()).code).toBe(0);
  });

  it('--watch reloads when a config file changes', async () => {
    const dir = tempDir('hw-watch-');
    const config = writeConfig(dir, 'hooks.json', answering('before'));
    const s = await startServe(['-c', config, '--listen', '127.0.0.1:0', '--watch']);
    const dispatch = () => post(`${s.url}/v1/dispatch/BeforeTool`, undefined, { toolName: 'Bash' });
    expect((await dispatch()).body.reason).toBe('before');
    writeConfig(dir, 'hooks.json', answering('after'));
    await s.waitForLog((l) => l.msg === 'configuration reloaded');
    expect((await dispatch()).body.reason).toBe('after');
    expect((await s.stop()).code).toBe(0);
  });
});
