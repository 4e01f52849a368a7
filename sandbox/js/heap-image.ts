// Snapshots of a QuickJS module's WebAssembly linear memory, and their restoration: how a JS hook
// starts every call from the same state without building a runtime, a context and its module again
// (the approach of Wizer and Shopify Functions). The emscripten build's layout (release-sync:
// STACK_SIZE 5 MiB, dlmalloc, which never gives memory back to sbrk):
//
//   [0, stackLow)          static data and bss: the allocator's state and the break (sbrk) word
//   [stackLow, heapBase)   the C stack, growing down from heapBase; dead whenever no call runs
//   [heapBase, brk)        the malloc heap
//   [brk, byteLength)      never handed out
//
// An image holds [0, stackLow) and [heapBase, brk) as they were when it was taken. Restoring it copies
// both back, zeroes what a call took above the image's break, and zeroes the stack a call dirtied: the
// memory is then byte for byte what it was (in every image the dead stack and the top are zero).
// The JavaScript side of the module (emscripten's heap views, quickjs-emscripten's wrappers) holds
// only pointers into the image and is kept consistent by sandbox.ts.

/** The C stack size of the build (`-s STACK_SIZE=5MB` in quickjs-emscripten's variant Makefile). */
const STACK_BYTES = 5 * 1024 * 1024;
const PAGE = 4096;
/** Clean stack pages in a row after which the scan for a call's dirty stack stops. */
const CLEAN_PAGES_TO_STOP = 4;
/** Around the guest stack limit: a stack overflow always writes here (see stackReachedLimit). */
const LIMIT_WINDOW = 32 * 1024;
const ZERO_PAGE = Buffer.alloc(PAGE);
/** Static data is compared in chunks of this size and only differing chunks are copied. */
const DATA_CHUNK = 16 * 1024;

export interface HeapLayout {
  /** Address of the break (sbrk) word. */
  readonly brkAddress: number;
  /** Start of the malloc heap, which is also the top of the C stack. */
  readonly heapBase: number;
  /** Bottom of the C stack: static data and bss lie below. */
  readonly stackLow: number;
}

/** A snapshot of the live parts of the linear memory. */
export interface HeapImage {
  readonly data: Buffer;
  readonly heap: Buffer;
  readonly brk: number;
  /** Bytes this image holds (what an image cache counts). */
  readonly bytes: number;
}

/** The emscripten module's allocator (quickjs-internals.ts reaches it). */
export type Malloc = { _malloc(n: number): number; _free(p: number): void };

/**
 * The layout detectLayout finds in @jitl/quickjs-wasmfile-release-sync 0.32.0, and where dlmalloc
 * keeps its footprint (break − heap base) there: used when both words agree, which spares a new
 * worker the probe (~40 ms of a cold start on a busy machine).
 */
const KNOWN = { brkAddress: 86864, heapBase: 5333088, stackLow: 90208, footprintAddress: 88692 } as const;

/** The module's layout: the known one when the memory agrees with it, else detected. */
export function layoutOf(memory: WebAssembly.Memory, em: Malloc): HeapLayout {
  const words = new Uint32Array(memory.buffer, 0, KNOWN.stackLow >> 2);
  const brk = words[KNOWN.brkAddress >> 2]!;
  const agrees =
    brk > KNOWN.heapBase &&
    brk <= memory.buffer.byteLength &&
    words[KNOWN.footprintAddress >> 2] === brk - KNOWN.heapBase;
  if (!agrees) return detectLayout(memory, em);
  const { brkAddress, heapBase, stackLow } = KNOWN;
  return { brkAddress, heapBase, stackLow };
}

/**
 * Finds the layout of a freshly instantiated module by allocating a block larger than anything free:
 * the break word is the one that grows past it, and dlmalloc's footprint (break − heap base) grows
 * with it. The memory is put back as it was. Throws when the build is not laid out as expected.
 */
