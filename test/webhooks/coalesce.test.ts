import { describe, expect, test } from 'vitest';
import type { Json } from '../support/harness';
import type { Receiver } from '../support/receiver';
import {
  advance,
  type Ctx,
  eventsOf,
  newJob,
  ok,
  patchJob,
  recordOf,
  setup,
  subscribe,
} from './setup';

// spec, The 30 events, job.updated: "quick edits to one record coalesce into one delivery listing
// every changed field with the record as it is when sent". decisions.md, Events, Coalescing: the
// first edit opens a window (here 1 s, on the clock); when it closes one *.updated goes out with
// the union of changed_fields, the record as it is then, event_at the last edit's time; a record
// deleted meanwhile sends only its deletion. Other events are not held.

/** The n-th delivery's body, read field by field. */
const nth = (rx: Receiver, n: number): Json => rx.received[n]?.json;

describe('job.updated within one window', () => {
  test('three quick edits are one delivery: every changed field, the final record, the last edit time', async () => {
    const c = await setup();
    const job = await newJob(c.ws);
    await subscribe(c, 'job.updated');
    await patchJob(c.ws, job.id, { name: 'Roof and gutters' });
    await advance(c.h, 0.2);
    await patchJob(c.ws, job.id, { city: 'Plano' });
    await advance(c.h, 0.2);
    const last = await patchJob(c.ws, job.id, { priority: 'urgent' });
    await advance(c.h, 2);
    expect(eventsOf(c.rx)).toEqual(['job.updated']);
    const body = c.rx.received[0]?.json as Json;
    expect(body.changed_fields).toHaveLength(3);
    expect(body.changed_fields).toEqual(expect.arrayContaining(['name', 'city', 'priority']));
    expect(body).toMatchObject({ name: 'Roof and gutters', city: 'Plano', priority: 'urgent' });
    expect(recordOf(body, ['changed_fields'])).toEqual(await ok(c.ws.api.get(`/jobs/${job.id}`)));
    expect(body.event_at).toBe(last.updated_at);
  });

  test('nothing is sent before the window closes, 1 s after the first edit', async () => {
    const c = await setup();
    const job = await newJob(c.ws);
    await subscribe(c, 'job.updated');
    await patchJob(c.ws, job.id, { name: 'Roof and gutters' });
    await advance(c.h, 0);
    expect(c.rx.received).toHaveLength(0);
    await advance(c.h, 0.5);
    expect(c.rx.received).toHaveLength(0);
    await advance(c.h, 0.6);
    expect(eventsOf(c.rx)).toEqual(['job.updated']);
  });

  test('the window opens with the first edit: an edit after it closed starts a second delivery', async () => {
    const c = await setup();
    const job = await newJob(c.ws);
    await subscribe(c, 'job.updated');
    await patchJob(c.ws, job.id, { name: 'Roof and gutters' });
    await advance(c.h, 0.6);
    await patchJob(c.ws, job.id, { city: 'Plano' });
    await advance(c.h, 0.6); // 1.2 s after the first edit: the first window has closed
    await patchJob(c.ws, job.id, { priority: 'low' });
    expect(c.rx.received).toHaveLength(1);
    expect([...nth(c.rx, 0).changed_fields].sort()).toEqual(['city', 'name']);
    await advance(c.h, 2);
    expect(c.rx.received).toHaveLength(2);
    expect(c.rx.received[1]?.json.changed_fields).toEqual(['priority']);
    expect(c.rx.received[1]?.json.event_id).not.toBe(c.rx.received[0]?.json.event_id);
  });

  test('edits to two different jobs are two deliveries', async () => {
    const c = await setup();
    const a = await newJob(c.ws);
    const b = await newJob(c.ws);
    await subscribe(c, 'job.updated');
    await patchJob(c.ws, a.id, { name: 'A' });
    await patchJob(c.ws, b.id, { city: 'Plano' });
    await patchJob(c.ws, a.id, { priority: 'high' });
    await advance(c.h, 2);
    expect(eventsOf(c.rx)).toEqual(['job.updated', 'job.updated']);
    const byId = new Map<unknown, Json>(c.rx.received.map((r) => [r.json.id, r.json]));
    expect([...byId.get(a.id).changed_fields].sort()).toEqual(['name', 'priority']);
    expect(byId.get(b.id)?.changed_fields).toEqual(['city']);
    expect(byId.get(a.id)?.event_id).not.toBe(byId.get(b.id)?.event_id);
  });

  test('a job edited then deleted within the window sends only job.deleted', async () => {
    const c = await setup();
    const job = await newJob(c.ws);
    await subscribe(c, '*');
    await patchJob(c.ws, job.id, { name: 'Roof and gutters' });
    await ok(c.ws.api.delete(`/jobs/${job.id}`));
    await advance(c.h, 2);
    expect(eventsOf(c.rx)).toEqual(['job.deleted']);
    const log = await ok(c.h.admin.get(`/webhooks/${(await firstHook(c)).id}/deliveries`));
    expect(log.data.map((d: Json) => d.event)).toEqual(['job.deleted']);
  });

  test('job.stage_changed is not held: it goes at once, while job.updated waits', async () => {
    const c = await setup();
    const job = await newJob(c.ws);
    await subscribe(c, '*');
    await patchJob(c.ws, job.id, { stage: 'inspected' });
    await advance(c.h, 0);
    expect(eventsOf(c.rx)).toEqual(['job.stage_changed']);
    await advance(c.h, 2);
    expect(eventsOf(c.rx)).toEqual(['job.stage_changed', 'job.updated']);
  });
});

