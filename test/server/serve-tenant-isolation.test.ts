// Tenants in `serve` get namespace isolation by default: one tenant's command hooks cannot reach
// another tenant's scratch files, sockets or processes, whatever isolation their config asks for.
// The operator lowers it per tenant (--tenant-isolation acme=process, or tenants.<id>.isolation in a
// policy file); then what is contained is what docs/serve.md says of that mode. Real serve, real
// hooks: tenant b's hook holds a scratch file, an abstract Unix socket and a TCP port open while
// tenant a's hook tries each of them.
import { randomUUID } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FifoFeed, FifoLines, mkfifo } from '../helpers/fifo.js';
import { sharedTempDir, writeConfig } from '../helpers/fixture.js';
import { processesWithEnv } from '../helpers/processes.js';
import { post, startServe, writeAuthFile } from '../helpers/serve.js';

const HOLDER = `
import json, os, socket, sys
secret = os.path.join(os.environ["TMPDIR"], "secret")
open(secret, "w").write("tenant-b-secret")
a = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); a.bind("\\0hw-tenant-b"); a.listen(1)
t = socket.socket(); t.bind(("127.0.0.1", 0)); t.listen(1)
with open(sys.argv[1], "w") as f: f.write("started %s %d\\n" % (secret, t.getsockname()[1]))
open(sys.argv[2]).readline()
print("{}")
`;

const PROBE = `
import json, os, socket, sys
i = json.load(sys.stdin)["toolInput"]
out = {}
try: out["file"] = open(i["secret"]).read()
except Exception as e: out["file"] = type(e).__name__
for name, family, addr in (("abstract", socket.AF_UNIX, "\\0hw-tenant-b"), ("tcp", socket.AF_INET, ("127.0.0.1", i["port"]))):
    s = socket.socket(family, socket.SOCK_STREAM)
    try: s.connect(addr); out[name] = "connected"
    except Exception as e: out[name] = type(e).__name__
try: os.kill(i["pid"], 0); out["signal"] = "yes"
except Exception as e: out["signal"] = type(e).__name__
out["pids"] = max(int(p) for p in os.listdir("/proc") if p.isdigit())
print(json.dumps({"additionalContext": json.dumps(out)}))
`;

/**
 * Where a file a namespace hook sees under /tmp is on the host: its /tmp's bind source (the fourth
 * field of its mountinfo line), under the scratch base it is on.
 */
function hostPath(pid: number, inside: string): string {
  if (!inside.startsWith('/tmp/')) return inside;
  const line = readFileSync(`/proc/${pid}/mountinfo`, 'utf8')
    .split('\n')
    .find((l) => l.split(' ')[4] === '/tmp');
  const source = line?.split(' ')[3] ?? '';
  const base = [process.env.XDG_RUNTIME_DIR, '/dev/shm', tmpdir()].find(
    (b) => b !== undefined && b !== '' && existsSync(join(b, source)),
  );
  if (base === undefined) throw new Error(`cannot find ${source} on the host`);
  return join(base, source, inside.slice('/tmp/'.length));
}

async function tenantAProbes(extraArgs: string[], policyExtra: Record<string, unknown> = {}) {
  const dir = sharedTempDir('hw-tenants-');
  const started = mkfifo(dir, 'started');
  const release = mkfifo(dir, 'release');
  for (const f of [started, release]) chmodSync(f, 0o666);
  writeFileSync(join(dir, 'holder.py'), HOLDER, { mode: 0o644 });
  writeFileSync(join(dir, 'probe.py'), PROBE, { mode: 0o644 });
  const lines = new FifoLines(started);
  const feed = new FifoFeed(release);
  // Each tenant's config asks for plain process mode; the operator's default overrides it.
  const marker = randomUUID();
  const hook = (name: string, command: string) => ({
    hooks: { BeforeTool: [{ hooks: [{ name, command, isolation: 'process', env: { HW_MARK: marker } }] }] },
  });
  const policy = writeConfig(dir, 'policy.json', {
    tenants: {
      a: { ...hook('probe', `/usr/bin/python3 ${dir}/probe.py`), ...policyExtra },
      b: hook('holder', `/usr/bin/python3 ${dir}/holder.py ${started} ${release}`),
    },
  });
  const auth = writeAuthFile(dir, ['a', 'b']);
  const s = await startServe(
    ['--policy', policy, '--root', dir, '--listen', '127.0.0.1:0', '--auth', auth.path, ...extraArgs],
    { cwd: dir },
  );
  try {
    const held = post(`${s.url}/v1/dispatch/BeforeTool`, auth.tokens.b, { toolName: 'Bash', toolInput: {} });
    const [, inside, port] = (await lines.next()).split(' ');
    // b's hook as this host sees it (its own view of its pid is its namespace's).
    const pid = Math.max(...processesWithEnv('HW_MARK', marker).map((p) => p.pid));
    // b sees its scratch directory at /tmp: a is told where that is on the host.
    const secret = hostPath(pid, inside!);
    const probe = await post(`${s.url}/v1/dispatch/BeforeTool`, auth.tokens.a, {
      toolName: 'Bash',
      toolInput: { secret, port: Number(port), pid },
    });
    feed.send();
    const b = await held;
    expect(b.status).toBe(200);
    expect(probe.status).toBe(200);
    return {
      a: probe.body.hooks[0],
      b: b.body.hooks[0],
      seen: JSON.parse(probe.body.additionalContext) as Record<string, unknown>,
    };
  } finally {
    feed.close();
    lines.close();
    await s.stop();
  }
}

describe("serve's tenants", () => {
  it("run in namespace isolation by default: another tenant's scratch files, sockets and processes are out of reach", async () => {
    const { a, b, seen } = await tenantAProbes([]);
    expect(a).toMatchObject({ outcome: 'proceed', containment: 'namespace' });
    expect(b).toMatchObject({ outcome: 'proceed', containment: 'namespace' });
    expect(seen).toMatchObject({
      file: 'FileNotFoundError',
      abstract: 'ConnectionRefusedError',
      tcp: 'ConnectionRefusedError',
      signal: 'ProcessLookupError',
    });
    expect(seen.pids).toBeLessThan(10);
  });

  it('run contained when the operator lowers one tenant to process mode: processes stay apart, the filesystem and network are shared', async () => {
    const { a, b, seen } = await tenantAProbes(['--tenant-isolation', 'a=process']);
    expect(a).toMatchObject({ outcome: 'proceed', containment: 'contained' });
    // b keeps the default.
    expect(b).toMatchObject({ containment: 'namespace' });
    // b's sockets are in its own network namespace; its scratch file is on the host's file system,
    // which a process-mode hook shares (docs/serve.md).
    expect(seen).toMatchObject({
      signal: 'ProcessLookupError',
      tcp: 'ConnectionRefusedError',
      abstract: 'ConnectionRefusedError',
      file: 'tenant-b-secret',
    });
    expect(seen.pids).toBeLessThan(10);
  });

  it('take their isolation from a policy file (tenants.<id>.isolation); the flag for that tenant wins', async () => {
    const viaPolicy = await tenantAProbes([], { isolation: 'contained' });
    expect(viaPolicy.a).toMatchObject({ containment: 'contained' });
    const flagWins = await tenantAProbes(['--tenant-isolation', 'a=namespace'], { isolation: 'process' });
    expect(flagWins.a).toMatchObject({ containment: 'namespace' });
  });
});
