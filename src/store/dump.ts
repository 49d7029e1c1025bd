import type { Store } from './store';
import type { Rec, Scope } from './types';

/** A scope's records by collection, as committed (shared, not copied: records are immutable). */
export function dumpScope(store: Store, scope: Scope): Record<string, Rec[]> {
  const out: Record<string, Rec[]> = {};
  for (const name of store.collections(scope)) {
    out[name] = [...store.values(scope, name)];
  }
  return out;
}
