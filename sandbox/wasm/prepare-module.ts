// A wasm hook's module as it will run: checked (a WASI preview 1 command module, importing only
// WASI functions, one memory of its own whose declared minimum fits the hook's cap), its memory's
// maximum lowered to the cap, its tables bounded, its code instrumented (instrument.ts), and
// compiled. Any other module is refused with a message that names what is wrong (and the import it
// refuses), at load, before a hook could run.
import { instrumentCode } from './instrument.js';
import { type Limits, type ModuleParts, readModule } from './read-module.js';
import { refusedImport } from './wasi-calls.js';
import { ModuleFormatError, Reader, Writer } from './wasm-bytes.js';

export const PAGE_BYTES = 65_536;
/** Most elements a table may hold (a table's maximum is lowered to it). */
const MAX_TABLE_ELEMENTS = 65_536;
/** Exports the instrumentation adds (a module that already has them is refused). */
export const FUEL_EXPORT = 'hookwarden.fuel';
export const GROW_REFUSED_EXPORT = 'hookwarden.grow_refused';
/** Where the prepared module imports its memory from. */
export const MEMORY_IMPORT = ['hookwarden', 'memory'] as const;

export interface PrepareOptions {
  /** The memory cap: the memory's maximum becomes this (rounded down to whole pages). */
  readonly memoryBytes: number;
  /** Instrument every function entry and loop iteration with a fuel check. */
  readonly metered: boolean;
}

export type Prepared =
  | {
      readonly ok: true;
      readonly bytes: Uint8Array;
      /** The memory's declared size (0: the module has no memory) and its cap, in pages. */
      readonly memoryPages: { readonly initial: number; readonly maximum: number } | undefined;
    }
  | { readonly ok: false; readonly message: string; readonly refusedImport?: string };

const refuse = (message: string, imp?: string): Prepared =>
  imp === undefined ? { ok: false, message } : { ok: false, message, refusedImport: imp };

/** Writes limits with `max` in place of the module's own (which it never exceeds). */
function writeLimits(w: Writer, l: Limits, max: number): void {
  w.byte(0x01).u32(l.min).u32(max);
}

function checkParts(m: ModuleParts, capPages: number): string | undefined {
  if (m.memories.length > 1) return 'the module defines several memories; a wasm hook has one';
  const mem = m.memories[0];
  if (mem !== undefined) {
    if (mem.flags & 0x02) return 'the module declares a shared memory; a wasm hook has no threads';
    if (mem.flags & 0x04) return 'the module declares a 64-bit memory, which wasm hooks do not support';
    if (mem.min > capPages)
      return `the module declares a memory of at least ${mem.min * PAGE_BYTES} bytes, above the hook's memory cap of ${capPages * PAGE_BYTES} bytes (memoryBytes)`;
    const exported = m.exports.some((e) => e.kind === 2 && e.name === 'memory' && e.index === 0);
    if (!exported) return 'the module does not export its memory as "memory", which WASI needs';
  }
  for (const t of m.tables)
    if (t.limits.min > MAX_TABLE_ELEMENTS)
      return `the module declares a table of ${t.limits.min} elements, above the ${MAX_TABLE_ELEMENTS} a wasm hook may have`;
  const start = m.exports.find((e) => e.name === '_start');
  if (start === undefined || start.kind !== 0)
    return 'the module exports no "_start" function: a wasm hook is a WASI command module (a program with a main)';
  if (m.exports.some((e) => e.name === FUEL_EXPORT || e.name === GROW_REFUSED_EXPORT))
    return `the module exports "${FUEL_EXPORT}" or "${GROW_REFUSED_EXPORT}", names hookwarden reserves`;
  return undefined;
}

/** A section whose vector gets `extra` entries appended. */
function appended(m: ModuleParts, id: number, extra: (w: Writer) => number): Writer {
  const s = m.sections.find((x) => x.id === id);
  const w = new Writer();
  const tail = new Writer();
  const added = extra(tail);
  if (s === undefined) return w.u32(added).bytes(tail.view());
  const r = new Reader(m.bytes, s.start, s.end);
  const count = r.u32();
  return w
    .u32(count + added)
    .bytes(m.bytes.subarray(r.pos, s.end))
    .bytes(tail.view());
}

