// internalsOf(): an executor's internals (its pool, generation, queue and loaded configuration) for
// the server, the fixture runner, the daemon, tests and benchmarks; not exported from the package
// entry. The executor's fields are private: HookExecutor (executor.ts) installs the reader.
import type { Executor, ExecutorInternals } from './api.js';

/** Reads an executor's internals; undefined for an object that is not an executor. */
type InternalsReader = (e: Executor) => ExecutorInternals | undefined;

let readInternals: InternalsReader | undefined;

/** Installs the reader (HookExecutor's static block: `#internals` is private). */
export function setInternalsReader(reader: InternalsReader): void {
  readInternals = reader;
}

/** The internals of an executor made by createExecutor(); a TypeError for anything else. */
export function internalsOf(executor: Executor): ExecutorInternals {
  const internals = readInternals?.(executor);
  if (internals === undefined) throw new TypeError('internalsOf: not an executor made by createExecutor()');
  return internals;
}
