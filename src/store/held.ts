import type { Store } from './store';
import type { Scope } from './types';

// What is asked of a store as a whole that residency (workspaces away from memory) and several
// nodes (leases) change, apart from the store's own transactions.

/** How many records each of `scopes` holds in `colls`; those away counted in PostgreSQL. */
export async function countsOf(
  store: Store,
  scopes: readonly Scope[],
  colls: readonly string[],
): Promise<(scope: Scope, coll: string) => number> {
  // Memory's counts first: a workspace let go while PostgreSQL counts is counted all the same.
  const counted = new Map<string, number>();
  for (const scope of scopes.filter((s) => !store.isAway(s))) {
    for (const coll of colls) {
      counted.set(`${scope} ${coll}`, store.count(scope, coll));
    }
  }
  const away = scopes.filter((s) => store.isAway(s));
  for (const [key, n] of (await store.residency?.counts(away, colls)) ?? []) {
    counted.set(key, n);
  }
  return (scope, coll) => counted.get(`${scope} ${coll}`) ?? 0;
}

/**
 * Runs `fn` (writes made outside any request or task: a start's seed, a workspace's expiry) under
 * the leases of `scopes` where several nodes serve the store, else at once.
 */
export async function leased<T>(
  store: Store,
  scopes: readonly Scope[],
  fn: () => T | Promise<T>,
): Promise<T> {
  const release = await store.cluster?.begin(scopes, scopes);
  try {
    return await fn();
  } finally {
    release?.();
  }
}