describe('contacts and tasks coalesce too', () => {
  test('two quick contact edits are one contact.updated', async () => {
    const c = await setup();
    const contact = await ok(c.ws.api.post('/contacts', { name: 'Pat Doe' }), 201);
    await subscribe(c, 'contact.updated');
    await ok(c.ws.api.patch(`/contacts/${contact.id}`, { email: 'pat@example.com' }));
    await advance(c.h, 0.3);
    await ok(c.ws.api.patch(`/contacts/${contact.id}`, { city: 'Nashville' }));
    await advance(c.h, 0);
    expect(c.rx.received).toHaveLength(0);
    await advance(c.h, 2);
    expect(eventsOf(c.rx)).toEqual(['contact.updated']);
    const body = c.rx.received[0]?.json as Json;
    expect([...body.changed_fields].sort()).toEqual(['city', 'email']);
    expect(recordOf(body, ['changed_fields'])).toEqual(
      await ok(c.ws.api.get(`/contacts/${contact.id}`)),
    );
  });

  test('two quick task edits are one task.updated', async () => {
    const c = await setup();
    const task = await ok(c.ws.api.post('/tasks', { title: 'Call back' }), 201);
    await subscribe(c, 'task.updated');
    await ok(c.ws.api.patch(`/tasks/${task.id}`, { title: 'Call back Friday' }));
    await advance(c.h, 0.3);
    await ok(c.ws.api.patch(`/tasks/${task.id}`, { priority: 'high' }));
    await advance(c.h, 0);
    expect(c.rx.received).toHaveLength(0);
    await advance(c.h, 2);
    expect(eventsOf(c.rx)).toEqual(['task.updated']);
    const body = c.rx.received[0]?.json as Json;
    expect([...body.changed_fields].sort()).toEqual(['priority', 'title']);
    expect(recordOf(body, ['changed_fields'])).toEqual(await ok(c.ws.api.get(`/tasks/${task.id}`)));
  });
});

describe('without a window', () => {
  test('with webhookCoalesceMs 0 a single PATCH is delivered at once', async () => {
    const c = await setup({ config: { webhookCoalesceMs: 0 } });
    const job = await newJob(c.ws);
    await subscribe(c, 'job.updated');
    await patchJob(c.ws, job.id, { name: 'Roof and gutters' });
    await advance(c.h, 0);
    expect(eventsOf(c.rx)).toEqual(['job.updated']);
    expect(c.rx.received[0]?.json.changed_fields).toEqual(['name']);
  });
});

async function firstHook(c: Ctx): Promise<{ id: string }> {
  const list = await ok(c.ws.api.get('/webhooks'));
  expect(list.data).toHaveLength(1);
  return list.data[0];
}
