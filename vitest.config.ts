import { existsSync } from 'node:fs';
import { configDefaults, defineConfig } from 'vitest/config';
import { SLOW_TESTS } from './test/tiers.js';

// A name in the list that is no file would silently keep a slow file in the fast tier.
const missing = SLOW_TESTS.filter((f) => !existsSync(f));
if (missing.length > 0) throw new Error(`test/tiers.ts names files that do not exist: ${missing.join(', ')}`);
const fast = process.env.HOOKWARDEN_TEST_TIER === 'fast';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // npm run test:fast: the inner loop, without the slow files (test/tiers.ts).
    exclude: fast ? [...configDefaults.exclude, ...SLOW_TESTS] : configDefaults.exclude,
    // Child processes and worker threads are real: run files in forked processes.
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    globalSetup: ['test/global-setup.ts'],
    // Per file: every executor closed, no QuickJS runtime or context left alive.
    setupFiles: ['test/setup-leaks.ts'],
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest-report.json' },
  },
});
