// The code section of a wasm hook, instrumented at load (once per module digest and limits):
// - every `memory.grow` becomes a call of an added function that grows the memory and, when the
//   growth is refused (the memory is at its cap), sets a global the host reads: a module that then
//   traps or fails ended `memory_limit`, whatever its allocator did with the refusal;
// - with a fuel budget, every function entry and every loop iteration subtracts a fixed cost from a
//   fuel global and traps when it goes below zero. The cost of a check is the number of instructions
//   of its function or loop body outside nested loops: an upper bound of what runs before the next
//   check, the same on every machine and every run.
// Function, type and global indices of the module are unchanged: what is added comes after them.
import { OP, skipImmediates } from './instructions.js';
import { ModuleFormatError, Reader, Writer } from './wasm-bytes.js';

export interface InstrumentOptions {
  /** Index of the added function `(i32) -> i32` that replaces memory.grow. */
  readonly growFunction: number;
  /** Index of the added i32 global set when a growth was refused. */
  readonly refusedGlobal: number;
  /** Index of the added i64 fuel global; undefined: no metering. */
  readonly fuelGlobal: number | undefined;
}

/** Where the writer changes a body: a loop's check, or a memory.grow to replace. */
type Edit =
  | { readonly at: number; readonly kind: 'loop'; readonly cost: number }
  | { readonly at: number; readonly end: number; readonly kind: 'grow' };

/** Walks one body's instructions: where loops begin (and their cost) and memory.grow sits. */
function scanBody(r: Reader): { functionCost: number; edits: Edit[] } {
  const edits: Edit[] = [];
  // Per open block: the index of its loop edit (a loop) or -1; meter counts per open loop.
  const blocks: number[] = [];
  const counts: number[] = [0];
  const costs = new Map<number, number>();
  for (;;) {
    const at = r.pos;
    const op = r.u8();
    counts[counts.length - 1]! += 1;
    skipImmediates(r, op);
    if (op === OP.block || op === OP.if) blocks.push(-1);
    else if (op === OP.loop) {
      blocks.push(edits.length);
      edits.push({ at: r.pos, kind: 'loop', cost: 0 });
      counts.push(0);
    } else if (op === OP.memoryGrow) edits.push({ at, end: r.pos, kind: 'grow' });
    else if (op === OP.end) {
      if (blocks.length === 0) break;
      const loop = blocks.pop()!;
      if (loop >= 0) costs.set(loop, counts.pop()!);
    }
  }
  if (r.pos !== r.end) throw new ModuleFormatError('a function body does not end where its size says');
  return {
    functionCost: counts[0]!,
    edits: edits.map((e, i) => (e.kind === 'loop' ? { ...e, cost: costs.get(i) ?? 1 } : e)),
  };
}

/** The fuel check: fuel -= cost; if fuel < 0, trap. */
function writeCheck(w: Writer, fuel: number, cost: number): void {
  w.byte(OP.globalGet).u32(fuel).byte(OP.i64Const).s64(BigInt(cost)).byte(OP.i64Sub);
  w.byte(OP.globalSet).u32(fuel).byte(OP.globalGet).u32(fuel);
  w.byte(OP.i64Const).s64(0n).byte(OP.i64LtS).byte(OP.if).byte(0x40).byte(OP.unreachable).byte(OP.end);
}

/** `(func (param i32) (result i32) (local i32) memory.grow, and flag a refusal)`. */
function growBody(refused: number): Uint8Array {
  const w = new Writer();
  w.byte(1).byte(1).byte(0x7f); // one local i32
  w.byte(OP.localGet).u32(0).byte(OP.memoryGrow).byte(0).byte(OP.localTee).u32(1);
  w.byte(OP.i32Const).byte(0x7f).byte(OP.i32Eq).byte(OP.if).byte(0x40);
  w.byte(OP.i32Const).byte(1).byte(OP.globalSet).u32(refused).byte(OP.end);
  w.byte(OP.localGet).u32(1).byte(OP.end);
  const body = new Writer();
  return body.u32(w.length).bytes(w.view()).view().slice();
}

function instrumentBody(
  bytes: Uint8Array,
  start: number,
  end: number,
  o: InstrumentOptions,
  out: Writer,
): void {
  const r = new Reader(bytes, start, end);
  for (let groups = r.u32(); groups > 0; groups--) {
    r.u32();
    r.u8();
  }
  const codeStart = r.pos;
  const { functionCost, edits } = scanBody(r);
  const w = new Writer();
  w.bytes(bytes.subarray(start, codeStart));
  if (o.fuelGlobal !== undefined) writeCheck(w, o.fuelGlobal, functionCost);
  let copied = codeStart;
  for (const e of edits) {
    if (e.kind === 'loop' && o.fuelGlobal === undefined) continue;
    w.bytes(bytes.subarray(copied, e.at));
    if (e.kind === 'loop') {
      writeCheck(w, o.fuelGlobal!, e.cost);
      copied = e.at;
    } else {
      w.byte(OP.call).u32(o.growFunction);
      copied = e.end;
    }
  }
  w.bytes(bytes.subarray(copied, end));
  out.u32(w.length).bytes(w.view());
}

/** The instrumented code section's contents: every body, then the added grow function's. */
export function instrumentCode(bytes: Uint8Array, start: number, end: number, o: InstrumentOptions): Writer {
  const r = new Reader(bytes, start, end);
  const count = start === end ? 0 : r.u32();
  const out = new Writer().u32(count + 1);
  for (let i = 0; i < count; i++) {
    const size = r.u32();
    const bodyStart = r.pos;
    r.skip(size);
    instrumentBody(bytes, bodyStart, bodyStart + size, o, out);
  }
  if (!r.done) throw new ModuleFormatError('the code section is longer than its bodies');
  out.bytes(growBody(o.refusedGlobal));
  return out;
}
