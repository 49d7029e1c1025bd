// Subscribing again: the spec's "subscribing the same event, URL and filters twice returns the
// existing subscription", per event, whether it comes alone or in an `events` list; and the one
// secret a partly new `events` list gets. spec: Endpoints › Webhooks, Signature verification 4;
// decisions.md, Webhook subscriptions.
import { describe, expect, test } from 'vitest';
import { verify } from '../support/receiver';
import {
  advance,
  createWebhook,
  fresh,
  hook,
  idsOf,
  listIds,
  ok,
  type Stage,
  setup,
  storedSecrets,
} from './setup';

const HOOK = hook('svc');

describe('subscribing again returns the existing subscription (200, no secret)', () => {
  test('the same event, URL and filters: 200, the same id, no secret key', async () => {
    const { ws } = await fresh();
    const body = { event: 'job.created', target_url: HOOK, filters: { job_type: 'retail' } };
    const first = await createWebhook(ws.api, body);
    const again = await ws.api.post('/webhooks', body);
    expect(again.status).toBe(200);
    expect(again.body).not.toHaveProperty('secret');
    const { secret: _secret, ...stored } = first;
    expect(again.body).toEqual(stored);
    expect(await listIds(ws.api)).toEqual([first.id]);
  });

  test('`*` again: 200 with the same id', async () => {
    const { ws } = await fresh();
    const first = await createWebhook(ws.api, { event: '*', target_url: HOOK });
    const again = await ws.api.post('/webhooks', { event: '*', target_url: HOOK });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.id);
    expect(again.body).not.toHaveProperty('secret');
  });

  test('a repeat keeps the first description', async () => {
    const { ws } = await fresh();
    const first = await createWebhook(ws.api, {
      event: 'job.created',
      target_url: HOOK,
      description: 'first',
    });
    const again = await ws.api.post('/webhooks', {
      event: 'job.created',
      target_url: HOOK,
      description: 'second',
    });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: first.id, description: 'first' });
  });

  test('the alias targetUrl finds the subscription made with target_url', async () => {
    const { ws } = await fresh();
    const first = await createWebhook(ws.api, { event: 'job.created', target_url: HOOK });
    const again = await ws.api.post('/webhooks', { event: 'job.created', targetUrl: HOOK });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.id);
  });

  test('filters compare as key/value sets: another order is a repeat', async () => {
    const { ws } = await fresh();
    const pipelineId = (await ws.api.get('/pipelines')).body.data[0].id;
    const first = await createWebhook(ws.api, {
      event: 'job.created',
      target_url: HOOK,
      filters: { job_type: 'retail', pipeline_id: pipelineId },
    });
    const again = await ws.api.post('/webhooks', {
      event: 'job.created',
      target_url: HOOK,
      filters: { pipeline_id: pipelineId, job_type: 'retail' },
    });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.id);
  });

  test('is_appointment true and "true" are the same filter', async () => {
    const { ws } = await fresh();
    const first = await createWebhook(ws.api, {
      event: 'task.created',
      target_url: HOOK,
      filters: { is_appointment: true },
    });
    const again = await ws.api.post('/webhooks', {
      event: 'task.created',
      target_url: HOOK,
      filters: { is_appointment: 'true' },
    });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.id);
  });

  test('a stage label and its key are the same filter', async () => {
    const { ws } = await fresh();
    const stages: Stage[] = (await ws.api.get('/stages')).body.data;
    const stage = stages.find((s) => s.label !== s.key) as Stage;
    const first = await createWebhook(ws.api, {
      event: 'job.created',
      target_url: HOOK,
      filters: { stage: stage.key },
    });
    const again = await ws.api.post('/webhooks', {
      event: 'job.created',
      target_url: HOOK,
      filters: { stage: stage.label },
    });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.id);
  });

  test('different filters make a new subscription (201)', async () => {
    const { ws } = await fresh();
    const a = await createWebhook(ws.api, {
      event: 'job.created',
      target_url: HOOK,
      filters: { job_type: 'retail' },
    });
    const b = await createWebhook(ws.api, {
      event: 'job.created',
      target_url: HOOK,
      filters: { job_type: 'insurance' },
    });
    const c = await createWebhook(ws.api, { event: 'job.created', target_url: HOOK });
    const d = await createWebhook(ws.api, {
      event: 'job.created',
      target_url: HOOK,
      filters: { job_type: 'retail', stage: 'lead' },
    });
    expect(new Set([a.id, b.id, c.id, d.id]).size).toBe(4);
    expect(await listIds(ws.api)).toHaveLength(4);
  });

  test('another event or another URL makes a new subscription (201)', async () => {
    const { ws } = await fresh();
    const a = await createWebhook(ws.api, { event: 'job.created', target_url: hook('a') });
    const b = await createWebhook(ws.api, { event: 'job.updated', target_url: hook('a') });
    const c = await createWebhook(ws.api, { event: 'job.created', target_url: hook('b') });
    expect(new Set([a.id, b.id, c.id]).size).toBe(3);
  });

  test('the same events set again: 200 list with the same ids and no secret', async () => {
    const { ws } = await fresh();
    const events = ['job.created', 'job.deleted', 'note.created'];
    const first = await createWebhook(ws.api, { events, target_url: HOOK });
    const again = await ws.api.post('/webhooks', { events, target_url: HOOK });
    expect(again.status).toBe(200);
    expect(again.body).not.toHaveProperty('secret');
    expect(again.body).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(idsOf(again).sort()).toEqual(first.data.map((w: { id: string }) => w.id).sort());
    // in another order it is the same set
    const reordered = await ws.api.post('/webhooks', {
      events: [...events].reverse(),
      target_url: HOOK,
    });
    expect(reordered.status).toBe(200);
    expect(idsOf(reordered).sort()).toEqual(idsOf(again).sort());
    expect(await listIds(ws.api)).toHaveLength(3);
  });

  test('subscriptions belong to a credential: the read key subscribing the same gets its own (201)', async () => {
    const { ws } = await fresh();
    const body = { event: 'job.created', target_url: HOOK };
    const mine = await createWebhook(ws.api, body);
    const theirs = await createWebhook(ws.read, body);
    expect(theirs.id).not.toBe(mine.id);
    expect(theirs.secret).not.toBe(mine.secret);
    expect(await listIds(ws.api)).toEqual([mine.id]);
    expect(await listIds(ws.read)).toEqual([theirs.id]);
  });

  test.each([
    ['https://HOOKS.example.com/in', 'https://hooks.example.com/in'],
    ['https://hooks.example.com/in', 'https://Hooks.Example.Com/in'],
    ['https://hooks.example.com:443/in', 'https://hooks.example.com/in'],
    ['https://93.184.216.34/in', 'HTTPS://93.184.216.34/in'],
  ])('URLs compare as parsed: %s then %s is a repeat', async (first, second) => {
    const { ws } = await fresh();
    const a = await createWebhook(ws.api, { event: 'job.created', target_url: first });
    const again = await ws.api.post('/webhooks', { event: 'job.created', target_url: second });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(a.id);
    expect(again.body.target_url).toBe(first);
  });

  test('a path that differs in case is another URL (201)', async () => {
    const { ws } = await fresh();
    const a = await createWebhook(ws.api, {
      event: 'job.created',
      target_url: 'https://93.184.216.34/In',
    });
    const b = await createWebhook(ws.api, {
      event: 'job.created',
      target_url: 'https://93.184.216.34/in',
    });
    expect(b.id).not.toBe(a.id);
  });

  test('after DELETE, subscribing the same again creates a new one (201)', async () => {
    const { ws } = await fresh();
    const a = await createWebhook(ws.api, { event: 'job.created', target_url: HOOK });
    expect((await ws.api.delete(`/webhooks/${a.id}`)).status).toBe(200);
    const b = await createWebhook(ws.api, { event: 'job.created', target_url: HOOK });
    expect(b.id).not.toBe(a.id);
    expect(b.secret).toMatch(/^whsec_/);
  });
});

