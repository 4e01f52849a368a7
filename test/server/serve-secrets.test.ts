// The service's secrets are out of every hook's reach, in every mode (docs/security.md, invariant 6). A real
// `serve` in Redis mode holds canaries: the Redis password (in $HOOKWARDEN_QUEUE_URL, and once on its
// command line with --queue), a token ($HOOKWARDEN_TOKEN), the audit key (a file given by path) and
// the host's environment (an agent's API keys). A tenant's hook reads every /proc/*/environ and
// /proc/*/cmdline it can reach, in namespace isolation (the default for tenants), contained process
// mode, and uncontained process mode (the fallback, forced here with HOOKWARDEN_CONTAINMENT=off), as
// root and as nobody. It finds none of them. Real redis-server (free port, password in a config
// file), stopped by PID.
import { randomBytes, randomUUID } from 'node:crypto';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeConfig } from '../helpers/fixture.js';
import { describeRedis, REDIS_MISSING, RedisServer } from '../helpers/redis.js';
import { post, startServe, writeAuthFile } from '../helpers/serve.js';

const canary = (what: string) => `canary${what}${randomUUID().replaceAll('-', '')}`;
const QUEUE = canary('queue');
const TOKEN = canary('token');
const AUDIT = canary('audit');
const API_KEY = canary('apikey');
const AWS = canary('aws');
const CANARIES = [QUEUE, TOKEN, AUDIT, API_KEY, AWS];

let redis: RedisServer;
beforeAll(async () => {
  if (REDIS_MISSING !== undefined) return;
  redis = await RedisServer.start({ password: QUEUE });
});
afterAll(async () => {
  if (REDIS_MISSING !== undefined) return;
  await redis.stop();
});

/** Every environment and command line the hook can read, base64 (its own included: the scan works). */
const SCAN =
  'out=$(for f in /proc/[0-9]*/environ /proc/[0-9]*/cmdline; do echo "== $f"; tr "\\0" "\\n" < "$f"; echo; done 2>/dev/null | base64 -w0); printf \'{"additionalContext":"%s"}\' "$out"';

const MODES = ['namespace', 'contained', 'uncontained'] as const;
const RUN_AS = process.getuid?.() === 0 ? ([undefined, 'nobody'] as const) : ([undefined] as const);

async function scanFromTenant(
  mode: (typeof MODES)[number],
  runAs: 'nobody' | undefined,
  queueOnCommandLine: boolean,
): Promise<string> {
  const dir = tempDir('hw-secrets-');
  chmodSync(dir, 0o755);
  const keyFile = join(dir, 'audit.key');
  writeFileSync(keyFile, `${AUDIT}${randomBytes(16).toString('hex')}\n`, { mode: 0o600 });
  const policy = writeConfig(dir, 'policy.json', {
    tenants: {
      acme: {
        hooks: {
          BeforeTool: [
            { hooks: [{ name: 'scan', command: SCAN, ...(runAs === undefined ? {} : { runAs }) }] },
          ],
        },
      },
    },
  });
  const auth = writeAuthFile(dir, ['acme']);
  const args = [
    '--policy',
    policy,
    '--root',
    dir,
    '--listen',
    '127.0.0.1:0',
    '--auth',
    auth.path,
    '--audit',
    join(dir, 'audit.jsonl'),
    '--audit-key',
    keyFile,
    ...(mode === 'namespace' ? [] : ['--tenant-isolation', 'acme=process']),
    ...(queueOnCommandLine ? ['--queue', redis.url] : []),
  ];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ANTHROPIC_API_KEY: API_KEY,
    AWS_SECRET_ACCESS_KEY: AWS,
    HOOKWARDEN_TOKEN: TOKEN,
    ...(queueOnCommandLine ? {} : { HOOKWARDEN_QUEUE_URL: redis.url }),
    ...(mode === 'uncontained' ? { HOOKWARDEN_CONTAINMENT: 'off' } : {}),
  };
  const s = await startServe(args, { env, cwd: dir });
  try {
    const r = await post(`${s.url}/v1/dispatch/BeforeTool`, auth.tokens.acme, {
      toolName: 'Bash',
      toolInput: { command: 'ls' },
    });
    expect(r.status).toBe(200);
    expect(r.body.hooks[0]).toMatchObject({
      id: 'scan',
      outcome: 'proceed',
      containment: mode,
    });
    return Buffer.from(r.body.additionalContext ?? '', 'base64').toString('utf8');
  } finally {
    await s.stop();
  }
}

describe.each(MODES)("a tenant's hook (%s) scanning every /proc/*/environ and cmdline", (mode) => {
  for (const runAs of RUN_AS) {
    it(`finds none of the service's secrets${runAs === undefined ? '' : ' as nobody'}`, async () => {
      const seen = await scanFromTenant(mode, runAs, false);
      // It did read what it could: its own environment at least.
      expect(seen).toContain('HOOK_EVENT=BeforeTool');
      for (const c of CANARIES) expect(seen).not.toContain(c);
    });
  }
});

describeRedis('the Redis URL on the command line (--queue)', () => {
  it('is blanked in /proc/<pid>/cmdline: an uncontained hook does not find its password', async () => {
    const seen = await scanFromTenant('uncontained', undefined, true);
    expect(seen).toContain('HOOK_EVENT=BeforeTool');
    // serve's own command line is there, its URL blanked.
    expect(seen).toMatch(/hookwarden serve .*--queue \*\*\*/);
    for (const c of CANARIES) expect(seen).not.toContain(c);
  });
});
