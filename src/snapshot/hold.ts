import type { Runtime } from '../platform/runtime';

// On PostgreSQL, whose workspaces load when first used (store/residency.ts), a restore checks its
// records' ids and homeowner links against every other workspace's: those workspaces holding one of
// them are loaded first. Elsewhere this holds nothing.

type Records = Readonly<Record<string, readonly Readonly<Record<string, unknown>>[] | undefined>>;

/** Loads and holds workspace `wsId` and every workspace holding a record `collections` names. */
export function holdClaimed(rt: Runtime, wsId: string, collections: Records): Promise<() => void> {
  const residency = rt.store.residency;
  if (residency === undefined) {
    return Promise.resolve(() => {});
  }
  const names = [wsId];
  for (const records of Object.values(collections)) {
    for (const rec of records ?? []) {
      for (const name of [rec.id, rec.portal_token]) {
        if (typeof name === 'string') {
          names.push(name, name.toLowerCase());
        }
      }
    }
  }
  return residency.holdNamed(names);
}

/** Loads and holds every workspace (a whole-store snapshot taken, or put back: `write`). */
export function holdEvery(rt: Runtime, write = false): Promise<() => void> {
  const residency = rt.store.residency;
  return (
    residency?.holdAll(rt.store.scopes(), { global: true, lease: write ? 'all' : undefined }) ??
    Promise.resolve(() => {})
  );
}
