import { beforeAll, describe, expect, test } from 'vitest';
import type { Workspace } from '../../src/platform/auth';
import { type Geography, geography, type ZipPlace } from '../../src/resources/common/geo';
import { centralDate } from '../invoices/setup';
import type { Harness, Json } from '../support/harness';
import {
  advance,
  allProperties,
  BUILD_SECONDS,
  build,
  built,
  dayOf,
  expectError,
  fresh,
  nowMs,
  OKC,
  ok,
  plusDays,
  stormBody,
  stormOf,
  UNKNOWN,
} from './setup';

// POST /__admin/workspaces/{id}/storm_lists: DESIGN.md, control API (builds a list as the app
// would); spec, Scope rule 4 (the API cannot build one) and Storm list; decisions: storm lists
// (building, then ready, partial or failed BUILD_SECONDS later on the clock; credits; dedupe).

let geo: Geography;
beforeAll(async () => {
  geo = await geography();
});

/** A workspace record as one made before workspaces knew their market. */
function forgetMarket(h: Harness, id: string): void {
  h.rt.store.transaction((tx) => {
    const rec = tx.global.get('workspaces', id) as Workspace & { market?: unknown };
    const { market: _m, ...rest } = rec;
    tx.global.put('workspaces', rest);
  });
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('asking for a list', () => {
  test('201 with the list building: its inputs kept, its figures 0 until it is built', async () => {
    const { h, ws } = await fresh();
    const body = await stormBody(h, { property_cap: 300, dedupe_days: 10, source: 'auto' });
    const res = await h.admin.post(`/workspaces/${ws.id}/storm_lists`, body);
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      object: 'storm_list',
      name: 'Hail on the north side',
      status: 'building',
      source: 'auto',
      window_from: body.window_from,
      window_to: body.window_to,
      min_size_in: 1,
      area_kind: 'radius',
      territory_id: null,
      clipped_area_sq_mi: 0,
      property_cap: 300,
      property_count: 0,
      skipped_duplicates: 0,
      dedupe_days: 10,
      credits_spent: 0,
      total_available: 0,
      storm_date: null,
      built_at: null,
      created_at: expect.stringMatching(ISO),
      updated_at: res.body.created_at,
      url: `http://localhost/storm_lists/${res.body.id}`,
    });
    // GET /v1 shows the same list; it has no properties yet.
    expect(await ok(ws.api.get(`/storm_lists/${res.body.id}`))).toEqual(res.body);
    expect(await allProperties(ws, res.body.id)).toEqual([]);
  });

  test('defaults: manual, a cap of 1,000, dedupe over 30 days, a 25-mile circle round the market', async () => {
    const { h, ws } = await fresh();
    const { area: _area, property_cap: _cap, ...body } = await stormBody(h);
    const list = await build(h, ws, body);
    expect(list).toMatchObject({
      source: 'manual',
      property_cap: 1000,
      dedupe_days: 30,
      area_kind: 'radius',
    });
    // The area is not shown; the stored list holds the circle the build reads.
    const market = (h.rt.store.global.get('workspaces', ws.id) as { market?: Json } | undefined)
      ?.market;
    expect(h.rt.store.workspace(ws.id).get('storm_lists', list.id)?.area).toEqual({
      kind: 'radius',
      latitude: market.latitude,
      longitude: market.longitude,
      radius_mi: 25,
    });
  });

  test('a window of 31 days, ending today (US Central), is taken', async () => {
    const { h, ws } = await fresh();
    const today = centralDate(await nowMs(h));
    const list = await build(
      h,
      ws,
      await stormBody(h, { window_from: plusDays(today, -30), window_to: today }),
    );
    expect(list).toMatchObject({ window_from: plusDays(today, -30), window_to: today });
  });

  test('a drawn polygon is area_kind drawn', async () => {
    const { h, ws } = await fresh();
    const d = 0.2;
    const polygon = [
      [OKC.latitude - d, OKC.longitude - d],
      [OKC.latitude - d, OKC.longitude + d],
      [OKC.latitude + d, OKC.longitude + d],
      [OKC.latitude + d, OKC.longitude - d],
    ];
    const list = await build(h, ws, await stormBody(h, { area: { polygon } }));
    expect(list.area_kind).toBe('drawn');
  });

  test('an unknown workspace is 404', async () => {
    const { h } = await fresh();
    const res = await h.admin.post(`/workspaces/${UNKNOWN}/storm_lists`, await stormBody(h));
    expectError(res, 404, 'not_found');
  });

  test('the API has no way to build one: POST /storm_lists is 405', async () => {
    const { h, ws } = await fresh();
    const res = await ws.api.post('/storm_lists', await stormBody(h), { invalid: true });
    expectError(res, 405, 'method_not_allowed');
    expect(await ok(ws.api.get('/storm_lists'))).toMatchObject({ data: [] });
  });
});