describe('an events list never duplicates a subscription it names (per event)', () => {
  test('events [a, b] then events [a]: 200 with the existing a, no secret, nothing new', async () => {
    const { ws } = await fresh();
    const first = await createWebhook(ws.api, {
      events: ['contact.created', 'contact.updated'],
      target_url: HOOK,
    });
    const again = await ws.api.post('/webhooks', { events: ['contact.created'], target_url: HOOK });
    expect(again.status, again.text).toBe(200);
    expect(again.body).not.toHaveProperty('secret');
    expect(idsOf(again)).toEqual([first.data[0].id]);
    expect(await listIds(ws.api)).toHaveLength(2);
  });

  test('event a then events [a, b]: the answer lists the existing a and a new b, in the order asked', async () => {
    const { ws } = await fresh();
    const a = await createWebhook(ws.api, { event: 'job.created', target_url: HOOK });
    const res = await ws.api.post('/webhooks', {
      events: ['job.deleted', 'job.created'],
      target_url: HOOK,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.map((w: { event: string }) => w.event)).toEqual([
      'job.deleted',
      'job.created',
    ]);
    expect(res.body.data[1].id).toBe(a.id);
    expect(await listIds(ws.api)).toHaveLength(2);
  });

  test('separate subscriptions to a and b, then events [a, b]: 200 with both, nothing new', async () => {
    const { ws } = await fresh();
    const a = await createWebhook(ws.api, { event: 'job.created', target_url: HOOK });
    const b = await createWebhook(ws.api, { event: 'job.deleted', target_url: HOOK });
    const res = await ws.api.post('/webhooks', {
      events: ['job.created', 'job.deleted'],
      target_url: HOOK,
    });
    expect(res.status, res.text).toBe(200);
    expect(idsOf(res)).toEqual([a.id, b.id]);
    expect(res.body).not.toHaveProperty('secret');
  });

  test('a filtered subscription is another one: events [a] beside a filtered a makes a new a (201)', async () => {
    const { ws } = await fresh();
    const filtered = await createWebhook(ws.api, {
      event: 'job.created',
      target_url: HOOK,
      filters: { job_type: 'retail' },
    });
    const res = await createWebhook(ws.api, { events: ['job.created'], target_url: HOOK });
    expect(res.data[0].id).not.toBe(filtered.id);
    expect(res.data[0].filters).toEqual({});
  });
});

describe('a partly new events list: one new secret signs everything of the list', () => {
  test('the existing subscriptions move onto the new secret; the old one signs 24 hours more', async () => {
    const { h, ws } = await fresh();
    const first = await createWebhook(ws.api, {
      events: ['job.created', 'job.deleted'],
      target_url: HOOK,
    });
    const second = await createWebhook(ws.api, {
      events: ['job.deleted', 'note.created'],
      target_url: HOOK,
    });
    expect(second.secret).toMatch(/^whsec_/);
    expect(second.secret).not.toBe(first.secret);
    const [deleted, note] = second.data;
    expect(deleted.id).toBe(first.data[1].id);
    // every subscription that shared the old secret moves too: job.created, not in the list
    for (const id of [first.data[0].id, deleted.id]) {
      expect(await storedSecrets(h, ws, id)).toEqual([second.secret, first.secret]);
    }
    expect(await storedSecrets(h, ws, note.id)).toEqual([second.secret]);
    expect(await listIds(ws.api)).toHaveLength(3);
  });

  test('after the move, rotating any of them rotates all three: they are one group', async () => {
    const { h, ws } = await fresh();
    const first = await createWebhook(ws.api, { events: ['job.created'], target_url: HOOK });
    const second = await createWebhook(ws.api, {
      events: ['job.created', 'note.created'],
      target_url: HOOK,
    });
    const rotated = await ok(h.admin.post(`/webhooks/${second.data[1].id}/rotate_secret`));
    for (const w of [first.data[0], second.data[1]]) {
      expect((await storedSecrets(h, ws, w.id))[0]).toBe(rotated.secret);
    }
  });

  test('deliveries to the URL verify with the new secret, and with the old one only for 24 hours', async () => {
    const { h, ws, rx } = await setup();
    const first = await createWebhook(ws.api, { events: ['contact.created'], target_url: rx.url });
    const second = await createWebhook(ws.api, {
      events: ['contact.created', 'contact.deleted'],
      target_url: rx.url,
    });
    const contact = await ok(ws.api.post('/contacts', { name: 'Ada Lovelace' }), 201);
    await advance(h, 0);
    const [created] = await rx.waitFor(1);
    const sig = String(created?.headers['x-service-signature']);
    expect(verify(second.secret, sig, String(created?.body))).toBe(true);
    expect(verify(first.secret, sig, String(created?.body))).toBe(true);
    await advance(h, 24 * 3600 + 1);
    await ok(ws.api.delete(`/contacts/${contact.id}`));
    await advance(h, 0);
    const [, deletion] = await rx.waitFor(2);
    const late = String(deletion?.headers['x-service-signature']);
    expect(verify(second.secret, late, String(deletion?.body))).toBe(true);
    expect(verify(first.secret, late, String(deletion?.body))).toBe(false);
  });
});

describe('one change, one delivery to a URL subscribed twice over', () => {
  test('events [contact.created, contact.updated] then events [contact.created]: one POST /contacts sends one delivery', async () => {
    const { h, ws, rx } = await setup();
    const group = await createWebhook(ws.api, {
      events: ['contact.created', 'contact.updated'],
      target_url: rx.url,
    });
    await ok(ws.api.post('/webhooks', { events: ['contact.created'], target_url: rx.url }));
    await ok(ws.api.post('/webhooks', { event: 'contact.created', target_url: rx.url }));
    await ok(ws.api.post('/contacts', { name: 'Ada Lovelace' }), 201);
    await advance(h, 0);
    const [got] = await rx.waitFor(1);
    // a second delivery would have arrived by now: the clock ran everything due
    await advance(h, 0);
    expect(rx.received).toHaveLength(1);
    expect(
      verify(group.secret, String(got?.headers['x-service-signature']), String(got?.body)),
    ).toBe(true);
  });
});