export function detectLayout(memory: WebAssembly.Memory, em: Malloc): HeapLayout {
  const probeBytes = 2 * 1024 * 1024;
  const scanBytes = 1024 * 1024;
  const before = Buffer.from(new Uint8Array(memory.buffer, 0, Math.min(memory.buffer.byteLength, 8 << 20)));
  const words = () => new Uint32Array(memory.buffer, 0, scanBytes / 4);
  const w0 = words().slice();
  const p = em._malloc(probeBytes);
  const w1 = words().slice();
  em._free(p);
  let brkAddress = -1;
  for (let i = 0; i < w0.length; i++) {
    const grew = w1[i]! - w0[i]!;
    // The break grows by the probe less what was free at the top; the top chunk's pointer grows too.
    if (
      grew >= probeBytes / 2 &&
      w1[i]! >= p + probeBytes &&
      (brkAddress < 0 || w1[i]! > w1[brkAddress / 4]!)
    )
      brkAddress = i * 4;
  }
  const fail = (why: string): never => {
    throw new Error(
      `this QuickJS build is not laid out as hookwarden expects (${why}); use @jitl/quickjs-wasmfile-release-sync 0.32.0`,
    );
  };
  if (brkAddress < 0) fail('no break word');
  const brk0 = w0[brkAddress / 4]!;
  const delta = w1[brkAddress / 4]! - brk0;
  let heapBase = -1;
  for (let i = 0; i < w0.length; i++) {
    if (i * 4 !== brkAddress && w1[i]! - w0[i]! === delta && w0[i]! < brk0) heapBase = brk0 - w0[i]!;
  }
  const stackLow = heapBase - STACK_BYTES;
  if (heapBase < 0 || heapBase % 16 !== 0 || stackLow <= brkAddress || brk0 > before.length)
    fail('no heap base below the break');
  // Put everything back: the allocator's state, the chunk headers the probe wrote, the break.
  const bytes = Buffer.from(memory.buffer);
  before.copy(bytes, 0);
  bytes.fill(0, before.length, Math.min(bytes.length, brk0 + delta + PAGE));
  return { brkAddress, heapBase, stackLow };
}

/**
 * The linear memory of one QuickJS module: the break, images and their restoration, and two facts
 * the host observes itself while a hook runs (a refused growth, a stack that reached its limit).
 */
export class LinearMemory {
  readonly layout: HeapLayout;
  readonly #memory: WebAssembly.Memory;
  #bytes: Buffer;
  #words: Uint32Array;
  /** Invariant between calls: [zeroFrom, byteLength) is all zero. */
  #zeroFrom: number;
  #growRefused = false;

  constructor(memory: WebAssembly.Memory, layout: HeapLayout) {
    this.#memory = memory;
    this.layout = layout;
    this.#bytes = Buffer.from(memory.buffer);
    this.#words = new Uint32Array(memory.buffer);
    this.#zeroFrom = this.brk();
    // emscripten grows the heap through this object; a refusal at the maximum is a host-side fact.
    const grow = memory.grow.bind(memory);
    memory.grow = (pages: number) => {
      try {
        return grow(pages);
      } catch (err) {
        this.#growRefused = true;
        throw err;
      }
    };
  }