describe('what the build refuses: 400 naming the field, nothing made', () => {
  const cases: [string, (today: string) => Record<string, unknown>, string][] = [
    ['no name', () => ({ name: undefined }), 'name'],
    ['an empty name', () => ({ name: '  ' }), 'name'],
    ['no window_from', () => ({ window_from: undefined }), 'window_from'],
    ['an impossible window_from', () => ({ window_from: '2026-02-30' }), 'window_from'],
    ['window_to not a date', () => ({ window_to: 'yesterday' }), 'window_to'],
    [
      'window_to before window_from',
      (t) => ({ window_from: plusDays(t, -3), window_to: plusDays(t, -5) }),
      'window_to',
    ],
    [
      'window_to in the future',
      (t) => ({ window_from: plusDays(t, -3), window_to: plusDays(t, 2) }),
      'window_to',
    ],
    [
      'window_from in the future',
      (t) => ({ window_from: plusDays(t, 2), window_to: plusDays(t, 3) }),
      'window_from',
    ],
    [
      'a window of 32 days',
      (t) => ({ window_from: plusDays(t, -33), window_to: plusDays(t, -2) }),
      'window_from',
    ],
    ['no min_size_in', () => ({ min_size_in: undefined }), 'min_size_in'],
    ['min_size_in 0', () => ({ min_size_in: 0 }), 'min_size_in'],
    ['min_size_in negative', () => ({ min_size_in: -1 }), 'min_size_in'],
    ['min_size_in as text', () => ({ min_size_in: '1' }), 'min_size_in'],
    ['property_cap 0', () => ({ property_cap: 0 }), 'property_cap'],
    ['property_cap over 10,000', () => ({ property_cap: 10_001 }), 'property_cap'],
    ['property_cap not whole', () => ({ property_cap: 2.5 }), 'property_cap'],
    ['dedupe_days negative', () => ({ dedupe_days: -1 }), 'dedupe_days'],
    ['an unknown source', () => ({ source: 'nightly' }), 'source'],
    ['a radius of 0', () => ({ area: { ...OKC, radius_mi: 0 } }), 'area.radius_mi'],
    ['a radius over 50 miles', () => ({ area: { ...OKC, radius_mi: 60 } }), 'area.radius_mi'],
    ['a latitude without a longitude', () => ({ area: { latitude: 35 } }), 'area.longitude'],
    ['a longitude without a latitude', () => ({ area: { longitude: -97 } }), 'area.latitude'],
    [
      'a latitude out of range',
      () => ({ area: { latitude: 95, longitude: -97 } }),
      'area.latitude',
    ],
    [
      'a point outside the United States',
      () => ({ area: { latitude: 48.85, longitude: 2.35 } }),
      'area.latitude',
    ],
    ['an unknown ZIP', () => ({ area: { postal_code: '00000' } }), 'area.postal_code'],
    ['a ZIP and a point', () => ({ area: { postal_code: '73102', ...OKC } }), 'area.postal_code'],
    [
      'a polygon of two corners',
      () => ({
        area: {
          polygon: [
            [35, -97],
            [35.1, -97],
          ],
        },
      }),
      'area.polygon',
    ],
    [
      'a polygon and a radius',
      () => ({
        area: {
          polygon: [
            [35, -97],
            [35.1, -97],
            [35.1, -97.1],
          ],
          radius_mi: 5,
        },
      }),
      'area.radius_mi',
    ],
    [
      'a polygon reaching over 50 miles',
      () => ({
        area: {
          polygon: [
            [35, -97],
            [36.5, -97],
            [36.5, -98.5],
          ],
        },
      }),
      'area.polygon',
    ],
    [
      'a polygon enclosing nothing',
      () => ({
        area: {
          polygon: [
            [35, -97],
            [35.1, -97],
            [35.2, -97],
          ],
        },
      }),
      'area.polygon',
    ],
  ];

  test.each(cases)('%s', async (_name, change, field) => {
    const { h, ws } = await fresh();
    const today = dayOf(await nowMs(h));
    const body = { ...(await stormBody(h)), ...change(today) };
    const res = await h.admin.post(`/workspaces/${ws.id}/storm_lists`, body, { invalid: true });
    expectError(res, 400, 'invalid_request', field);
    await advance(h, BUILD_SECONDS);
    expect(await ok(ws.api.get('/storm_lists'))).toMatchObject({ data: [] });
  });

  test('a workspace with no market and no jobs must name an area', async () => {
    const { h, ws } = await fresh();
    forgetMarket(h, ws.id);
    const { area: _area, ...body } = await stormBody(h);
    expectError(
      await h.admin.post(`/workspaces/${ws.id}/storm_lists`, body),
      400,
      'invalid_request',
      'area',
    );
  });

  test("without a market, the default circle is round the centre of the jobs' ZIPs", async () => {
    const { h, ws } = await fresh();
    forgetMarket(h, ws.id);
    for (const postal_code of ['73102', '73102', '73034']) {
      await ok(ws.api.post('/jobs', { name: 'Roof', address: '1 Main St', postal_code }), 201);
    }
    const { area: _area, ...body } = await stormBody(h);
    const list = await build(h, ws, body);
    const [a, b] = [geo.zip('73102'), geo.zip('73034')] as [ZipPlace, ZipPlace];
    const area = h.rt.store.workspace(ws.id).get('storm_lists', list.id)?.area;
    expect(area).toMatchObject({ kind: 'radius', radius_mi: 25 });
    expect(area?.kind === 'radius' && area.latitude).toBeCloseTo(
      (2 * a.latitude + b.latitude) / 3,
      9,
    );
    expect(area?.kind === 'radius' && area.longitude).toBeCloseTo(
      (2 * a.longitude + b.longitude) / 3,
      9,
    );
  });
});

