import { describe, expect, test } from 'vitest';
import { geography } from '../../src/resources/common/geo';
import { finishOrWait } from '../../src/resources/storm-lists/finish';
import type { StormList } from '../../src/resources/storm-lists/schema';
import { Store } from '../../src/store';

// A build whose time comes before the geography is loaded (a list left building by the last run,
// the clock moved at once after a start): decisions: storm lists, it waits, each time twice as
// long, and never finishes half made.

const WS = 'ws-1';
const created = '2026-05-01T12:00:00.000Z';

const building = (): StormList => ({
  id: 'b0f4f3a2-51f4-4a7c-9d55-2d3c1a9e8e01',
  object: 'storm_list',
  name: 'Left building',
  status: 'building',
  source: 'manual',
  window_from: '2026-04-20',
  window_to: '2026-04-20',
  min_size_in: 1,
  area_kind: 'radius',
  territory_id: null,
  clipped_area_sq_mi: 0,
  property_cap: 100,
  property_count: 0,
  skipped_duplicates: 0,
  dedupe_days: 30,
  credits_spent: 0,
  total_available: 0,
  storm_date: null,
  built_at: null,
  created_at: created,
  updated_at: created,
  area: { kind: 'radius', latitude: 35.4676, longitude: -97.5164, radius_mi: 2 },
  build_due_at: '2026-05-01T12:00:30.000Z',
});

function runAt(
  store: Store,
  now: string,
  loaded: Awaited<ReturnType<typeof geography>> | undefined,
) {
  store.transaction((tx) => {
    const ws = tx.workspace(WS);
    const list = ws.get('storm_lists', building().id) as StormList;
    finishOrWait(ws, list, now, loaded);
  });
  return store.workspace(WS).get('storm_lists', building().id) as StormList;
}

describe('a build due before the geography is loaded', () => {
  test('waits at least a second, then as long again as it has waited, changing nothing shown', () => {
    const store = Store.memory();
    store.transaction((tx) => tx.workspace(WS).put('storm_lists', building()));
    const first = runAt(store, '2026-05-01T12:00:30.500Z', undefined);
    expect(first).toEqual({ ...building(), build_due_at: '2026-05-01T12:01:01.000Z' });
    const later = runAt(store, '2026-05-03T12:00:00.000Z', undefined);
    expect(later.build_due_at).toBe('2026-05-05T12:00:00.000Z');
    expect(later.status).toBe('building');
    expect([...store.workspace(WS).values('storm_list_properties')]).toEqual([]);
  });

  test('once it is loaded, the build finishes at the time it runs', async () => {
    const store = Store.memory();
    store.transaction((tx) => tx.workspace(WS).put('storm_lists', building()));
    runAt(store, '2026-05-01T12:00:31.000Z', undefined);
    const done = runAt(store, '2026-05-01T12:01:01.000Z', await geography());
    expect(done.status).not.toBe('building');
    expect(done).toMatchObject({ built_at: '2026-05-01T12:01:01.000Z', build_due_at: null });
    expect(store.workspace(WS).count('storm_list_properties')).toBe(done.property_count);
  });
});