  #view(): Buffer {
    if (this.#bytes.buffer !== this.#memory.buffer) {
      this.#bytes = Buffer.from(this.#memory.buffer);
      this.#words = new Uint32Array(this.#memory.buffer);
    }
    return this.#bytes;
  }

  get byteLength(): number {
    return this.#memory.buffer.byteLength;
  }

  /** The current break: the top of the heap (it only grows while a call runs). */
  brk(): number {
    this.#view();
    return this.#words[this.layout.brkAddress >> 2]!;
  }

  /** Whether the memory refused to grow (the module's hard cap) since the last `resetFacts`. */
  get growRefused(): boolean {
    return this.#growRefused;
  }

  resetFacts(): void {
    this.#growRefused = false;
  }

  /**
   * Whether the last call's stack came within reach of the guest stack limit (`maxStackBytes` below
   * the stack's top): QuickJS throws its stack overflow only there, so a genuine one writes here.
   */
  stackReachedLimit(maxStackBytes: number): boolean {
    const [from, to] = this.#limitWindow(maxStackBytes);
    return !this.#isZero(from, to);
  }

  #limitWindow(maxStackBytes: number): [number, number] {
    const limit = this.layout.heapBase - maxStackBytes;
    return [
      Math.max(this.layout.stackLow, limit - LIMIT_WINDOW),
      Math.max(this.layout.stackLow, limit + LIMIT_WINDOW),
    ];
  }

  #isZero(from: number, to: number): boolean {
    const m = this.#view();
    for (let p = from; p < to; p += PAGE) {
      const q = Math.min(to, p + PAGE);
      if (m.compare(ZERO_PAGE, 0, q - p, p, q) !== 0) return false;
    }
    return true;
  }

  /**
   * Zeroes the stack a call dirtied: pages from the top down until a few clean ones in a row (a
   * frame leaves no such gap), and always the window around the guest stack limit.
   */
  #zeroStack(maxStackBytes: number): void {
    const m = this.#view();
    const { heapBase, stackLow } = this.layout;
    let clean = 0;
    for (let p = heapBase - PAGE; p >= stackLow && clean < CLEAN_PAGES_TO_STOP; p -= PAGE) {
      if (m.compare(ZERO_PAGE, 0, PAGE, p, p + PAGE) === 0) clean++;
      else {
        m.fill(0, p, p + PAGE);
        clean = 0;
      }
    }
    const [from, to] = this.#limitWindow(maxStackBytes);
    if (!this.#isZero(from, to)) m.fill(0, from, to);
  }

  /** Zeroes what lies above the break (a call's leftovers) and the dirty stack. */
  #tidy(maxStackBytes: number, brk: number): void {
    const top = Math.max(this.#zeroFrom, this.brk());
    if (top > brk) this.#view().fill(0, brk, top);
    this.#zeroFrom = brk;
    this.#zeroStack(maxStackBytes);
  }

  /** Takes an image of the memory as it is now (no call may be running). */
  capture(maxStackBytes: number): HeapImage {
    const brk = this.brk();
    this.#tidy(maxStackBytes, brk);
    const m = this.#view();
    const data = Buffer.from(m.subarray(0, this.layout.stackLow));
    const heap = Buffer.from(m.subarray(this.layout.heapBase, brk));
    return { data, heap, brk, bytes: data.length + heap.length };
  }

  /**
   * Whether the memory is byte for byte `image`: its data and heap, and zero in the dead stack and
   * above its break (costs a scan of the whole memory: for tests and leak checks).
   */
  matches(image: HeapImage): boolean {
    const m = this.#view();
    const { stackLow, heapBase } = this.layout;
    return (
      this.brk() === image.brk &&
      m.compare(image.data, 0, image.data.length, 0, stackLow) === 0 &&
      m.compare(image.heap, 0, image.heap.length, heapBase, image.brk) === 0 &&
      this.#isZero(stackLow, heapBase) &&
      this.#isZero(image.brk, m.length)
    );
  }

  /** Puts `image` back: afterwards the memory is byte for byte what it was when it was taken. */
  restore(image: HeapImage, maxStackBytes: number): void {
    // Everything a call took lies below the higher of the two breaks: read it before the copy.
    this.#zeroFrom = Math.max(this.#zeroFrom, this.brk());
    const m = this.#view();
    // A call writes little static data (the allocator's state, the break): compare before copying.
    // The heap's dirty bytes are everywhere (reference counts): copying it whole is faster.
    const { data } = image;
    for (let p = 0; p < data.length; p += DATA_CHUNK) {
      const q = Math.min(data.length, p + DATA_CHUNK);
      if (m.compare(data, p, q, p, q) !== 0) data.copy(m, p, p, q);
    }
    image.heap.copy(m, this.layout.heapBase);
    this.#tidy(maxStackBytes, image.brk);
  }
}
