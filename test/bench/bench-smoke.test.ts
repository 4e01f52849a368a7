// Every bench scenario runs (a tiny version: smoke only, no timing assertions).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const RUNNER = fileURLToPath(new URL('../../dist/bench/run-all.js', import.meta.url));

describe('bench scenarios', () => {
  it.each([
    'fast-path',
    'command-hook',
    'namespace-hook',
    'js-hook',
    'js-cold-warm',
    'js-chain',
    'tenants-mixed',
    'peers',
    'cli-startup',
    'url-pin',
    'session-replay',
  ])(
    '%s runs to completion',
    (name) => {
      const r = spawnSync(process.execPath, [RUNNER, name, '--quick'], {
        encoding: 'utf8',
        timeout: 120_000,
      });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/goal: /);
    },
    // A bound that only catches a hang: the child's own 120 s ends first. A quick run takes 1–10 s on
    // a quiet machine and went past vitest's 30 s default at a load average of 20 on 2 cores.
    150_000,
  );
});
