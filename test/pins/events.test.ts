import { describe, expect, test } from 'vitest';
import type { Json } from '../support/harness';
import type { Receiver } from '../support/receiver';
import {
  advance,
  type Ctx,
  createWebhook,
  eventsOf,
  setup as hookSetup,
  ok,
  one,
  recordOf,
  subscribe,
  UUID,
} from '../webhooks/setup';

// Pin events as a receiver sees them: spec, Events (pin.created, pin.result_changed carry the
// pin as GET returns it; previous_knock_result on result_changed only) and PATCH /pins/{id}
// ("fires pin.result_changed when the result moves"); decisions.md, pin events take pin_type and
// knock_result, and previous_knock_result on result_changed.

const AT = { address: '1420 Elm Street', postal_code: '75201' };

const pin = (c: Ctx, body: Record<string, unknown> = {}): Promise<Json> =>
  ok(c.ws.api.post('/pins', { ...AT, ...body }), 201);

const patch = (c: Ctx, id: string, body: Record<string, unknown>): Promise<Json> =>
  ok(c.ws.api.patch(`/pins/${id}`, body));

/** Delivers what is due; answers the event names that arrived so far. */
async function delivered(c: Ctx): Promise<string[]> {
  await advance(c.h, 0);
  return eventsOf(c.rx);
}

const idsReceived = (rx: Receiver): string[] => rx.received.map((r) => String(r.json.id));

describe('pin.created', () => {
  test('carries the pin exactly as GET /pins/{id} returns it, and no previous_knock_result', async () => {
    const c = await hookSetup();
    await subscribe(c, 'pin.created');
    const p = await pin(c, { knock_result: 'interested', homeowner_name: 'Ann Lee' });
    await advance(c.h, 0);
    const body = one(c.rx, 'pin.created').json;
    expect(recordOf(body)).toEqual(await ok(c.ws.api.get(`/pins/${p.id}`)));
    expect(body).toMatchObject({
      event_type: 'pin.created',
      event_id: expect.stringMatching(UUID),
      event_at: p.updated_at,
      event_workspace_id: c.ws.id,
    });
    expect(body).not.toHaveProperty('previous_knock_result');
  });

  test('a pin refused raises nothing; a PATCH or a DELETE raises no pin.created', async () => {
    const c = await hookSetup();
    await subscribe(c, 'pin.created');
    expect((await c.ws.api.post('/pins', { postal_code: '00000' })).status).toBe(400);
    const p = await pin(c);
    await patch(c, p.id, { notes: 'x' });
    await ok(c.ws.api.delete(`/pins/${p.id}`));
    expect(await delivered(c)).toEqual(['pin.created']);
  });

  test.each([
    ['pin_type', 'inspection', 'knock'],
    ['knock_result', 'no_answer', 'interested'],
  ])('filtered on %s = %s delivers only those', async (key, hit, miss) => {
    const c = await hookSetup();
    await subscribe(c, 'pin.created', { [key]: hit });
    await pin(c, { [key]: miss });
    const match = await pin(c, { [key]: hit });
    await advance(c.h, 0);
    expect(idsReceived(c.rx)).toEqual([match.id]);
  });
});

