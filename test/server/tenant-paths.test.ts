// Tenants never read the operator's paths (issue 23, finding 12): hookwarden's own messages that a
// tenant's token receives — a policy failure's reason, a policy hook's spawn error (in the result,
// in a fail-closed deny's reason, in the async completion on its event stream), an audit warning —
// name files by their last component only. The operator (an admin token) sees the full paths; a
// hook's own reason is left as it wrote it.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactPaths } from '../../src/contract/redact-paths.js';
import { hooksOn, tempDir, writeConfig } from '../helpers/fixture.js';
import { type LiveServer, post, startServe, writeAuthFile } from '../helpers/serve.js';
import { SseStream } from '../helpers/sse.js';

// The operator's layout, which no tenant may learn.
const base = tempDir('hw-tenant-paths-');
const ops = join(base, 'srv-ops-7f3a', 'hookwarden');
mkdirSync(ops, { recursive: true });
const secret = 'srv-ops-7f3a';
const auth = writeAuthFile(base, ['acme', 'admin']);
const bash = { toolName: 'Bash', toolInput: { command: 'echo hi' } };

const servers: LiveServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});
async function serve(args: string[]): Promise<LiveServer> {
  const s = await startServe([...args, '--listen', '127.0.0.1:0', '--auth', auth.path]);
  servers.push(s);
  return s;
}
const config = writeConfig(base, 'hooks.json', { tenants: { acme: hooksOn('BeforeTool', []) } });

describe('redactPaths', () => {
  it.each([
    ['policy /srv/ops/policy.json is invalid', 'policy …/policy.json is invalid'],
    ['spawn /opt/x/bin/guard.sh: ENOENT', 'spawn …/guard.sh: ENOENT'],
    ['"/etc/hookwarden/keys/r.pub" (EACCES)', '"…/r.pub" (EACCES)'],
    ['cannot read /a/b/', 'cannot read …/b'],
    [
      'see https://example.com/docs/x and ./rel/path and ~/.claude/x',
      'see https://example.com/docs/x and ./rel/path and ~/.claude/x',
    ],
  ])('%s → %s', (text, expected) => {
    expect(redactPaths(text)).toBe(expected);
  });
});

describe('a tenant of serve', () => {
  let broken: LiveServer;
  let spawning: LiveServer;
  beforeAll(async () => {
    // A policy file that does not load, and a policy hook whose program is missing (fail-closed).
    const bad = writeConfig(ops, 'broken-policy.json', {
      packs: [{ path: 'packs/guard', publicKeys: ['keys/reviewer.pub'] }],
    });
    broken = await serve(['--config', config, '--policy', bad]);
    const missing = join(ops, 'bin', 'guard.sh');
    const policy = writeConfig(ops, 'policy.json', {
      hooks: {
        BeforeTool: [{ hooks: [{ type: 'command', name: 'guard', argv: [missing] }] }],
        SessionStart: [{ hooks: [{ type: 'command', name: 'bg', argv: [missing], async: true }] }],
      },
    });
    spawning = await serve(['--config', config, '--policy', policy]);
  });

  it("reads a policy failure's reason without the operator's directories", async () => {
    const tenant = await post(`${broken.url}/v1/dispatch/BeforeTool`, auth.tokens.acme, bash);
    expect(tenant.body).toMatchObject({ decision: 'deny', decidedBy: 'policy' });
    expect(tenant.body.reason).toContain('…/broken-policy.json');
    expect(tenant.body.reason).toContain('…/reviewer.pub');
    expect(JSON.stringify(tenant.body)).not.toContain(secret);
    const admin = await post(`${broken.url}/v1/dispatch/BeforeTool`, auth.tokens.admin, bash);
    expect(admin.body.reason).toContain(join(ops, 'broken-policy.json'));
  });

  it("reads a policy hook's spawn error (and the fail-closed reason quoting it) without them", async () => {
    const tenant = await post(`${spawning.url}/v1/dispatch/BeforeTool`, auth.tokens.acme, bash);
    expect(tenant.body).toMatchObject({ decision: 'deny', decidedBy: 'guard' });
    expect(tenant.body.hooks[0].error.code).toBe('spawn_failed');
    expect(tenant.body.hooks[0].error.message).toContain('…/guard.sh');
    expect(JSON.stringify(tenant.body)).not.toContain(secret);
    const admin = await post(`${spawning.url}/v1/dispatch/BeforeTool`, auth.tokens.admin, bash);
    expect(JSON.stringify(admin.body)).toContain(secret);
  });

  it("reads an async policy hook's completion on its event stream without them", async () => {
    const stream = await SseStream.open(spawning.url, auth.tokens.acme);
    const r = await post(`${spawning.url}/v1/dispatch/SessionStart`, auth.tokens.acme, { source: 'startup' });
    expect(r.status).toBe(200);
    const done = await stream.next('async.completed');
    stream.close();
    expect(done.data).toMatchObject({ tenant: 'acme', hookId: 'bg', outcome: 'error' });
    expect(done.data.error.message).toContain('…/guard.sh');
    expect(JSON.stringify(done.data)).not.toContain(secret);
  });
});