describe('the build on the clock', () => {
  test('building until BUILD_SECONDS pass, then ready: built_at, figures, properties', async () => {
    const { h, ws } = await fresh();
    const list = await build(h, ws, await stormBody(h));
    await advance(h, BUILD_SECONDS - 1);
    expect((await ok(ws.api.get(`/storm_lists/${list.id}`))).status).toBe('building');
    await advance(h, 1);
    const done = await ok(ws.api.get(`/storm_lists/${list.id}`));
    expect(done.status).toBe('ready');
    // Built when its time came on the clock: BUILD_SECONDS after it was asked for (later only by
    // the real time the test itself took between its steps).
    const built = Date.parse(done.built_at);
    expect(built).toBeGreaterThanOrEqual(Date.parse(list.created_at) + BUILD_SECONDS * 1000);
    expect(built).toBeLessThanOrEqual(await nowMs(h));
    expect(done.updated_at).toBe(done.built_at);
    expect(done.created_at).toBe(list.created_at);
    expect(done.property_count).toBeGreaterThan(0);
    expect(done.property_count).toBe(done.total_available);
    expect(done.skipped_duplicates).toBe(0);
    expect(done.clipped_area_sq_mi).toBeGreaterThan(0);
    expect(done.clipped_area_sq_mi).toBeLessThanOrEqual(Math.PI * 25 ** 2);
    expect(done.storm_date).toBe(list.window_from);
    const properties = await allProperties(ws, list.id);
    expect(properties).toHaveLength(done.property_count);
    for (const p of properties) {
      expect(p.created_at).toBe(done.built_at);
    }
  });

  test('one data credit per property on the list', async () => {
    const { h, ws } = await fresh();
    const done = await built(h, ws, await stormBody(h));
    expect(done.credits_spent).toBe(done.property_count);
  });

  test('partial when the cap cuts it: property_count = cap < total_available; the hardest hit are kept', async () => {
    const { h, ws } = await fresh();
    const whole = await built(h, ws, await stormBody(h, { dedupe_days: 0 }));
    expect(whole.total_available).toBeGreaterThan(10);
    const other = await fresh();
    const cap = Math.floor(whole.total_available / 3);
    const cut = await built(other.h, other.ws, await stormBody(other.h, { property_cap: cap }));
    expect(cut).toMatchObject({
      status: 'partial',
      property_count: cap,
      total_available: whole.total_available,
      credits_spent: cap,
    });
    const kept = await allProperties(other.ws, cut.id);
    expect(kept).toHaveLength(cap);
    const sizes = (await allProperties(ws, whole.id))
      .map((p) => p.hail_size_in)
      .sort((a, b) => b - a);
    expect(kept.map((p) => p.hail_size_in).sort((a, b) => b - a)).toEqual(sizes.slice(0, cap));
  });

  test('a cap equal to what is available is ready, not partial', async () => {
    const { h, ws } = await fresh();
    const whole = await built(h, ws, await stormBody(h));
    const other = await fresh();
    const same = await built(
      other.h,
      other.ws,
      await stormBody(other.h, { property_cap: whole.total_available }),
    );
    expect(same).toMatchObject({ status: 'ready', property_count: whole.total_available });
  });

  test('failed when no property of the area had hail of the size: no properties, no credits', async () => {
    const { h, ws } = await fresh();
    const done = await built(h, ws, await stormBody(h, { min_size_in: 10 }));
    expect(done).toMatchObject({
      status: 'failed',
      property_count: 0,
      total_available: 0,
      skipped_duplicates: 0,
      credits_spent: 0,
      clipped_area_sq_mi: 0,
      storm_date: null,
    });
    expect(done.built_at).toMatch(ISO);
    expect(await allProperties(ws, done.id)).toEqual([]);
  });

  test('a finished list stays as it is when the clock moves on', async () => {
    const { h, ws } = await fresh();
    const done = await built(h, ws, await stormBody(h));
    await advance(h, 3 * BUILD_SECONDS);
    expect(await ok(ws.api.get(`/storm_lists/${done.id}`))).toEqual(done);
    expect(await allProperties(ws, done.id)).toHaveLength(done.property_count);
  });

  test('lists building together each finish with their own properties', async () => {
    const { h, ws } = await fresh();
    const a = await build(h, ws, await stormBody(h, { dedupe_days: 0 }));
    const b = await build(h, ws, await stormBody(h, { dedupe_days: 0, min_size_in: 1.5 }));
    await advance(h, BUILD_SECONDS);
    const [doneA, doneB] = [
      await ok(ws.api.get(`/storm_lists/${a.id}`)),
      await ok(ws.api.get(`/storm_lists/${b.id}`)),
    ];
    expect(doneB.property_count).toBeLessThanOrEqual(doneA.property_count);
    expect((await allProperties(ws, b.id)).every((p) => p.hail_size_in >= 1.5)).toBe(true);
  });
});

