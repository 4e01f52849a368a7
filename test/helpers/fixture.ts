// Small real fixtures: temp directories, config files, hook inputs, executors that always close.
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll } from 'vitest';
import { createExecutor, type Executor, type ExecutorOptions } from '../../src/index.js';
import type { HookDefinition } from '../../src/registry/hook-definition.js';

const dirs: string[] = [];
// A file that copied a checkout or two (tens of MB each) removes a lot: a bound that only catches a hang.
afterAll(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
}, 300_000);

export function tempDir(prefix = 'hw-test-'): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}

/**
 * A temp directory every user may enter, for hooks that run as `nobody` (the checkout itself may be
 * private: a clone under /root, or any directory under a 0700 one).
 */
export function sharedTempDir(prefix = 'hw-shared-'): string {
  const d = tempDir(prefix);
  chmodSync(d, 0o755);
  return d;
}

/** A copy of a fixture directory in a directory every user may enter (see sharedTempDir). */
export function sharedCopy(dir: string): string {
  const d = sharedTempDir('hw-fixtures-');
  cpSync(dir, d, { recursive: true });
  return `${d}/`;
}

/** Writes a file (creating folders); `mode` 0o755 makes it executable. */
export function writeFile(path: string, content: string | Uint8Array, mode?: number): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  if (mode !== undefined) chmodSync(path, mode);
  return path;
}

export function writeConfig(dir: string, name: string, config: unknown): string {
  return writeFile(join(dir, name), typeof config === 'string' ? config : JSON.stringify(config, null, 2));
}

export function input(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { sessionId: 's1', cwd: '/tmp', timestamp: '2026-11-29T12:00:00.000Z', ...extra };
}

/** A command hook spec that prints `output` as JSON. */
export function printing(output: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { type: 'command', argv: ['/bin/echo', JSON.stringify(output)], ...extra };
}

/** Creates an executor, runs `fn`, and always closes it. Warnings are collected, not printed. */
export async function withExecutor<T>(
  options: ExecutorOptions,
  fn: (executor: Executor, warnings: string[]) => Promise<T>,
): Promise<T> {
  const warnings: string[] = [];
  const executor = await createExecutor({
    onWarning: (d) => warnings.push(`${d.path}: ${d.message}`),
    ...options,
  });
  try {
    return await fn(executor, warnings);
  } finally {
    await executor.close();
  }
}

/** Config object with one event's hooks in a single group. */
export function hooksOn(
  event: string,
  hooks: unknown[],
  group: Record<string, unknown> = {},
): Record<string, unknown> {
  return { hooks: { [event]: [{ ...group, hooks }] } };
}

/** A loaded hook's command spec (undefined for other hook types). */
export const commandOf = (h: HookDefinition) => (h.type === 'command' ? h.command : undefined);

/** A loaded hook's JS spec (undefined for other hook types). */
export const jsOf = (h: HookDefinition) => (h.type === 'js' ? h.js : undefined);
