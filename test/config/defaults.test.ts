import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '../../src/config/defaults.js';
import { hooksJsonSchema } from '../../src/config/json-schema.js';
import { validateConfig } from '../../src/index.js';

describe('defaults', () => {
  it('are pinned (docs/configuration.md#limits) and frozen', () => {
    expect(DEFAULTS).toEqual({
      js: {
        timeoutMs: 5000,
        maxTimeoutMs: 30000,
        memoryBytes: 33554432,
        maxOutputBytes: 65536,
        maxOutputBytesCeiling: 1048576,
        maxLogLines: 100,
        maxLogLineBytes: 4096,
        maxLogBytes: 16384,
      },
      wasm: {
        timeoutMs: 5000,
        maxTimeoutMs: 30000,
        memoryBytes: 33554432,
        maxOutputBytes: 1048576,
        maxOutputBytesCeiling: 16777216,
        maxModuleBytes: 16777216,
      },
      command: {
        timeoutMs: 60000,
        maxOutputBytes: 1048576,
        openFiles: 1024,
        fileSizeBytes: 67108864,
        path: '/usr/local/bin:/usr/bin:/bin',
      },
      http: { maxOutputBytes: 1048576, maxOutputBytesCeiling: 16777216 },
      evaluator: { promptTimeoutMs: 30000, agentTimeoutMs: 60000 },
      budget: { graceMs: 5000 },
      limits: {
        maxHookCalls: 128,
        maxDeclaredBudgetMs: 600000,
        maxConcurrentCommands: 16,
        maxInputBytes: 8388608,
        maxInputDepth: 64,
        killGraceMs: 500,
        jsThreads: 0,
        jsHeapCeilingBytes: 134217728,
        maxWasmMemoryBytes: 268435456,
        jsBackstopGraceMs: 1000,
        maxAsyncQueued: 1000,
        fairShareIdleMs: 1000,
        tenantMaxQueued: 256,
        tenantRateBurst: 0,
      },
      async: {
        retries: 0,
        retryBackoffMs: 1000,
        concurrency: 8,
        replayEvents: 1000,
        lockDurationMs: 5000,
        mismatchTimeoutMs: 60000,
        mismatchRetryMs: 250,
        burstWindowMs: 10000,
      },
      piscina: {
        idleTimeoutMs: 60000,
        maxOldGenerationSizeMb: 256,
        maxYoungGenerationSizeMb: 4,
        stackSizeMb: 4,
      },
      suspiciousTimeoutSeconds: 600,
      maxReasonBytes: 4096,
      maxIgnoredFields: 32,
    });
    expect(Object.isFrozen(DEFAULTS)).toBe(true);
    expect(Object.isFrozen(DEFAULTS.limits)).toBe(true);
  });
});

describe('the hooks.json JSON Schema', () => {
  it('is committed up to date with the zod schema', () => {
    const committed = JSON.parse(
      readFileSync(new URL('../../schema/hooks.schema.json', import.meta.url), 'utf8'),
    );
    expect(committed).toEqual(hooksJsonSchema());
  });

  it('describes hooks, limits and the hook fields', () => {
    const s = hooksJsonSchema() as { properties: Record<string, unknown> };
    expect(Object.keys(s.properties)).toEqual([
      '$schema',
      'hooks',
      'policyHooks',
      'events',
      'limits',
      'allowedHttpHookUrls',
      'httpHookAllowedEnvVars',
      'sessionEnv',
      'grants',
      'packs',
      'tenants',
    ]);
    expect(JSON.stringify(s)).toContain('"timeoutMs"');
    expect(JSON.stringify(s)).toContain('"pathDirs"');
  });
});

describe('the shipped example config', () => {
  it('validates without problems', async () => {
    const r = await validateConfig({
      config: [new URL('../../examples/hooks.json', import.meta.url).pathname],
    });
    expect(r.diagnostics).toEqual([]);
    expect(r.hookCount).toBeGreaterThanOrEqual(4);
  });
});
