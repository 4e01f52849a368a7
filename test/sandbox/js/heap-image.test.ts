// Snapshots of a QuickJS module's linear memory (sandbox/js/heap-image.ts), on real modules: the
// layout is found, an image is restored byte for byte whatever was written where, and the probe
// that finds the layout leaves the memory as it found it.
import { describe, expect, it } from 'vitest';
import { detectLayout, layoutOf } from '../../../sandbox/js/heap-image.js';
import { createImagedModule, createQuickJsModule } from '../../../sandbox/js/quickjs-module.js';

type Em = Parameters<typeof detectLayout>[1];
const emOf = (m: { module: unknown }) => (m.module as { module: Em }).module;

describe('heap images', () => {
  it('finds the same layout by probing as the known one, and leaves the memory as it was', async () => {
    const m = await createQuickJsModule(64 << 20);
    const before = Buffer.from(new Uint8Array(m.memory.buffer)).subarray(0, 8 << 20);
    const snapshot = Buffer.from(before);
    const probed = detectLayout(m.memory, emOf(m));
    expect(probed).toEqual(layoutOf(m.memory, emOf(m)));
    expect(
      Buffer.from(new Uint8Array(m.memory.buffer))
        .subarray(0, 8 << 20)
        .equals(snapshot),
    ).toBe(true);
  });

  it('restores an image byte for byte: data, heap, above the break and the stack', async () => {
    const { heap, module } = await createImagedModule(64 << 20);
    const rt = module.newRuntime();
    const ctx = rt.newContext();
    const image = heap.capture(512 * 1024);
    expect(heap.matches(image)).toBe(true);
    // A call's worth of damage: the heap grows, objects are made, the break moves.
    const made = ctx.unwrapResult(
      ctx.evalCode('globalThis.kept = Array.from({ length: 5e4 }, (_, i) => ({ i })); 1'),
    );
    made.dispose();
    expect(heap.brk()).toBeGreaterThan(image.brk);
    const mem = Buffer.from((module as unknown as { module: { HEAPU8: Uint8Array } }).module.HEAPU8.buffer);
    const { stackLow, heapBase } = heap.layout;
    mem.writeUInt8(mem.readUInt8(100) ^ 0xff, 100); // static data
    mem.writeUInt8(mem.readUInt8(heapBase + 64) ^ 0xff, heapBase + 64); // the heap
    mem[heapBase - 4096] = 7; // the dead stack
    mem[image.brk + 1000] = 9; // above the image's break
    expect(heap.matches(image)).toBe(false);
    heap.restore(image, 512 * 1024);
    expect(heap.matches(image)).toBe(true);
    expect(mem[stackLow]).toBe(0);
    // The runtime works from the restored image: what the damage made is gone.
    const r = ctx.unwrapResult(ctx.evalCode('typeof globalThis.kept'));
    expect(ctx.getString(r)).toBe('undefined');
  });
});
