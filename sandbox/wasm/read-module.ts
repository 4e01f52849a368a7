// What the module check needs from a module's sections: its function types, imports, tables,
// memory, globals, exports and code, read without running anything. Custom sections (names, debug
// information) are skipped; an unknown section is refused.
import { ModuleFormatError, Reader, readSections, type Section } from './wasm-bytes.js';

export interface Limits {
  readonly min: number;
  readonly max: number | undefined;
  /** The flags byte (shared, 64-bit memories are refused by the check). */
  readonly flags: number;
}

interface ModuleImport {
  readonly module: string;
  readonly name: string;
  /** 0 function, 1 table, 2 memory, 3 global, 4 tag. */
  readonly kind: number;
  /** A function's signature, e.g. `i32,i32->i32`. */
  readonly signature?: string;
}

interface ModuleExport {
  readonly name: string;
  readonly kind: number;
  readonly index: number;
}

export interface ModuleParts {
  readonly bytes: Uint8Array;
  readonly sections: readonly Section[];
  readonly types: readonly string[];
  readonly imports: readonly ModuleImport[];
  readonly importedFunctions: number;
  /** Defined functions (the function section's length). */
  readonly functions: number;
  readonly tables: readonly { readonly refType: number; readonly limits: Limits }[];
  readonly memories: readonly Limits[];
  readonly globals: number;
  readonly exports: readonly ModuleExport[];
}

const VALTYPES: Readonly<Record<number, string>> = {
  127: 'i32',
  126: 'i64',
  125: 'f32',
  124: 'f64',
  123: 'v128',
  112: 'funcref',
  111: 'externref',
};

function valType(r: Reader): string {
  const b = r.u8();
  const t = VALTYPES[b];
  if (t === undefined)
    throw new ModuleFormatError(`value type 0x${b.toString(16)} is not supported in wasm hooks`);
  return t;
}

function readLimits(r: Reader): Limits {
  const flags = r.u8();
  if (flags > 0x07) throw new ModuleFormatError(`bad limits flags 0x${flags.toString(16)}`);
  if (flags & 0x04) r.skipSigned(64); // a 64-bit memory's minimum (refused by the check)
  const min = flags & 0x04 ? Number.MAX_SAFE_INTEGER : r.u32();
  const max = flags & 0x01 ? (flags & 0x04 ? Number.MAX_SAFE_INTEGER : r.u32()) : undefined;
  return { min, max, flags };
}

function readTypes(r: Reader): string[] {
  const out: string[] = [];
  for (let n = r.u32(); n > 0; n--) {
    const form = r.u8();
    if (form !== 0x60)
      throw new ModuleFormatError('the module uses type forms beyond functions (garbage collection)');
    const params = Array.from({ length: r.u32() }, () => valType(r));
    const results = Array.from({ length: r.u32() }, () => valType(r));
    out.push(`${params.join(',')}->${results.join(',')}`);
  }
  return out;
}

function readImports(r: Reader, types: readonly string[]): ModuleImport[] {
  const out: ModuleImport[] = [];
  for (let n = r.u32(); n > 0; n--) {
    const module = r.name();
    const name = r.name();
    const kind = r.u8();
    if (kind === 0) {
      const t = r.u32();
      out.push({ module, name, kind, signature: types[t] ?? `type ${t}` });
      continue;
    }
    if (kind === 1) {
      r.u8();
      readLimits(r);
    } else if (kind === 2) readLimits(r);
    else if (kind === 3) r.skip(2);
    else if (kind === 4) r.skip(2);
    else throw new ModuleFormatError(`bad import kind ${kind}`);
    out.push({ module, name, kind });
  }
  return out;
}

/** Reads a module's parts; throws ModuleFormatError for what it cannot read. */
export function readModule(bytes: Uint8Array): ModuleParts {
  const sections = readSections(bytes);
  let types: string[] = [];
  let imports: ModuleImport[] = [];
  let functions = 0;
  const tables: { refType: number; limits: Limits }[] = [];
  const memories: Limits[] = [];
  let globals = 0;
  const exports: ModuleExport[] = [];
  let last = 0;
  for (const s of sections) {
    if (s.id !== 0) {
      if (s.id > 12) throw new ModuleFormatError(`section ${s.id} is not supported in wasm hooks`);
      // Every known section appears once, in the standard order (data count sits before code).
      const rank = s.id === 12 ? 9.5 : s.id;
      if (rank <= last) throw new ModuleFormatError(`section ${s.id} is out of order or repeated`);
      last = rank;
    }
    const r = new Reader(bytes, s.start, s.end);
    if (s.id === 1) types = readTypes(r);
    else if (s.id === 2) imports = readImports(r, types);
    else if (s.id === 3) functions = r.u32();
    else if (s.id === 4)
      for (let n = r.u32(); n > 0; n--) tables.push({ refType: r.u8(), limits: readLimits(r) });
    else if (s.id === 5) for (let n = r.u32(); n > 0; n--) memories.push(readLimits(r));
    else if (s.id === 6) globals = r.u32();
    else if (s.id === 7)
      for (let n = r.u32(); n > 0; n--) exports.push({ name: r.name(), kind: r.u8(), index: r.u32() });
  }
  const importedFunctions = imports.filter((i) => i.kind === 0).length;
  return {
    bytes,
    sections,
    types,
    imports,
    importedFunctions,
    functions,
    tables,
    memories,
    globals,
    exports,
  };
}
