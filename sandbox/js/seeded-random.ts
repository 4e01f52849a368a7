// The guest's Math.random: sfc32, seeded per invocation from sha256(hook id, input), so a hook's
// output is a pure function of its input. The seed is computed on the first draw only (most hooks
// never draw a random number).
import { createHash } from 'node:crypto';

export type Seed = readonly [number, number, number, number];

/** Four 32-bit words of sha256 over `parts` (NUL-separated): a seed. */
export function seedFor(...parts: string[]): Seed {
  const h = createHash('sha256');
  for (const [i, p] of parts.entries()) h.update(i > 0 ? `\0${p}` : p);
  const d = h.digest();
  return [d.readInt32LE(0), d.readInt32LE(4), d.readInt32LE(8), d.readInt32LE(12)];
}

export class Sfc32 {
  #a = 0;
  #b = 0;
  #c = 0;
  #d = 0;
  #seed: (() => Seed) | undefined;
  seedWith(seed: () => Seed): void {
    this.#seed = seed;
  }
  next(): number {
    if (this.#seed !== undefined) {
      [this.#a, this.#b, this.#c, this.#d] = this.#seed();
      this.#seed = undefined;
      for (let i = 0; i < 12; i++) this.#step();
    }
    return this.#step();
  }
  #step(): number {
    const t = (((this.#a + this.#b) | 0) + this.#d) | 0;
    this.#d = (this.#d + 1) | 0;
    this.#a = this.#b ^ (this.#b >>> 9);
    this.#b = (this.#c + (this.#c << 3)) | 0;
    this.#c = (this.#c << 21) | (this.#c >>> 11);
    this.#c = (this.#c + t) | 0;
    return (t >>> 0) / 4294967296;
  }
}
