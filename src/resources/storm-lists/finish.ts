import type { DueWork } from '../../platform/family';
import { newId } from '../../platform/ids';
import type { TxScope, WorkspaceCollections } from '../../store';
import { type Geography, geography } from '../common/geo';
import { addressKey, buildList, propertyOf } from './build';
import type { StormList, StormListProperty } from './schema';

// A build finishing on the clock (decisions: storm lists): the list with its figures and its
// properties, written in one transaction, duplicates of recent lists left out.

const DAY_MS = 86_400_000;

/** The address keys on the workspace's lists built within `days` before `nowMs`. */
export function recentKeys(
  lists: Iterable<StormList>,
  properties: Iterable<StormListProperty>,
  days: number,
  nowMs: number,
): Set<string> {
  const keys = new Set<string>();
  if (days <= 0) {
    return keys;
  }
  const since = nowMs - days * DAY_MS;
  const recent = new Set<string>();
  for (const l of lists) {
    if (l.built_at !== null && Date.parse(l.built_at) >= since) {
      recent.add(l.id);
    }
  }
  if (recent.size === 0) {
    return keys;
  }
  for (const p of properties) {
    if (recent.has(p.storm_list_id)) {
      keys.add(addressKey(p.address, p.zip));
    }
  }
  return keys;
}

/**
 * Finishes a build: the list with its figures and its properties, written together. `ids` makes
 * the ids (the seeder draws its own); `write` stores each property.
 */
export function finishBuild(
  list: StormList,
  geo: Geography,
  taken: ReadonlySet<string>,
  now: string,
  ids: () => string,
  write: (p: StormListProperty) => void,
): StormList {
  const built = buildList(list, geo, taken);
  for (const found of built.kept) {
    write(propertyOf(found, list.id, ids(), now, geo));
  }
  return {
    ...list,
    status: built.status,
    clipped_area_sq_mi: built.clipped_area_sq_mi,
    property_count: built.kept.length,
    skipped_duplicates: built.skipped_duplicates,
    // decisions: one data credit per property on the list; duplicates and failures cost none.
    credits_spent: built.kept.length,
    total_available: built.total_available,
    storm_date: built.storm_date,
    built_at: now,
    updated_at: now,
    build_due_at: null,
  };
}

// The geography, once loaded: due work runs synchronously inside a transaction.
let loadedGeo: Geography | undefined;
const geoNow = (): Geography | undefined => {
  if (loadedGeo === undefined) {
    void geography().then((g) => {
      loadedGeo = g;
    });
  }
  return loadedGeo;
};

/** Routes that take a build request load the geography first. */
export async function readyGeography(): Promise<Geography> {
  loadedGeo ??= await geography();
  return loadedGeo;
}

/** A building list's time came: it finishes, or, the geography still loading, waits. */
export function finishOrWait(
  ws: TxScope<WorkspaceCollections>,
  list: StormList,
  now: string,
  geo: Geography | undefined,
): void {
  if (geo === undefined) {
    // Still loading (a list left building by the last run, due at once after a start): look
    // again later, each time twice as late, so that a clock moved far ahead before the load
    // ends tries a few times, not once a second all the way.
    const waited = Date.parse(now) - Date.parse(list.created_at);
    ws.put('storm_lists', {
      ...list,
      build_due_at: new Date(Date.parse(now) + Math.max(1000, waited)).toISOString(),
    });
    return;
  }
  const taken = recentKeys(
    ws.all('storm_lists').filter((l) => l.id !== list.id),
    ws.all('storm_list_properties'),
    list.dedupe_days,
    Date.parse(now),
  );
  ws.put(
    'storm_lists',
    finishBuild(list, geo, taken, now, newId, (p) => ws.put('storm_list_properties', p)),
  );
}

/** A building list finishes when its time comes on the clock. */
export const stormListBuild: DueWork<'storm_lists'> = {
  coll: 'storm_lists',
  name: 'build-storm-list',
  at: (l) => {
    if (l.status !== 'building' || l.build_due_at === null) {
      return undefined;
    }
    geoNow(); // a building list will need it: start loading it now
    return Date.parse(l.build_due_at);
  },
  run: (ws, list, now) => finishOrWait(ws, list, now, geoNow()),
};
