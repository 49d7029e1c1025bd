import { describe, expect, test } from 'vitest';
import { geography, isLocated, splitAddress } from '../../src/resources/common/geo';
import { historyAt } from '../../src/resources/hail/model';
import { harness } from '../support/harness';
import { fresh, lookup, OKC, OKC_ADDRESS, onToday, TODAY } from './setup';

// GET /hail_history (spec, Hail and Hail report): a US address or coordinates, `since` (default
// five years before today), every hail day and damaging-wind day since then, as the storm model
// has them at the place.

/** Where svc's geocoding places a one-line address. */
async function placed(line: string): Promise<{ latitude: number; longitude: number }> {
  const found = (await geography()).locate(splitAddress(line));
  if (!isLocated(found)) {
    throw new Error(`${line} was not placed: ${found.message}`);
  }
  return found;
}

const dates = (report: { hail_events: { date: string }[] }) =>
  report.hail_events.map((e) => e.date);

describe('GET /hail_history', () => {
  test('an address reads the hail and wind history at the place geocoding puts it, since five years before today', async () => {
    const { ws } = await fresh();
    const report = await lookup(ws, { address: OKC_ADDRESS });
    const at = await placed(OKC_ADDRESS);
    const model = historyAt(at.latitude, at.longitude, '2025-06-15', TODAY);
    expect(report).toEqual({
      object: 'hail_report',
      address: OKC_ADDRESS,
      latitude: at.latitude,
      longitude: at.longitude,
      since: '2025-06-15',
      hail_day_count: model.hail_events.length,
      largest_hail_in: Math.max(...model.hail_events.map((e) => e.size_in)),
      last_hail_date: model.hail_events[0]?.date,
      hail_events: model.hail_events,
      wind_events: model.wind_events,
    });
    // Oklahoma City sees hail most years: the report is not vacuous.
    expect(report.hail_day_count).toBeGreaterThan(3);
    expect(report.wind_events.length).toBeGreaterThan(0);
  });

  test('the address is normalised: spacing, case and commas as typed do not change the report', async () => {
    const { ws } = await fresh();
    const messy = await lookup(ws, { address: '  1200 n walker ave ,  Oklahoma City,  ok 73103 ' });
    expect(messy).toEqual(await lookup(ws, { address: OKC_ADDRESS }));
    expect(messy.address).toBe(OKC_ADDRESS);
  });

  test('shorter forms of an address are read: a ZIP alone, a street with a city and state, a ZIP+4', async () => {
    const { ws } = await fresh();
    expect((await lookup(ws, { address: '73103' })).address).toBe('Oklahoma City, OK 73103');
    const noZip = await lookup(ws, { address: '1200 N Walker Ave, Oklahoma City, OK' });
    expect(noZip.address).toMatch(/^1200 N Walker Ave, Oklahoma City, OK \d{5}$/);
    const plus4 = await lookup(ws, { address: '1200 N Walker Ave, Oklahoma City, OK 73103-2409' });
    expect(plus4).toEqual(await lookup(ws, { address: OKC_ADDRESS }));
  });

  test('coordinates read the history at that very point; the address is the nearest ZIP', async () => {
    const { ws } = await fresh();
    const report = await lookup(ws, { ...OKC, since: '2020-01-01' });
    const zip = (await geography()).nearest(OKC.latitude, OKC.longitude);
    expect(zip).toMatchObject({ city: 'Oklahoma City', state: 'OK' });
    expect(report).toMatchObject({
      address: `Oklahoma City, OK ${zip?.postal_code}`,
      latitude: OKC.latitude,
      longitude: OKC.longitude,
      since: '2020-01-01',
    });
    const model = historyAt(OKC.latitude, OKC.longitude, '2020-01-01', TODAY);
    expect(report.hail_events).toEqual(model.hail_events);
    expect(report.wind_events).toEqual(model.wind_events);
  });

  test('hail_day_count, largest_hail_in and last_hail_date follow the events', async () => {
    const { ws } = await fresh();
    const report = await lookup(ws, { ...OKC, since: '2010-01-01' });
    const sizes = report.hail_events.map((e: { size_in: number }) => e.size_in);
    expect(report.hail_day_count).toBe(report.hail_events.length);
    expect(report.largest_hail_in).toBe(Math.max(...sizes));
    expect(report.last_hail_date).toBe(report.hail_events[0].date);
    expect(dates(report)).toEqual([...dates(report)].sort().reverse());
    expect(report.hail_day_count).toBeGreaterThan(10);
  });

  test('a place with no hail day answers a count of 0, null largest size and date, empty lists', async () => {
    const { ws } = await fresh();
    const honolulu = await lookup(ws, {
      latitude: 21.3069,
      longitude: -157.8583,
      since: '2000-01-01',
    });
    expect(honolulu).toMatchObject({
      address: 'Honolulu, HI 96805',
      hail_day_count: 0,
      largest_hail_in: null,
      last_hail_date: null,
      hail_events: [],
      wind_events: [],
    });
  });

  test('since bounds the report: no day before it; since today is allowed', async () => {
    const { ws } = await fresh();
    const all = await lookup(ws, { ...OKC, since: '2015-01-01' });
    const later = await lookup(ws, { ...OKC, since: '2022-03-01' });
    expect(later.since).toBe('2022-03-01');
    expect(dates(later)).toEqual(dates(all).filter((d) => d >= '2022-03-01'));
    const today = await lookup(ws, { ...OKC, since: TODAY });
    expect(today.since).toBe(TODAY);
    for (const d of dates(today)) {
      expect(d).toBe(TODAY);
    }
  });

  test('a since before the archive (2000) is kept as asked, and reports from 2000 on', async () => {
    const { ws } = await fresh();
    const old = await lookup(ws, { ...OKC, since: '1980-01-01' });
    expect(old.since).toBe('1980-01-01');
    expect(old.hail_events).toEqual(
      (await lookup(ws, { ...OKC, since: '2000-01-01' })).hail_events,
    );
  });

  test('the same address always gives the same report, in another app too', async () => {
    const { ws } = await fresh();
    const first = await lookup(ws, { address: OKC_ADDRESS, since: '2012-01-01' });
    expect(await lookup(ws, { address: OKC_ADDRESS, since: '2012-01-01' })).toEqual(first);
    const other = harness({ rateLimit: null });
    await onToday(other);
    const elsewhere = await other.workspace();
    expect(await lookup(elsewhere, { address: OKC_ADDRESS, since: '2012-01-01' })).toEqual(first);
  });

  test('addresses in one ZIP share most of their storms', async () => {
    const { ws } = await fresh();
    const a = dates(await lookup(ws, { address: OKC_ADDRESS, since: '2000-01-01' }));
    const b = dates(
      await lookup(ws, { address: '415 NW 12th St, Oklahoma City, OK 73103', since: '2000-01-01' }),
    );
    const both = a.filter((d) => b.includes(d));
    expect(both.length / new Set([...a, ...b]).size).toBeGreaterThan(0.5);
  });

  test('a read-only key may look up hail history', async () => {
    const { ws } = await fresh();
    const res = await ws.read.get('/hail_history', { query: { address: OKC_ADDRESS } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(await lookup(ws, { address: OKC_ADDRESS }));
  });
});

describe('hail history and the clock', () => {
  test('today is the day in US Central time: at 03:00 UTC on the 16th it is the 15th there, and since defaults to five years before the 15th', async () => {
    const h = harness({ rateLimit: null });
    await h.admin.post('/clock', { set: '2030-06-16T03:00:00.000Z' }); // 22:00 on the 15th in Chicago
    const ws = await h.workspace();
    expect((await lookup(ws, OKC)).since).toBe('2025-06-15');
  });

  test('29 February five years back is 28 February', async () => {
    const h = harness({ rateLimit: null });
    await h.admin.post('/clock', { set: '2032-02-29T18:00:00.000Z' });
    const ws = await h.workspace();
    expect((await lookup(ws, OKC)).since).toBe('2027-02-28');
  });

  test('no storm after today: moving the clock on adds the days between, never changes those already reported', async () => {
    const h = harness({ rateLimit: null });
    await onToday(h);
    const ws = await h.workspace();
    const before = await lookup(ws, { ...OKC, since: '2029-01-01' });
    for (const d of dates(before)) {
      expect(d <= TODAY).toBe(true);
    }
    await h.admin.post('/clock', { advance_seconds: 400 * 86_400 });
    const after = await lookup(ws, { ...OKC, since: '2029-01-01' });
    const newer = after.hail_events.filter((e: { date: string }) => e.date > TODAY);
    expect(newer.length).toBeGreaterThan(0);
    expect(after.hail_events.slice(newer.length)).toEqual(before.hail_events);
  });
});