describe('pin.result_changed', () => {
  test('carries the pin as it now is and previous_knock_result', async () => {
    const c = await hookSetup();
    const p = await pin(c, { knock_result: 'no_answer' });
    await subscribe(c, 'pin.result_changed');
    const moved = await patch(c, p.id, { knock_result: 'appointment_scheduled' });
    await advance(c.h, 0);
    const body = one(c.rx, 'pin.result_changed').json;
    expect(recordOf(body, ['previous_knock_result'])).toEqual(moved);
    expect(body).toMatchObject({
      event_type: 'pin.result_changed',
      event_at: moved.updated_at,
      knock_result: 'appointment_scheduled',
      previous_knock_result: 'no_answer',
    });
  });

  test('from none: previous_knock_result is null; to none (null clears it): knock_result is null', async () => {
    const c = await hookSetup();
    const p = await pin(c);
    await subscribe(c, 'pin.result_changed');
    await patch(c, p.id, { knock_result: 'door_hanger' });
    await patch(c, p.id, { knock_result: null });
    await advance(c.h, 0);
    expect(c.rx.received.map((r) => [r.json.previous_knock_result, r.json.knock_result])).toEqual([
      [null, 'door_hanger'],
      ['door_hanger', null],
    ]);
  });

  test('no event when the result stays, or when only other fields change', async () => {
    const c = await hookSetup();
    const p = await pin(c, { knock_result: 'follow_up' });
    await subscribe(c, 'pin.result_changed');
    await patch(c, p.id, { knock_result: 'follow_up' });
    await patch(c, p.id, { knock_result: 'follow_up', notes: 'Call after six' });
    await patch(c, p.id, { homeowner_name: 'Ann Lee', pin_type: 'inspection' });
    expect(await delivered(c)).toEqual([]);
  });

  test('each move raises one, in order; a refused PATCH raises none', async () => {
    const c = await hookSetup();
    const p = await pin(c, { knock_result: 'no_answer' });
    await subscribe(c, 'pin.result_changed');
    await patch(c, p.id, { knock_result: 'follow_up' });
    expect(
      (await c.ws.api.patch(`/pins/${p.id}`, { knock_result: 'maybe' }, { invalid: true })).status,
    ).toBe(400);
    await patch(c, p.id, { knock_result: 'lost' });
    await advance(c.h, 0);
    expect(c.rx.received.map((r) => r.json.previous_knock_result)).toEqual([
      'no_answer',
      'follow_up',
    ]);
  });

  test.each([
    ['knock_result', 'interested', { from: 'no_answer', hit: 'interested', miss: 'lost' }],
    ['previous_knock_result', 'no_answer', { from: 'no_answer', hit: 'interested', miss: 'lost' }],
  ])('filtered on %s = %s delivers only those', async (key, value, moves) => {
    const c = await hookSetup();
    await subscribe(c, 'pin.result_changed', { [key]: value });
    const hit = await pin(c, { knock_result: moves.from });
    const other = await pin(c, { knock_result: 'contacted' });
    await patch(c, hit.id, { knock_result: moves.hit });
    await patch(c, other.id, { knock_result: key === 'knock_result' ? moves.miss : moves.hit });
    await advance(c.h, 0);
    expect(idsReceived(c.rx)).toEqual([hit.id]);
  });

  test('filtered on pin_type, it reads the type the pin has now', async () => {
    const c = await hookSetup();
    await subscribe(c, 'pin.result_changed', { pin_type: 'inspection' });
    const knock = await pin(c, { knock_result: 'no_answer' });
    const inspection = await pin(c, { knock_result: 'no_answer', pin_type: 'inspection' });
    await patch(c, knock.id, { knock_result: 'interested' });
    await patch(c, inspection.id, { knock_result: 'interested' });
    await advance(c.h, 0);
    expect(idsReceived(c.rx)).toEqual([inspection.id]);
  });
});

describe('both events on one URL', () => {
  test('a knock then its result: created, result_changed, in order', async () => {
    const c = await hookSetup();
    await createWebhook(c.ws.api, {
      events: ['pin.created', 'pin.result_changed'],
      target_url: c.rx.url,
    });
    const p = await pin(c);
    await patch(c, p.id, { knock_result: 'interested' });
    expect(await delivered(c)).toEqual(['pin.created', 'pin.result_changed']);
  });
});

describe('filters and samples', () => {
  test.each([
    ['pin.created', 'pin_type', 'job', 201],
    ['pin.created', 'pin_type', 'door', 400],
    ['pin.created', 'knock_result', 'maybe', 400],
    ['pin.created', 'previous_knock_result', 'no_answer', 400],
    ['pin.result_changed', 'previous_knock_result', 'maybe', 400],
  ])('%s with %s = %s answers %i', async (event, key, value, status) => {
    const c = await hookSetup();
    const res = await c.ws.api.post('/webhooks', {
      event,
      target_url: c.rx.url,
      filters: { [key]: value },
    });
    expect(res.status, res.text).toBe(status);
    if (status === 400) {
      expect(res.body.error).toMatchObject({ code: 'invalid_request', field: `filters.${key}` });
    }
  });

  test('samples are the newest pins; result_changed samples have a result, with previous_knock_result null', async () => {
    const c = await hookSetup();
    const none = await pin(c);
    const p = await pin(c, { knock_result: 'cash_quote' });
    const created = await ok(c.ws.api.get('/webhooks/samples/pin.created'));
    expect(created.data.map((d: Json) => d.id)).toEqual([p.id, none.id]);
    expect(recordOf(created.data[0])).toEqual(await ok(c.ws.api.get(`/pins/${p.id}`)));
    const changed = await ok(c.ws.api.get('/webhooks/samples/pin.result_changed'));
    expect(changed.data.map((d: Json) => d.id)).toEqual([p.id]);
    expect(changed.data[0]).toMatchObject({
      event_type: 'pin.result_changed',
      knock_result: 'cash_quote',
      previous_knock_result: null,
    });
  });
});
