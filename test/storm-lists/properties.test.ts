import { describe, expect, test } from 'vitest';
import { milesBetween } from '../../src/resources/common/geo';
import { stateCode } from '../../src/resources/common/us-states';
import type { Json } from '../support/harness';
import {
  allProperties,
  app,
  built,
  expectError,
  fresh,
  nowMs,
  ok,
  RADIUS_MI,
  stormBody,
  stormOf,
  UNKNOWN,
} from './setup';

// GET /storm_lists/{id}/properties: spec, Storm list property (every field) and Storm lists
// (mailable, residential); decisions: storm lists (the hail is hail history's at the address;
// what makes mail undeliverable; the filters both ways).

/** One list over the test storm, made once for the read-only tests of this file. */
let made: Promise<{ ws: Awaited<ReturnType<typeof fresh>>['ws']; list: Json; props: Json[] }>;
function theList() {
  made ??= (async () => {
    const { h, ws } = await fresh();
    const list = await built(h, ws, await stormBody(h, { min_size_in: 1.25 }));
    return { ws, list, props: await allProperties(ws, list.id) };
  })();
  return made;
}

const FIELDS = [
  'id',
  'object',
  'storm_list_id',
  'address',
  'city',
  'state',
  'zip',
  'owner_name',
  'owner_occupied',
  'mailing_address',
  'mailing_city',
  'mailing_state',
  'mailing_zip',
  'mail_deliverable',
  'mail_exclude_reason',
  'hail_size_in',
  'hail_event_date',
  'nearest_report_mi',
  'nearest_report_size_in',
  'year_built',
  'property_use',
  'is_residential',
  'latitude',
  'longitude',
  'created_at',
];

const RESIDENTIAL = ['single_family', 'townhouse', 'condo', 'multi_family', 'mobile_home'];

/** An independent reading of the rule: a name to address the mail to, and a US address. */
function mailable(p: Json): boolean {
  const owner =
    typeof p.owner_name === 'string' &&
    !/^(current resident|occupant|unknown owner)$/i.test(p.owner_name);
  const address =
    typeof p.mailing_address === 'string' &&
    typeof p.mailing_city === 'string' &&
    typeof p.mailing_state === 'string' &&
    stateCode(p.mailing_state) === p.mailing_state &&
    /^\d{5}$/.test(p.mailing_zip ?? '');
  return owner && address;
}

describe('a property', () => {
  test('shows every field of the spec, in its order, on the list it belongs to', async () => {
    const { list, props } = await theList();
    expect(props.length).toBe(list.property_count);
    expect(props.length).toBeGreaterThan(50);
    for (const p of props) {
      expect(Object.keys(p)).toEqual(FIELDS);
      expect(p).toMatchObject({ object: 'storm_list_property', storm_list_id: list.id });
      expect(p.created_at).toBe(list.built_at);
    }
    expect(new Set(props.map((p) => p.id)).size).toBe(props.length);
  });

  test('every property had hail of at least min_size_in on a day of the window', async () => {
    const { list, props } = await theList();
    for (const p of props) {
      expect(p.hail_size_in).toBeGreaterThanOrEqual(list.min_size_in);
      expect(p.hail_event_date >= list.window_from && p.hail_event_date <= list.window_to).toBe(
        true,
      );
    }
  });

  test("its hail is GET /hail_history's at its address: that day's size, the largest of the window", async () => {
    const { ws, list, props } = await theList();
    const sample = props.filter((_p, i) => i % Math.ceil(props.length / 25) === 0);
    for (const p of sample) {
      const report = await ok(
        ws.api.get('/hail_history', {
          query: {
            address: `${p.address}, ${p.city}, ${p.state} ${p.zip}`,
            since: list.window_from,
          },
        }),
      );
      expect([report.latitude, report.longitude]).toEqual([p.latitude, p.longitude]);
      const inWindow = report.hail_events.filter((e: Json) => e.date <= list.window_to);
      const day = inWindow.find((e: Json) => e.date === p.hail_event_date);
      expect(day, `${p.address} on ${p.hail_event_date}`).toBeDefined();
      expect(day.size_in).toBe(p.hail_size_in);
      expect(day.ground_report_distance_mi).toBe(p.nearest_report_mi);
      expect(day.ground_report_size_in).toBe(p.nearest_report_size_in);
      expect(Math.max(...inWindow.map((e: Json) => e.size_in))).toBe(p.hail_size_in);
    }
  });

  test('it lies in the list area', async () => {
    const { at } = await stormOf(await nowMs(app()));
    const { props } = await theList();
    for (const p of props) {
      expect(milesBetween(at.latitude, at.longitude, p.latitude, p.longitude)).toBeLessThanOrEqual(
        RADIUS_MI,
      );
    }
  });

  test('mail_deliverable is false exactly where the owner name or the mailing address is unusable, with a reason exactly there', async () => {
    const { props } = await theList();
    const refused = props.filter((p) => !p.mail_deliverable);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.length).toBeLessThan(props.length / 2);
    for (const p of props) {
      expect(p.mail_deliverable, JSON.stringify(p)).toBe(mailable(p));
      expect(p.mail_exclude_reason === null).toBe(p.mail_deliverable);
    }
  });

  test('an owner who lives there gets mail there; an absentee owner elsewhere', async () => {
    const { props } = await theList();
    const home = props.filter((p) => p.owner_occupied && p.mailing_address !== null);
    expect(home.length).toBeGreaterThan(0);
    for (const p of home) {
      expect(p.mailing_address).toBe(p.address);
      expect(p.mailing_city).toBe(p.city);
      expect(p.mailing_state).toBe(p.state);
    }
    const away = props.filter((p) => !p.owner_occupied && p.mailing_address !== null);
    expect(away.length).toBeGreaterThan(0);
    expect(away.every((p) => p.mailing_address !== p.address)).toBe(true);
  });

  test('is_residential follows property_use; only vacant land has no year_built', async () => {
    const { props } = await theList();
    expect(new Set(props.map((p) => p.property_use)).size).toBeGreaterThan(3);
    for (const p of props) {
      expect(p.is_residential).toBe(RESIDENTIAL.includes(p.property_use));
      expect(p.year_built === null).toBe(p.property_use === 'vacant_land');
    }
  });

  test('the same storm gives the same houses, owners and hail in another workspace', async () => {
    const { props } = await theList();
    const { h, ws } = await fresh();
    const again = await built(h, ws, await stormBody(h, { min_size_in: 1.25 }));
    const strip = ({ id: _i, storm_list_id: _l, created_at: _c, ...rest }: Json) => rest;
    const key = (p: Json) => `${p.address}|${p.zip}`;
    const sorted = (list: Json[]) =>
      [...list].sort((a, b) => (key(a) < key(b) ? -1 : 1)).map(strip);
    expect(sorted(await allProperties(ws, again.id))).toEqual(sorted(props));
  });
});

