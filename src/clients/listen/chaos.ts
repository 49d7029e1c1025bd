import { Draws } from '../../platform/random';

// Receiver chaos (--drop, --duplicate, --reorder): what a network and a retrying sender do to an
// integrator's app, played on purpose. Every draw comes from a generator seeded by --seed, one
// stream per flag, so a run repeats exactly and adding one flag does not change what another
// does.

export interface ChaosConfig {
  /** --drop: the share of deliveries answered with nothing (the connection closed). */
  drop: number;
  /** --duplicate: the share of forwarded deliveries sent to --forward-to twice. */
  duplicate: number;
  /** --reorder: how many forwards are held and then sent shuffled; 0 is off. */
  reorder: number;
  seed: number;
}

export const NO_CHAOS: ChaosConfig = { drop: 0, duplicate: 0, reorder: 0, seed: 0 };

export const chaosOn = (c: ChaosConfig): boolean => c.drop > 0 || c.duplicate > 0 || c.reorder > 0;

/** True for a share `share` of the calls, in an order `seed` alone decides. */
export function seededShare(flag: string, seed: number, share: number): () => boolean {
  const draws = new Draws(`${flag}:${seed}`);
  // drawn even at 0 and 1, so the stream stays in step with the deliveries it decides
  return () => draws.unit() < share;
}

export type Shuffle = <T>(items: readonly T[]) => T[];

/**
 * Fisher-Yates from a seeded stream. Two or more items never come back in the order given: a
 * batch forwarded as it arrived would test nothing, and --reorder promises another order.
 */
export function seededShuffle(seed: number): Shuffle {
  const draws = new Draws(`reorder:${seed}`);
  return <T>(items: readonly T[]): T[] => {
    for (;;) {
      const out = [...items];
      for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(draws.unit() * (i + 1));
        [out[i], out[j]] = [out[j] as T, out[i] as T];
      }
      if (items.length < 2 || out.some((item, i) => item !== items[i])) {
        return out;
      }
    }
  };
}

/** The banner's line for the chaos flags; undefined when none is on. */
export function describeChaos(c: ChaosConfig): string | undefined {
  if (!chaosOn(c)) {
    return undefined;
  }
  const parts: string[] = [];
  if (c.drop > 0) {
    parts.push(`drop ${c.drop} (no answer: the connection is closed, svc retries)`);
  }
  if (c.duplicate > 0) {
    parts.push(`duplicate ${c.duplicate} of forwards`);
  }
  if (c.reorder > 0) {
    parts.push(`reorder forwards by ${c.reorder}`);
  }
  return `${parts.join(', ')}; seed ${c.seed} (--seed ${c.seed} repeats it)`;
}