/** The import section with the memory appended as an import of `hookwarden.memory`. */
function importsWithMemory(m: ModuleParts, mem: Limits | undefined, capPages: number): Writer | undefined {
  if (mem === undefined) return undefined;
  return appended(m, 2, (w) => {
    w.name(MEMORY_IMPORT[0]).name(MEMORY_IMPORT[1]).byte(2);
    writeLimits(w, mem, Math.min(mem.max ?? capPages, capPages));
    return 1;
  });
}

function rewrite(m: ModuleParts, o: PrepareOptions, capPages: number): Uint8Array {
  const growType = m.types.length;
  const fuelGlobal = m.globals;
  const refusedGlobal = m.globals + 1;
  const growFunction = m.importedFunctions + m.functions;
  const mem = m.memories[0];
  const sections = new Map<number, Writer | undefined>();
  sections.set(
    1,
    appended(m, 1, (w) => {
      w.byte(0x60).u32(1).byte(0x7f).u32(1).byte(0x7f);
      return 1;
    }),
  );
  // The memory becomes an import (still memory 0): the worker hands each call a zeroed one of the
  // declared size, which costs far less than a new memory per instance.
  const imports = importsWithMemory(m, mem, capPages);
  if (imports !== undefined) sections.set(2, imports);
  sections.set(
    3,
    appended(m, 3, (w) => {
      w.u32(growType);
      return 1;
    }),
  );
  sections.set(5, undefined);
  if (m.tables.length > 0) {
    const w = new Writer().u32(m.tables.length);
    for (const t of m.tables)
      writeLimits(
        w.byte(t.refType),
        t.limits,
        Math.min(t.limits.max ?? MAX_TABLE_ELEMENTS, MAX_TABLE_ELEMENTS),
      );
    sections.set(4, w);
  }
  // fuel: mutable i64 (the host sets it before _start); grow refused: mutable i32.
  sections.set(
    6,
    appended(m, 6, (w) => {
      w.byte(0x7e).byte(1).byte(0x42).byte(0).byte(0x0b);
      w.byte(0x7f).byte(1).byte(0x41).byte(0).byte(0x0b);
      return 2;
    }),
  );
  sections.set(
    7,
    appended(m, 7, (w) => {
      w.name(FUEL_EXPORT).byte(3).u32(fuelGlobal);
      w.name(GROW_REFUSED_EXPORT).byte(3).u32(refusedGlobal);
      return 2;
    }),
  );
  const code = m.sections.find((s) => s.id === 10);
  const fuel = o.metered ? fuelGlobal : undefined;
  const [start, end] = code === undefined ? [0, 0] : [code.start, code.end];
  sections.set(10, instrumentCode(m.bytes, start, end, { growFunction, refusedGlobal, fuelGlobal: fuel }));
  const out = new Writer().bytes(m.bytes.subarray(0, 8));
  // Known sections in their order (data count before code); custom sections are left out.
  for (const id of [1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 10, 11]) {
    if (sections.has(id)) {
      const own = sections.get(id);
      if (own !== undefined) out.section(id, own);
      continue;
    }
    const s = m.sections.find((x) => x.id === id);
    if (s !== undefined)
      out
        .byte(id)
        .u32(s.end - s.start)
        .bytes(m.bytes.subarray(s.start, s.end));
  }
  return out.view().slice();
}

/** Checks and rewrites a module's bytes (compiling is the caller's: module-cache.ts). */
export function prepareModule(bytes: Uint8Array, o: PrepareOptions): Prepared {
  const capPages = Math.floor(o.memoryBytes / PAGE_BYTES);
  try {
    const m = readModule(bytes);
    for (const imp of m.imports) {
      const why = refusedImport(imp);
      if (why !== undefined) return refuse(`the module ${why}`, `${imp.module}.${imp.name}`);
    }
    const problem = checkParts(m, capPages);
    if (problem !== undefined) return refuse(problem);
    const mem = m.memories[0];
    const memoryPages =
      mem === undefined ? undefined : { initial: mem.min, maximum: Math.min(mem.max ?? capPages, capPages) };
    return { ok: true, bytes: rewrite(m, o, capPages), memoryPages };
  } catch (err) {
    if (err instanceof ModuleFormatError) return refuse(`the module cannot be read: ${err.message}`);
    throw err;
  }
}
