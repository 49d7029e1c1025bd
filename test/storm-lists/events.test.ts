import { describe, expect, test } from 'vitest';
import {
  advance,
  eventsOf,
  setup as hookSetup,
  ok,
  one,
  recordOf,
  subscribe,
  UUID,
} from '../webhooks/setup';
import { BUILD_SECONDS, build, stormBody } from './setup';

// storm_list.ready as a receiver sees it: spec, States ("storm_list.ready is emitted when a list
// finishes building") and Events ("a list finished building", carrying the Storm list as GET
// returns it); decisions: storm lists (fired once, when a build finishes, ready, partial or
// failed; asking for a list fires nothing).

describe('storm_list.ready', () => {
  test('fires once when a build finishes ready, carrying the list exactly as GET returns it', async () => {
    const c = await hookSetup();
    await subscribe(c, 'storm_list.ready');
    const list = await build(c.h, c.ws, await stormBody(c.h));
    await advance(c.h, BUILD_SECONDS - 1);
    expect(eventsOf(c.rx)).toEqual([]);
    await advance(c.h, 1);
    const body = one(c.rx, 'storm_list.ready').json;
    const now = await ok(c.ws.api.get(`/storm_lists/${list.id}`));
    expect(now.status).toBe('ready');
    expect(recordOf(body)).toEqual(now);
    expect(body).toMatchObject({
      event_type: 'storm_list.ready',
      event_id: expect.stringMatching(UUID),
      event_at: now.updated_at,
      event_workspace_id: c.ws.id,
    });
    // Once: the list never changes again.
    await advance(c.h, 3600);
    expect(eventsOf(c.rx)).toEqual(['storm_list.ready']);
  });

  test('a partial list is ready too', async () => {
    const c = await hookSetup();
    await subscribe(c, 'storm_list.ready');
    const list = await build(c.h, c.ws, await stormBody(c.h, { property_cap: 2 }));
    await advance(c.h, BUILD_SECONDS);
    const body = one(c.rx, 'storm_list.ready').json;
    expect(body).toMatchObject({ id: list.id, status: 'partial', property_count: 2 });
  });

  test('asking for a list fires nothing', async () => {
    const c = await hookSetup();
    await subscribe(c, '*');
    await build(c.h, c.ws, await stormBody(c.h));
    await advance(c.h, BUILD_SECONDS - 1);
    expect(eventsOf(c.rx)).toEqual([]);
  });

  // spec, States: "storm_list.ready is emitted when a list finishes building"; a failed build
  // finishes building too, and a client waiting on the event learns from its status.
  test('a list that finishes building failed emits storm_list.ready once, carrying status failed', async () => {
    const c = await hookSetup();
    await subscribe(c, 'storm_list.ready');
    const list = await build(c.h, c.ws, await stormBody(c.h, { min_size_in: 9 }));
    await advance(c.h, BUILD_SECONDS + 60);
    const now = await ok(c.ws.api.get(`/storm_lists/${list.id}`));
    expect(now.status).toBe('failed');
    const body = one(c.rx, 'storm_list.ready').json;
    expect(recordOf(body)).toEqual(now);
    expect(body).toMatchObject({ event_type: 'storm_list.ready', status: 'failed' });
    await advance(c.h, 3600);
    expect(eventsOf(c.rx)).toEqual(['storm_list.ready']);
  });

  test('a test send with no list to show carries one of its shape: a ready list, no empty text', async () => {
    const c = await hookSetup();
    const hook = await subscribe(c, 'storm_list.ready');
    expect((await c.h.admin.post(`/webhooks/${hook.id}/test`)).status).toBe(200);
    const body = one(c.rx, 'storm_list.ready').json;
    expect(body).toMatchObject({ object: 'storm_list', status: 'ready', event_test: true });
    expect(Object.entries(body).filter(([, v]) => v === '')).toEqual([]);
  });

  test('samples are the finished lists, newest first: ready, partial and failed', async () => {
    const c = await hookSetup();
    const ready = await build(c.h, c.ws, await stormBody(c.h, { dedupe_days: 0 }));
    await advance(c.h, BUILD_SECONDS);
    const partial = await build(
      c.h,
      c.ws,
      await stormBody(c.h, { dedupe_days: 0, property_cap: 1 }),
    );
    await advance(c.h, BUILD_SECONDS);
    const failed = await build(c.h, c.ws, await stormBody(c.h, { min_size_in: 9 }));
    await advance(c.h, BUILD_SECONDS);
    await build(c.h, c.ws, await stormBody(c.h));
    const samples = await ok(c.ws.api.get('/webhooks/samples/storm_list.ready'));
    expect(samples.data.map((d: { id: string }) => d.id)).toEqual([
      failed.id,
      partial.id,
      ready.id,
    ]);
    expect(samples.data.map((d: { status: string }) => d.status)).toEqual([
      'failed',
      'partial',
      'ready',
    ]);
    expect(samples.data[0]).toMatchObject({ event_type: 'storm_list.ready' });
  });
});
