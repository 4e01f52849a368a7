// How a JS hook's failure becomes an error code: one table, read top to bottom, first match wins.
//
// Facts the host observed itself come first, and a hook cannot forge them: its interrupt fired at the
// deadline or at the heap-growth guard (`interrupted`), the module's memory refused to grow at its
// hard cap (`growRefused`), the guest stack came within reach of its limit (`stackNearLimit`), and
// which step failed (`phase`). Only then is the thrown value looked at. An engine error is one whose
// [[ErrorData]] brand (Error.isError) and prototype (InternalError.prototype or SyntaxError.prototype,
// captured before any hook code ran) say QuickJS made it; `InternalError` is no guest global, so a hook
// cannot simply construct one. The engine's message text is read in exactly one place, below, to tell
// QuickJS's internal errors apart ("stack overflow", "out of memory", "string too long").
//
// What a hook can still do: catch a genuine engine error, change its message and throw it again. A
// relabelled "stack overflow" is not believed without the stack fact; a relabelled "out of memory"
// shows as memory_limit (the outcome `limit` instead of `error`: both are failures, fail-open or
// fail-closed alike, and the hook did provoke an engine error to get there).
import { type ErrorCode, type HookError, hookError } from '../../src/contract/error-codes.js';
import { capText } from '../../src/contract/text-caps.js';

export type Phase =
  /** Compiling the module: no hook code has run yet. */
  | 'compile'
  /** The module's top level, the default export, its promise. */
  | 'run'
  /** Turning the answer into JSON (its toJSON methods, getters). */
  | 'output';

/** Which of QuickJS's own error classes a thrown value belongs to, by brand and prototype. */
export type EngineKind = 'internal' | 'syntax' | undefined;

export interface Evidence {
  readonly phase: Phase;
  /** Live: reading the thrown value runs guest code, which may itself be interrupted. */
  readonly interrupted: () => 'deadline' | 'memory' | undefined;
  readonly growRefused: boolean;
  readonly stackNearLimit: () => boolean;
  /** Only read when no host fact decided (reading it runs no hook code but costs a guest call). */
  readonly engine: () => EngineKind;
  /** The thrown value's name, message and location, read under the deadline and capped. */
  readonly text: () => ThrownParts;
}

export interface ThrownParts {
  readonly name: string;
  readonly message: string;
  /** `file:line[:col]` of its stack's first frame. */
  readonly where: string | undefined;
}

/** `name: message (file:line:col)`. */
const full = (e: Evidence) => {
  const { name, message, where } = e.text();
  return `${name}: ${message}${where !== undefined ? ` (${where})` : ''}`;
};

export interface HookLimits {
  readonly deadlineMs: number;
  readonly memoryBytes: number;
  readonly filename: string;
  readonly maxMessageBytes: number;
}

interface Rule {
  readonly code: ErrorCode;
  readonly when: (e: Evidence) => boolean;
  readonly message: (e: Evidence, h: HookLimits) => string;
}

const INTERNAL_MEMORY = /^(out of memory|string too long)$/;

const RULES: readonly Rule[] = [
  {
    // Host: the interrupt handler saw the deadline pass.
    code: 'timeout',
    when: (e) => e.interrupted() === 'deadline',
    message: (_, h) => `no answer within ${h.deadlineMs} ms (interrupted)`,
  },
  {
    // Host: the heap's break grew past memoryBytes during the call (what setMemoryLimit misses).
    code: 'memory_limit',
    when: (e) => e.interrupted() === 'memory',
    message: (_, h) => `heap grew past memoryBytes (${h.memoryBytes}) (interrupted)`,
  },
  {
    // Host: the module's WebAssembly.Memory refused to grow at its hard cap.
    code: 'memory_limit',
    when: (e) => e.growRefused,
    message: (e, h) => `${full(e)}; memoryBytes is ${h.memoryBytes}`,
  },
  {
    // Engine InternalError "stack overflow", believed only if the stack did reach its limit.
    code: 'stack_overflow',
    when: (e) => e.engine() === 'internal' && e.text().message === 'stack overflow' && e.stackNearLimit(),
    message: (e) => full(e),
  },
  {
    // Engine InternalError for an allocation QuickJS refused (its soft per-runtime limit).
    code: 'memory_limit',
    when: (e) => e.engine() === 'internal' && INTERNAL_MEMORY.test(e.text().message),
    message: (e, h) => `${full(e)}; memoryBytes is ${h.memoryBytes}`,
  },
  {
    // Host: compiling failed before any hook code ran, with the engine's SyntaxError.
    code: 'syntax_error',
    when: (e) => e.phase === 'compile' && e.engine() === 'syntax',
    message: (e, h) => {
      const { name, message, where } = e.text();
      const m = where === undefined ? null : /:(\d+)(?::(\d+))?$/.exec(where);
      const at = m === null ? '' : `:${m[1]}${m[2] !== undefined ? `:${m[2]}` : ''}`;
      return `${name}: ${message} at ${h.filename}${at}`;
    },
  },
  {
    // Host: the answer could not be turned into JSON.
    code: 'invalid_output',
    when: (e) => e.phase === 'output',
    message: (e) => full(e),
  },
  { code: 'runtime_error', when: () => true, message: (e) => full(e) },
];

/** The error code and message of a failure, by the table above. */
export function classify(e: Evidence, h: HookLimits): HookError {
  for (;;) {
    const rule = RULES.find((r) => r.when(e))!;
    const seen = e.interrupted();
    const message = rule.message(e, h);
    // Reading the thrown value runs guest code (getters, toString) under the deadline and the memory
    // guard: when that is what ran out, the host's fact decides after all (interrupts are sticky).
    if (e.interrupted() === seen) return hookError(rule.code, capText(message, h.maxMessageBytes));
  }
}
