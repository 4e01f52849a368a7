// The Claude Code adapter's environment (an agent's API keys: Claude Code runs it with them) never
// reaches its hooks, in process and through `serve --socket`, in contained, uncontained (the
// fallback, forced with HOOKWARDEN_CONTAINMENT=off) and namespace mode, as root and as nobody. The
// hook searches every /proc/*/environ and /proc/*/cmdline it can read for the canaries' prefix.
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bashInput } from '../helpers/claude-code.js';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeConfig } from '../helpers/fixture.js';
import { startServe } from '../helpers/serve.js';

const API_KEY = `canarykeyprefix${Math.random().toString(36).slice(2)}`;
const AWS = `canarykeyprefix${Math.random().toString(36).slice(2)}aws`;

// `canarykeyprefi[x]` matches the canaries but not this script's own command line.
const SEARCH =
  'n=$(ls /proc/[0-9]*/environ | wc -l); r=0; for f in /proc/[0-9]*/environ; do cat "$f" >/dev/null 2>&1 && r=$((r+1)); done; ' +
  'hits=$(grep -la "canarykeyprefi[x]" /proc/[0-9]*/environ /proc/[0-9]*/cmdline 2>/dev/null | tr "\\n" " "); ' +
  'printf \'{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"files=%s readable=%s hits=%s"}}\' "$n" "$r" "$hits"';

const MODES = ['contained', 'uncontained', 'namespace'] as const;
const RUN_AS = process.getuid?.() === 0 ? ([undefined, 'nobody'] as const) : ([undefined] as const);

function setup(mode: (typeof MODES)[number], runAs: 'nobody' | undefined) {
  const dir = tempDir('hw-cc-secrets-');
  chmodSync(dir, 0o755);
  const hook = {
    type: 'command',
    command: SEARCH,
    ...(mode === 'namespace' ? { isolation: 'namespace' } : {}),
    ...(runAs === undefined ? {} : { runAs }),
  };
  const config = writeConfig(dir, 'settings.json', {
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [hook] }] },
  });
  chmodSync(config, 0o644);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOOKWARDEN_SOCKET: '',
    ANTHROPIC_API_KEY: API_KEY,
    AWS_SECRET_ACCESS_KEY: AWS,
    ...(mode === 'uncontained' ? { HOOKWARDEN_CONTAINMENT: 'off' } : {}),
  };
  return { dir, config, env };
}

function found(stdout: string): { files: number; readable: number; hits: string } {
  const context = JSON.parse(stdout).hookSpecificOutput.additionalContext as string;
  const m = /files=(\d+) readable=(\d+) hits=(.*)$/.exec(context)!;
  return { files: Number(m[1]), readable: Number(m[2]), hits: m[3]!.trim() };
}

describe.each(MODES)('a %s hook of the adapter', (mode) => {
  for (const runAs of RUN_AS) {
    const who = runAs === undefined ? '' : ' as nobody';
    it(`finds no key of the adapter's environment in process${who}`, async () => {
      const { dir, config, env } = setup(mode, runAs);
      const r = await runCli(['claude-code', '-c', config, '--root', dir], {
        stdin: JSON.stringify(bashInput('ls')),
        env,
      });
      expect(r.code, r.stderr).toBe(0);
      const f = found(r.stdout);
      // It read what it could (its own processes at least), and found nothing.
      expect(f.readable).toBeGreaterThan(0);
      expect(f.hits).toBe('');
      expect(r.stdout).not.toContain(API_KEY);
    });

    it(`finds no key of the daemon's or the adapter's environment through serve --socket${who}`, async () => {
      const { dir, config, env } = setup(mode, runAs);
      const path = join(dir, 'hw.sock');
      const s = await startServe(['-c', config, '--root', dir, '--socket', path], { env, cwd: dir });
      try {
        const r = await runCli(['claude-code', '-c', config, '--root', dir, '--socket', path], {
          stdin: JSON.stringify(bashInput('ls')),
          env,
        });
        expect(r.code, r.stderr).toBe(0);
        // The daemon answered (no fallback note).
        expect(r.stderr).toBe('');
        const f = found(r.stdout);
        expect(f.readable).toBeGreaterThan(0);
        expect(f.hits).toBe('');
      } finally {
        await s.stop();
      }
    });
  }
});
