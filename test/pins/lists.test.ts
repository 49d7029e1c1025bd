import { describe, expect, test } from 'vitest';
import {
  advance,
  DALLAS,
  expectError,
  fresh,
  idsOf,
  list,
  newPin,
  patchPin,
  UNKNOWN,
  usersOf,
} from './setup';

// GET /pins: DESIGN.md (paged; knock_result, pin_type, created_by) and spec, Pagination (newest
// first, limit, cursor, updated_since, created_after, created_before); decisions.md, Lists (a
// cursor svc did not issue is 400) and Pins (created_by naming no user matches no pin).

describe('filters', () => {
  test('knock_result, pin_type and created_by each keep only their pins, and combine', async () => {
    const { ws } = await fresh('small');
    const rep = (await usersOf(ws)).find((u) => u.role === 'sales_rep');
    const a = await newPin(ws, { ...DALLAS, knock_result: 'interested' });
    const b = await newPin(ws, { ...DALLAS, knock_result: 'no_answer', pin_type: 'inspection' });
    const c = await newPin(ws, { ...DALLAS, knock_result: 'interested', created_by: rep.id });
    const d = await newPin(ws, DALLAS);
    // The small workspace has seeded pins of its own, all made before these.
    const mine = (q: Record<string, string> = {}) =>
      list(ws.api, '/pins', { ...q, created_after: a.created_at }).then(idsOf);
    expect(await mine()).toEqual([d.id, c.id, b.id, a.id]);
    expect(await mine({ knock_result: 'interested' })).toEqual([c.id, a.id]);
    expect(await mine({ pin_type: 'inspection' })).toEqual([b.id]);
    expect(await mine({ pin_type: 'knock' })).toEqual([d.id, c.id, a.id]);
    expect(await mine({ created_by: rep.id })).toEqual([c.id]);
    expect(await mine({ knock_result: 'interested', created_by: rep.id })).toEqual([c.id]);
    expect(await mine({ knock_result: 'no_answer', pin_type: 'knock' })).toEqual([]);
  });

  test('pin_type=job lists the doors that became jobs', async () => {
    const { h, ws } = await fresh();
    const pin = await newPin(ws, { ...DALLAS, homeowner_name: 'Ann Lee' });
    await newPin(ws, DALLAS);
    const res = await h.admin.post(`/pins/${pin.id}/convert`);
    expect(res.status, res.text).toBe(201);
    expect(idsOf(await list(ws.api, '/pins', { pin_type: 'job' }))).toEqual([pin.id]);
  });

  test("created_by in upper case matches; another workspace's user, or no user, matches no pin", async () => {
    const { ws } = await fresh();
    const { ws: other } = await fresh();
    const pin = await newPin(ws);
    const [stranger] = await usersOf(other);
    const by = (created_by: string) => list(ws.api, '/pins', { created_by }).then(idsOf);
    expect(await by(pin.created_by_id.toUpperCase())).toEqual([pin.id]);
    expect(await by(stranger.id)).toEqual([]);
    expect(await by(UNKNOWN)).toEqual([]);
  });

  test.each([
    ['knock_result', 'maybe'],
    ['knock_result', ''],
    ['pin_type', 'door'],
    ['created_by', 'owner'],
    ['created_by', '123'],
    ['updated_since', 'yesterday'],
    ['created_after', '2026-02-30'],
    ['created_before', 'soon'],
    ['limit', 'ten'],
    ['cursor', 'made-up'],
  ])('%s=%j is 400 naming it', async (field, value) => {
    const { ws } = await fresh();
    const res = await ws.api.get('/pins', { query: { [field]: value }, invalid: true });
    expectError(res, 400, 'invalid_request', field);
  });
});

describe('paging', () => {
  test('newest first, limit pages and next_cursor continues until null', async () => {
    const { h, ws } = await fresh();
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      made.unshift((await newPin(ws, { ...DALLAS, address: `${100 + i} Elm Street` })).id);
      await advance(h, 1);
    }
    const first = await list(ws.api, '/pins', { limit: 2 });
    expect(first).toMatchObject({ object: 'list', has_more: true });
    const second = await list(ws.api, '/pins', { limit: 2, cursor: first.next_cursor });
    const third = await list(ws.api, '/pins', { limit: 2, cursor: second.next_cursor });
    expect(third).toMatchObject({ has_more: false, next_cursor: null });
    expect([...idsOf(first), ...idsOf(second), ...idsOf(third)]).toEqual(made);
  });

  test('a limit out of range falls back to 50', async () => {
    const { ws } = await fresh();
    await newPin(ws);
    for (const limit of [0, 201, -3]) {
      expect((await list(ws.api, '/pins', { limit })).data).toHaveLength(1);
    }
  });

  test('a cursor of another list is 400 naming cursor', async () => {
    const { ws } = await fresh();
    for (let i = 0; i < 2; i++) {
      await ws.api.post('/contacts', { name: `Person ${i}` });
    }
    const contacts = await list(ws.api, '/contacts', { limit: 1 });
    const res = await ws.api.get('/pins', { query: { cursor: contacts.next_cursor } });
    expectError(res, 400, 'invalid_request', 'cursor');
  });
});

describe('time filters', () => {
  test('created_after (at or after), created_before (before), updated_since (changed at or after)', async () => {
    const { h, ws } = await fresh();
    const old = await newPin(ws);
    await advance(h, 3600);
    const mid = await newPin(ws);
    await advance(h, 3600);
    const late = await newPin(ws);
    const all = (q: Record<string, string>) => list(ws.api, '/pins', q).then(idsOf);
    expect(await all({ created_after: mid.created_at })).toEqual([late.id, mid.id]);
    expect(await all({ created_before: mid.created_at })).toEqual([old.id]);
    expect(await all({ created_after: mid.created_at, created_before: late.created_at })).toEqual([
      mid.id,
    ]);
    await advance(h, 60);
    const touched = await patchPin(ws, old.id, { knock_result: 'lost' });
    expect(await all({ updated_since: touched.updated_at })).toEqual([old.id]);
    expect(await all({ updated_since: late.created_at })).toEqual([late.id, old.id]);
  });
});

describe('credentials', () => {
  test('a read-only key lists and reads', async () => {
    const { ws } = await fresh();
    const pin = await newPin(ws);
    expect(idsOf(await list(ws.read, '/pins'))).toEqual([pin.id]);
  });

  test('a workspace lists its own pins only', async () => {
    const { ws } = await fresh();
    const { ws: other } = await fresh();
    await newPin(other);
    expect((await list(ws.api, '/pins')).data).toEqual([]);
  });
});