describe('dedupe', () => {
  test('addresses on a list built within dedupe_days are skipped, and cost nothing', async () => {
    const { h, ws } = await fresh();
    const first = await built(h, ws, await stormBody(h));
    const second = await built(h, ws, await stormBody(h));
    expect(second).toMatchObject({
      status: 'ready',
      skipped_duplicates: first.property_count,
      total_available: 0,
      property_count: 0,
      credits_spent: 0,
    });
    // The storm is still the storm it found, though every house was on the first list.
    expect(second.storm_date).toBe(first.storm_date);
  });

  test('a wider second list gets only the houses the first did not have', async () => {
    const { h, ws } = await fresh();
    const { at } = await stormOf(await nowMs(h));
    const narrow = await built(h, ws, await stormBody(h, { area: { ...at, radius_mi: 1.5 } }));
    const wide = await built(h, ws, await stormBody(h, { area: { ...at, radius_mi: 3 } }));
    const alone = await fresh();
    const whole = await built(
      alone.h,
      alone.ws,
      await stormBody(alone.h, { area: { ...at, radius_mi: 3 } }),
    );
    expect(wide.skipped_duplicates).toBe(narrow.property_count);
    expect(wide.total_available).toBe(whole.total_available - narrow.property_count);
    const key = (p: { address: string; zip: string }) => `${p.address}|${p.zip}`;
    const first = new Set((await allProperties(ws, narrow.id)).map(key));
    const second = await allProperties(ws, wide.id);
    expect(second.length).toBe(wide.property_count);
    expect(second.some((p) => first.has(key(p)))).toBe(false);
  });

  test('dedupe_days 0 skips nothing', async () => {
    const { h, ws } = await fresh();
    const first = await built(h, ws, await stormBody(h));
    const again = await built(h, ws, await stormBody(h, { dedupe_days: 0 }));
    expect(again).toMatchObject({ skipped_duplicates: 0, property_count: first.property_count });
  });

  test('a list built longer ago than dedupe_days does not count', async () => {
    const { h, ws } = await fresh();
    const first = await built(h, ws, await stormBody(h));
    await advance(h, 3 * 86_400);
    const within = await built(h, ws, await stormBody(h, { dedupe_days: 4 }));
    expect(within.skipped_duplicates).toBe(first.property_count);
    const past = await built(h, ws, await stormBody(h, { dedupe_days: 2 }));
    // The list of a moment ago counts, the one of three days ago does not: nothing is new.
    expect(past.skipped_duplicates).toBe(0);
    expect(past.property_count).toBe(first.property_count);
  });

  test("another workspace's lists are no duplicates", async () => {
    const { h, ws } = await fresh();
    const mine = await built(h, ws, await stormBody(h));
    const other = await fresh();
    const theirs = await built(other.h, other.ws, await stormBody(other.h));
    expect(theirs).toMatchObject({ skipped_duplicates: 0, property_count: mine.property_count });
  });
});
