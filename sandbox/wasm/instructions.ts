// The instruction set a wasm hook may use, and the size of each instruction's immediates: what the
// instrumenter (instrument.ts) needs to walk a function body. WebAssembly 2.0 (MVP, sign extension,
// saturating conversions, multi-value, bulk memory, reference types, SIMD) and tail calls. An opcode
// outside it (threads and atomics, exceptions, garbage collection, several memories) is refused at
// load: an allow-list, so a module never runs code the meter has not read.
import { ModuleFormatError, type Reader } from './wasm-bytes.js';

export const OP = Object.freeze({
  unreachable: 0x00,
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  else: 0x05,
  end: 0x0b,
  call: 0x10,
  globalGet: 0x23,
  globalSet: 0x24,
  localGet: 0x20,
  localTee: 0x22,
  i32Const: 0x41,
  i64Const: 0x42,
  i32Eq: 0x46,
  i64LtS: 0x53,
  i64Sub: 0x7d,
  memoryGrow: 0x40,
  prefixFc: 0xfc,
  prefixFd: 0xfd,
});

/** Why an opcode is refused, by the feature it belongs to. */
const REFUSED: Readonly<Record<number, string>> = {
  6: 'exceptions (try)',
  7: 'exceptions (catch)',
  8: 'exceptions (throw)',
  9: 'exceptions (rethrow)',
  10: 'exceptions (throw_ref)',
  24: 'exceptions (delegate)',
  25: 'exceptions (catch_all)',
  31: 'exceptions (try_table)',
  251: 'garbage collection',
  254: 'threads and atomics',
};

/** A block type: empty, one value type, or a type index (a signed LEB of 33 bits). */
function skipBlockType(r: Reader): void {
  const b = r.bytes[r.pos];
  if (b === 0x40 || (b !== undefined && b >= 0x6f && b <= 0x7f)) r.pos++;
  else r.skipSigned(33);
}

/** A memory argument: alignment and offset; refused when it names a memory other than the first. */
function skipMemArg(r: Reader): void {
  const align = r.u32();
  if (align & 0x40)
    throw new ModuleFormatError('the module uses several memories, which wasm hooks do not support');
  r.u32();
}

/** A memory index immediate: only memory 0 exists. */
function memIndex(r: Reader): void {
  if (r.u32() !== 0)
    throw new ModuleFormatError('the module uses several memories, which wasm hooks do not support');
}

function skipFc(r: Reader, sub: number): void {
  if (sub <= 7) return; // saturating float-to-int conversions
  switch (sub) {
    case 8: // memory.init
      r.u32();
      memIndex(r);
      return;
    case 9: // data.drop
    case 13: // elem.drop
    case 15: // table.grow
    case 16: // table.size
    case 17: // table.fill
      r.u32();
      return;
    case 10: // memory.copy
      memIndex(r);
      memIndex(r);
      return;
    case 11: // memory.fill
      memIndex(r);
      return;
    case 12: // table.init
    case 14: // table.copy
      r.u32();
      r.u32();
      return;
  }
  throw new ModuleFormatError(`the module uses instruction 0xfc ${sub}, which wasm hooks do not support`);
}

function skipFd(r: Reader, sub: number): void {
  // loads, store, load_zero
  if (sub <= 11 || sub === 92 || sub === 93) {
    skipMemArg(r);
    return;
  }
  // v128.const, i8x16.shuffle
  if (sub === 12 || sub === 13) {
    r.skip(16);
    return;
  }
  // extract/replace lane
  if (sub >= 21 && sub <= 34) {
    r.skip(1);
    return;
  }
  if (sub >= 84 && sub <= 91) {
    skipMemArg(r); // load/store lane
    r.skip(1);
    return;
  }
  if (sub <= 0x113) return; // every other SIMD instruction (relaxed SIMD included) has no immediates
  throw new ModuleFormatError(`the module uses instruction 0xfd ${sub}, which wasm hooks do not support`);
}

/**
 * Skips the immediates of `op` (already read; for 0xfc/0xfd the sub-opcode is read here). Throws
 * ModuleFormatError for an instruction outside the supported set.
 */
export function skipImmediates(r: Reader, op: number): void {
  if (op <= 0x01 || op === 0x05 || op === 0x0b || op === 0x0f || op === 0x1a || op === 0x1b) return;
  if (op >= 0x45 && op <= 0xc4) return; // numeric instructions, sign extension
  if (op >= 0x02 && op <= 0x04) {
    skipBlockType(r);
    return;
  }
  const refused = REFUSED[op];
  if (refused !== undefined)
    throw new ModuleFormatError(`the module uses ${refused}, which wasm hooks do not support`);
  switch (op) {
    case 0x0c: // br
    case 0x0d: // br_if
    case 0x10: // call
    case 0x12: // return_call
    case 0x20: // local.get
    case 0x21: // local.set
    case 0x22: // local.tee
    case 0x23: // global.get
    case 0x24: // global.set
    case 0x25: // table.get
    case 0x26: // table.set
    case 0xd2: // ref.func
      r.u32();
      return;
    case 0x0e: {
      // br_table
      const n = r.u32();
      for (let i = 0; i <= n; i++) r.u32();
      return;
    }
    case 0x11: // call_indirect
    case 0x13: // return_call_indirect
      r.u32();
      r.u32();
      return;
    case 0x1c: {
      // select with types
      const n = r.u32();
      r.skip(n);
      return;
    }
    case 0x3f: // memory.size
    case 0x40: // memory.grow
      memIndex(r);
      return;
    case 0x41:
      r.skipSigned(32);
      return;
    case 0x42:
      r.skipSigned(64);
      return;
    case 0x43:
      r.skip(4);
      return;
    case 0x44:
      r.skip(8);
      return;
    case 0xd0: // ref.null
      r.skip(1);
      return;
    case 0xd1: // ref.is_null
      return;
    case 0xfc:
      skipFc(r, r.u32());
      return;
    case 0xfd:
      skipFd(r, r.u32());
      return;
  }
  if (op >= 0x28 && op <= 0x3e) {
    skipMemArg(r);
    return;
  } // loads and stores
  throw new ModuleFormatError(
    `the module uses opcode 0x${op.toString(16).padStart(2, '0')}, which wasm hooks do not support`,
  );
}
