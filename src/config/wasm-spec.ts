// A wasm hook's spec: its `source` (a .wasm file relative to its config file or pack, read as a JS
// hook's is), its limits (memoryBytes within limits.maxWasmMemoryBytes, maxOutputBytes, fuel), and
// its module checked and compiled at load, so a module hookwarden refuses (an import it does not
// provide, a memory larger than the cap, a malformed file) is reported with the hook's JSON path
// before anything runs.
import { createHash } from 'node:crypto';
import { posix, sep } from 'node:path';
import { compileHookModule } from '../../sandbox/wasm/module-cache.js';
import { PAGE_BYTES } from '../../sandbox/wasm/prepare-module.js';
import { joinPath, renderValue } from '../contract/messages.js';
import type { WasmHookSpec } from '../registry/hook-definition.js';
import { DEFAULTS } from './defaults.js';
import { grantedCap } from './grant-gate.js';
import type { HookContext } from './hook-context.js';
import type { RawHookSpec } from './schema.js';
import { readHookFile } from './source-file.js';

/** Fields of other hook kinds that mean nothing to a wasm hook (ignored with a warning). */
const NOT_WASM = ['env', 'inheritEnv', 'isolation', 'writable', 'runAs', 'rlimits'] as const;

/** The hook's memory cap: its memoryBytes (or the default) within its scope's maximum, in whole pages. */
function memoryCap(spec: RawHookSpec, path: string, ctx: HookContext): number {
  const max = ctx.limits.maxWasmMemoryBytes;
  let bytes = spec.memoryBytes ?? Math.min(DEFAULTS.wasm.memoryBytes, max);
  // A memoryBytes above the default loosens the sandbox: a project file's or a tenant's hook gets it
  // only as the policy grants (grants.*.memoryBytes, as a JS hook's heap), before the module is compiled.
  bytes = grantedCap(ctx, path, 'memoryBytes', bytes, DEFAULTS.wasm.memoryBytes);
  if (bytes > max) {
    ctx.sink.warn(
      joinPath(path, 'memoryBytes'),
      `a wasm hook's memory is capped at limits.maxWasmMemoryBytes (${max}); ${bytes} was clamped`,
    );
    bytes = max;
  }
  return Math.max(PAGE_BYTES, Math.floor(bytes / PAGE_BYTES) * PAGE_BYTES);
}

function outputCap(spec: RawHookSpec, path: string, ctx: HookContext): number {
  const ceiling = DEFAULTS.wasm.maxOutputBytesCeiling;
  const bytes = spec.maxOutputBytes ?? DEFAULTS.wasm.maxOutputBytes;
  if (bytes <= ceiling) return bytes;
  ctx.sink.warn(
    joinPath(path, 'maxOutputBytes'),
    `a wasm hook's output is capped at ${ceiling} bytes per stream; ${bytes} was clamped`,
  );
  return ceiling;
}

/** A wasm hook's spec, or undefined (reported) when it cannot run. */
export async function wasmSpec(
  spec: RawHookSpec,
  path: string,
  ctx: HookContext,
): Promise<WasmHookSpec | undefined> {
  const { sink } = ctx;
  for (const key of ['command', 'argv', 'args', 'code'] as const) {
    if (spec[key] !== undefined) {
      const whose = key === 'code' ? 'JS hooks' : 'command hooks';
      sink.error(
        joinPath(path, key),
        `"${key}" belongs to ${whose}, not wasm hooks, got ${renderValue(spec[key])}`,
      );
      return undefined;
    }
  }
  for (const key of NOT_WASM) {
    if (spec[key] !== undefined)
      sink.warn(joinPath(path, key), `"${key}" applies to command hooks only and is ignored`);
  }
  if (spec.source === undefined) {
    sink.error(path, 'a wasm hook needs "source": a .wasm file relative to the config file');
    return undefined;
  }
  const sourcePath = joinPath(path, 'source');
  const read = await readHookFile(ctx.configDir, spec.source, DEFAULTS.wasm.maxModuleBytes);
  if (!read.ok) {
    sink.error(sourcePath, `${read.message}, got ${renderValue(spec.source)}`);
    return undefined;
  }
  const memoryBytes = memoryCap(spec, path, ctx);
  const digest = createHash('sha256').update(read.bytes).digest('hex');
  const compiled = await compileHookModule(
    read.bytes,
    { memoryBytes, metered: spec.fuel !== undefined },
    digest,
  );
  if (!compiled.ok) {
    sink.error(
      sourcePath,
      `${compiled.message}; see docs/wasm.md for what a wasm hook may import and declare, got ${renderValue(spec.source)}`,
    );
    return undefined;
  }
  return Object.freeze({
    filename: posix.normalize(spec.source.split(sep).join('/')),
    sourcePath: read.path,
    digest,
    module: compiled.module,
    memoryPages: compiled.memoryPages,
    memoryBytes,
    maxOutputBytes: outputCap(spec, path, ctx),
    fuel: spec.fuel,
    claudeEvent: ctx.claudeEvent,
  });
}
