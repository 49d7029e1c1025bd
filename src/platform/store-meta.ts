import { randomBytes } from 'node:crypto';
import { catchUpDue } from '../residency';
import type { Rec, Store } from '../store';
import type { Runtime } from './runtime';

// What a data file knows about itself beside its records (its cursor secret, where its clock
// stands, how it was seeded), and the one move that changes where the clock stands.

/** What a data file knows about itself, beside its records. */
export type StoreMeta = Rec & {
  id: 'store';
  /** Seals cursors, so cursors stay valid across restarts of the same data file. */
  secret: string;
  clock_offset_ms: number;
  /** How `svc seed` made the file: the banner re-derives the demo keys from it. */
  seeded: { seed: number; profile: string } | null;
};

declare module '../store/collections' {
  interface GlobalCollections {
    meta: StoreMeta;
  }
}

export function storeMeta(store: Store): StoreMeta {
  const existing = store.global.get('meta', 'store');
  if (existing) {
    return existing;
  }
  return store.transaction((tx) =>
    tx.global.put('meta', {
      id: 'store',
      secret: randomBytes(32).toString('hex'),
      clock_offset_ms: 0,
      seeded: null,
    }),
  );
}

/** Moves the clock (running what falls due on the way) and remembers where it stands. */
export async function advanceClock(rt: Runtime, targetMs: number): Promise<void> {
  // Work due in a workspace not parsed yet (a purge, a retry) must be known before time moves.
  rt.store.parseAll();
  // On PostgreSQL, a workspace whose next work was not known is loaded once to learn it.
  await rt.store.residency?.surveying;
  // With several nodes, work another node scheduled is known here before time moves.
  await catchUpDue(rt, targetMs - rt.clock.nowMs());
  await rt.scheduler.advanceTo(targetMs);
  const offset = rt.clock.offsetMs;
  rt.store.transaction((tx) => {
    const meta = tx.global.get('meta', 'store');
    if (meta) {
      tx.global.put('meta', { ...meta, clock_offset_ms: offset });
    }
  });
  await rt.store.sync();
}
