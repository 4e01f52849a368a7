// Reading and writing the WebAssembly binary format's primitives: bytes, LEB128 integers, names and
// sections. A reader that runs past its end throws ModuleFormatError, which the module check turns
// into a refusal ("malformed module"), never a crash.

/** A module the binary reader could not read: refused at load with this message. */
export class ModuleFormatError extends Error {
  override readonly name = 'ModuleFormatError';
}

export class Reader {
  pos: number;
  constructor(
    readonly bytes: Uint8Array,
    start = 0,
    readonly end = bytes.length,
  ) {
    this.pos = start;
  }

  get done(): boolean {
    return this.pos >= this.end;
  }

  u8(): number {
    if (this.pos >= this.end) throw new ModuleFormatError(`unexpected end of the module at byte ${this.pos}`);
    return this.bytes[this.pos++]!;
  }

  /** An unsigned LEB128 of at most 32 bits. */
  u32(): number {
    let result = 0;
    let shift = 0;
    for (;;) {
      const b = this.u8();
      if (shift === 28 && b > 0x0f) throw new ModuleFormatError(`integer too large at byte ${this.pos - 1}`);
      result += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return result;
      shift += 7;
    }
  }

  /** Skips a signed LEB128 of at most `bits` bits (i32/i64 constants, block types). */
  skipSigned(bits: 32 | 33 | 64): void {
    const max = Math.ceil(bits / 7);
    for (let i = 0; i < max; i++) if ((this.u8() & 0x80) === 0) return;
    throw new ModuleFormatError(`integer too long at byte ${this.pos - 1}`);
  }

  skip(n: number): void {
    if (n > this.end - this.pos)
      throw new ModuleFormatError(`unexpected end of the module at byte ${this.pos}`);
    this.pos += n;
  }

  /** A name: UTF-8 bytes with their length in front (invalid UTF-8 is refused). */
  name(): string {
    const n = this.u32();
    const start = this.pos;
    this.skip(n);
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(this.bytes.subarray(start, start + n));
    } catch {
      throw new ModuleFormatError(`a name at byte ${start} is not UTF-8`);
    }
  }
}

/** A growable byte buffer for writing a module. */
export class Writer {
  #buf = new Uint8Array(256);
  length = 0;

  #room(n: number): void {
    if (this.length + n <= this.#buf.length) return;
    const next = new Uint8Array(Math.max(this.#buf.length * 2, this.length + n));
    next.set(this.#buf.subarray(0, this.length));
    this.#buf = next;
  }

  byte(b: number): this {
    this.#room(1);
    this.#buf[this.length++] = b;
    return this;
  }

  bytes(b: Uint8Array): this {
    this.#room(b.length);
    this.#buf.set(b, this.length);
    this.length += b.length;
    return this;
  }

  u32(v: number): this {
    do {
      let b = v & 0x7f;
      v = Math.floor(v / 128);
      if (v !== 0) b |= 0x80;
      this.byte(b);
    } while (v !== 0);
    return this;
  }

  /** A signed LEB128 of a 64-bit value. */
  s64(v: bigint): this {
    for (;;) {
      const b = Number(v & 0x7fn);
      v >>= 7n;
      const done = (v === 0n && (b & 0x40) === 0) || (v === -1n && (b & 0x40) !== 0);
      this.byte(done ? b : b | 0x80);
      if (done) return this;
    }
  }

  name(s: string): this {
    const b = new TextEncoder().encode(s);
    return this.u32(b.length).bytes(b);
  }

  /** A section: its id, its size, its contents. */
  section(id: number, contents: Writer): this {
    return this.byte(id).u32(contents.length).bytes(contents.view());
  }

  view(): Uint8Array {
    return this.#buf.subarray(0, this.length);
  }
}

/** The sections of a module, in order, as slices of its bytes. */
export interface Section {
  readonly id: number;
  /** Where the contents start and end (after the id and size). */
  readonly start: number;
  readonly end: number;
}

const MAGIC = [0x00, 0x61, 0x73, 0x6d];

/** Splits a module into its sections; throws ModuleFormatError on a bad header or size. */
export function readSections(bytes: Uint8Array): Section[] {
  if (bytes.length < 8 || MAGIC.some((b, i) => bytes[i] !== b))
    throw new ModuleFormatError('not a WebAssembly module (it does not start with "\\0asm")');
  if (bytes[4] !== 1 || bytes[5] !== 0 || bytes[6] !== 0 || bytes[7] !== 0)
    throw new ModuleFormatError(
      'not a core WebAssembly module of version 1 (a component, or another version)',
    );
  const r = new Reader(bytes, 8);
  const sections: Section[] = [];
  while (!r.done) {
    const id = r.u8();
    const size = r.u32();
    const start = r.pos;
    r.skip(size);
    sections.push({ id, start, end: start + size });
  }
  return sections;
}
