// A JS hook's spec (inline code or a source file relative to its config file) → its JsHookSpec.
import { basename, posix, sep } from 'node:path';
import { joinPath, renderValue } from '../contract/messages.js';
import type { JsHookSpec } from '../registry/hook-definition.js';
import { DEFAULTS } from './defaults.js';
import type { HookContext } from './hook-context.js';
import type { RawHookSpec } from './schema.js';
import { MAX_SOURCE_BYTES, readHookSource } from './source-file.js';

/** Fields that only a command hook takes: on a JS hook each one is ignored with a warning. */
const COMMAND_ONLY = ['env', 'inheritEnv', 'isolation', 'writable', 'runAs', 'rlimits'] as const;

/** A JS hook's spec, or undefined (reported) when it cannot run. */
export async function jsSpec(
  spec: RawHookSpec,
  path: string,
  ctx: HookContext,
): Promise<JsHookSpec | undefined> {
  const { sink } = ctx;
  for (const key of ['command', 'argv', 'args'] as const) {
    if (spec[key] !== undefined) {
      sink.error(
        joinPath(path, key),
        `"${key}" belongs to command hooks, not JS hooks, got ${renderValue(spec[key])}`,
      );
      return undefined;
    }
  }
  for (const key of COMMAND_ONLY) {
    if (spec[key] !== undefined)
      sink.warn(joinPath(path, key), `"${key}" applies to command hooks only and is ignored`);
  }
  if ((spec.source === undefined) === (spec.code === undefined)) {
    sink.error(path, 'a JS hook needs exactly one of "source" (file) or "code" (inline)');
    return undefined;
  }
  let code: string;
  // Shown in the hook's errors and stack traces: relative to the config file (or pack), never a host
  // path. The resolved file stays on the host (sourcePath: validate, pack checks).
  let filename: string;
  let sourcePath: string | undefined;
  if (spec.source !== undefined) {
    const read = await readHookSource(ctx.configDir, spec.source);
    if (!read.ok) {
      sink.error(joinPath(path, 'source'), `${read.message}, got ${renderValue(spec.source)}`);
      return undefined;
    }
    code = read.code;
    sourcePath = read.path;
    filename = posix.normalize(spec.source.split(sep).join('/'));
  } else {
    code = spec.code!;
    filename = `${basename(ctx.sink.file)}#${path}`;
    // QuickJS's parser cannot be interrupted: the source size bounds the time it can take.
    if (Buffer.byteLength(code) > MAX_SOURCE_BYTES) {
      sink.error(
        joinPath(path, 'code'),
        `inline code is larger than ${MAX_SOURCE_BYTES} bytes, got ${Buffer.byteLength(code)} bytes`,
      );
      return undefined;
    }
  }
  let maxOutputBytes = spec.maxOutputBytes ?? DEFAULTS.js.maxOutputBytes;
  if (maxOutputBytes > DEFAULTS.js.maxOutputBytesCeiling) {
    sink.warn(
      joinPath(path, 'maxOutputBytes'),
      `JS output is capped at ${DEFAULTS.js.maxOutputBytesCeiling} bytes; ${maxOutputBytes} was clamped`,
    );
    maxOutputBytes = DEFAULTS.js.maxOutputBytesCeiling;
  }
  let memoryBytes = spec.memoryBytes ?? DEFAULTS.js.memoryBytes;
  // The worker's heap also holds QuickJS itself and the input: keep 16 MiB of headroom under the cap.
  const ceiling = ctx.limits.jsHeapCeilingBytes - 16 * 1024 * 1024;
  if (memoryBytes > ceiling) {
    sink.warn(
      joinPath(path, 'memoryBytes'),
      `memoryBytes ${memoryBytes} does not fit limits.jsHeapCeilingBytes (${ctx.limits.jsHeapCeilingBytes}) with 16 MiB headroom; clamped to ${ceiling}`,
    );
    memoryBytes = ceiling;
  }
  return Object.freeze({ code, filename, sourcePath, memoryBytes, maxOutputBytes });
}
