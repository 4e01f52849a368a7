// One QuickJS WebAssembly module per worker thread, on a fixed-maximum WebAssembly.Memory: the only
// hard memory cap (QuickJS's setMemoryLimit is a soft, per-runtime limit that large allocations slip
// past). The sync release build of bellard's QuickJS: the asyncify builds overflow the host stack.
// Its linear memory is laid out once (heap-image.ts), so hook sandboxes can be snapshotted and restored.
import RELEASE_SYNC_IMPORT from '@jitl/quickjs-wasmfile-release-sync';
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSSyncVariant,
  type QuickJSWASMModule,
} from 'quickjs-emscripten-core';
import { LinearMemory, layoutOf } from './heap-image.js';
import { emscriptenOf } from './quickjs-internals.js';

// The package's types describe its CommonJS build (`{ default: variant }`); Node's ESM build
// exports the variant itself. Accept both.
const RELEASE_SYNC = ((RELEASE_SYNC_IMPORT as { default?: QuickJSSyncVariant }).default ??
  RELEASE_SYNC_IMPORT) as QuickJSSyncVariant;

const PAGE = 64 * 1024;
/** Initial heap: 16 MiB, mostly untouched. */
const INITIAL_PAGES = 256;

export interface QuickJsModule {
  readonly module: QuickJSWASMModule;
  readonly memory: WebAssembly.Memory;
  /** The hard cap of the heap, in bytes. */
  readonly ceilingBytes: number;
}

/** A module whose linear memory is laid out, so sandboxes can be snapshotted and restored. */
export interface ImagedModule extends QuickJsModule {
  readonly heap: LinearMemory;
}

/** The initial size of a module's memory (it grows on demand up to the ceiling, and never shrinks). */
export const INITIAL_HEAP_BYTES = INITIAL_PAGES * PAGE;

export async function createQuickJsModule(ceilingBytes: number): Promise<QuickJsModule> {
  const maximum = Math.max(INITIAL_PAGES, Math.ceil(ceilingBytes / PAGE));
  const memory = new WebAssembly.Memory({ initial: INITIAL_PAGES, maximum });
  const module = await newQuickJSWASMModuleFromVariant(newVariant(RELEASE_SYNC, { wasmMemory: memory }));
  return { module, memory, ceilingBytes: maximum * PAGE };
}

/** A fresh module with its memory's layout detected (before anything else runs in it). */
export async function createImagedModule(ceilingBytes: number): Promise<ImagedModule> {
  const m = await createQuickJsModule(ceilingBytes);
  // quickjs-emscripten keeps the emscripten module private; its malloc is needed once, for the layout.
  return { ...m, heap: new LinearMemory(m.memory, layoutOf(m.memory, emscriptenOf(m.module))) };
}
