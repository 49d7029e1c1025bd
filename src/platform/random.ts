// Seeded draws, never Math.random: the storm model's same day always holds the same storms, on any
// machine, in any order of asking, and svc webhook listen's chaos repeats under the same --seed.
// sha256 (hail's geo.ts unitOf) would do, but a year of storms draws some hundred thousand numbers.

/** A 32-bit hash of a text (FNV-1a, then a murmur3 finaliser to spread close texts apart). */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A stream of numbers that its seed text alone decides (sfc32). */
export class Draws {
  #a: number;
  #b: number;
  #c: number;
  #d: number;

  constructor(seed: string) {
    this.#a = hash32(`a:${seed}`);
    this.#b = hash32(`b:${seed}`);
    this.#c = hash32(`c:${seed}`);
    this.#d = hash32(`d:${seed}`) | 1;
    for (let i = 0; i < 12; i++) {
      this.unit(); // the first few outputs of sfc32 still show the seed
    }
  }

  /** A number in [0, 1). */
  unit(): number {
    const t = (((this.#a + this.#b) | 0) + this.#d) | 0;
    this.#d = (this.#d + 1) | 0;
    this.#a = this.#b ^ (this.#b >>> 9);
    this.#b = (this.#c + (this.#c << 3)) | 0;
    this.#c = (this.#c << 21) | (this.#c >>> 11);
    this.#c = (this.#c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  between(low: number, high: number): number {
    return low + (high - low) * this.unit();
  }

  /** A standard normal number (Box-Muller). */
  normal(): number {
    const u = 1 - this.unit();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.unit());
  }

  /** A Poisson count of mean `mean` (Knuth's method: the means here are small). */
  poisson(mean: number): number {
    if (mean <= 0) {
      return 0;
    }
    const limit = Math.exp(-Math.min(mean, 60));
    let k = 0;
    let p = this.unit();
    while (p > limit) {
      k++;
      p *= this.unit();
    }
    return k;
  }

  /** An index drawn in proportion to its weight. */
  pick(weights: readonly number[]): number {
    const total = weights.reduce((s, w) => s + w, 0);
    let r = this.unit() * total;
    for (let i = 0; i < weights.length; i++) {
      r -= weights[i] ?? 0;
      if (r < 0) {
        return i;
      }
    }
    return weights.length - 1;
  }
}
