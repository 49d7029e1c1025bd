// Hail is reported in the sizes people measure it by (a penny, a quarter, a golf ball, a
// baseball...), so the model's sizes, radar estimates and ground reports all fall on this scale.
export const HAIL_SIZES = [0.75, 1, 1.25, 1.5, 1.75, 2, 2.5, 2.75, 3, 4, 4.5] as const;

export const SMALLEST_HAIL = 0.75;
export const LARGEST_HAIL = 4.5;

/** The largest reported size not above `inches` (0 below the smallest: no hail worth naming). */
export function sizeAtMost(inches: number): number {
  let out = 0;
  for (const s of HAIL_SIZES) {
    if (s <= inches + 1e-9) {
      out = s;
    }
  }
  return out;
}

/** The reported size nearest `inches`, never below the smallest. */
export function nearestSize(inches: number): number {
  let best: number = SMALLEST_HAIL;
  for (const s of HAIL_SIZES) {
    if (Math.abs(s - inches) < Math.abs(best - inches)) {
      best = s;
    }
  }
  return best;
}

/** One step up or down the scale from a size on it, held within the scale. */
export function sizeStep(size: number, steps: number): number {
  const i = (HAIL_SIZES as readonly number[]).indexOf(size);
  const j = Math.max(0, Math.min(HAIL_SIZES.length - 1, (i < 0 ? 0 : i) + steps));
  return HAIL_SIZES[j] ?? SMALLEST_HAIL;
}