describe('filters', () => {
  test('mailable=true keeps exactly the deliverable ones; false the others', async () => {
    const { ws, list, props } = await theList();
    const yes = await allProperties(ws, list.id, { mailable: 'true' });
    const no = await allProperties(ws, list.id, { mailable: 'false' });
    expect(yes.map((p) => p.id).sort()).toEqual(
      props
        .filter((p) => p.mail_deliverable)
        .map((p) => p.id)
        .sort(),
    );
    expect(no.map((p) => p.id).sort()).toEqual(
      props
        .filter((p) => !p.mail_deliverable)
        .map((p) => p.id)
        .sort(),
    );
  });

  test('residential=true keeps the residential ones; false the others; both filters combine', async () => {
    const { ws, list, props } = await theList();
    const ids = (f: (p: Json) => boolean) =>
      props
        .filter(f)
        .map((p) => p.id)
        .sort();
    const got = async (q: Record<string, string>) =>
      (await allProperties(ws, list.id, q)).map((p) => p.id).sort();
    expect(await got({ residential: 'true' })).toEqual(ids((p) => p.is_residential));
    expect(await got({ residential: 'false' })).toEqual(ids((p) => !p.is_residential));
    expect(await got({ residential: 'true', mailable: 'true' })).toEqual(
      ids((p) => p.is_residential && p.mail_deliverable),
    );
  });

  test.each(['mailable', 'residential'])(
    '%s other than true or false is 400 naming it',
    async (key) => {
      const { ws, list } = await theList();
      const res = await ws.api.get(`/storm_lists/${list.id}/properties`, {
        query: { [key]: 'yes' },
        invalid: true,
      });
      expectError(res, 400, 'invalid_request', key);
    },
  );
});

describe('paging', () => {
  test('pages of limit follow next_cursor to the end, every property once', async () => {
    const { ws, list, props } = await theList();
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 1000; page++) {
      const query: Record<string, string | number> = { limit: 37, ...(cursor ? { cursor } : {}) };
      const body = await ok(ws.api.get(`/storm_lists/${list.id}/properties`, { query }));
      expect(body.data.length).toBeLessThanOrEqual(37);
      seen.push(...body.data.map((p: Json) => p.id));
      if (body.next_cursor === null) {
        expect(body.has_more).toBe(false);
        break;
      }
      expect(body.has_more).toBe(true);
      cursor = body.next_cursor;
    }
    expect(seen.sort()).toEqual(props.map((p) => p.id).sort());
  });

  test("a cursor svc did not issue, or one of another list's properties, is 400 field cursor", async () => {
    const { ws, list } = await theList();
    const path = `/storm_lists/${list.id}/properties`;
    expectError(
      await ws.api.get(path, { query: { cursor: 'nope' }, invalid: true }),
      400,
      'invalid_request',
      'cursor',
    );
    const lists = await ok(ws.api.get('/storm_lists', { query: { limit: 1 } }));
    expect(lists.data.length).toBe(1);
    const page = await ok(ws.api.get(path, { query: { limit: 1 } }));
    const h = app();
    const other = await built(h, ws, await stormBody(h, { dedupe_days: 0 }));
    const res = await ws.api.get(`/storm_lists/${other.id}/properties`, {
      query: { cursor: page.next_cursor },
      invalid: true,
    });
    expectError(res, 400, 'invalid_request', 'cursor');
  });

  test("an unknown list, or another workspace's, is 404", async () => {
    const { list } = await theList();
    const { ws } = await fresh();
    expectError(await ws.api.get(`/storm_lists/${UNKNOWN}/properties`), 404, 'not_found');
    expectError(await ws.api.get(`/storm_lists/${list.id}/properties`), 404, 'not_found');
  });
});
