import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
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
