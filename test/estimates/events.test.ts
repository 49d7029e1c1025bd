// Estimate events as a receiver sees them: spec, Events (estimate.created, sent, viewed, signed,
// declined carry the Estimate; Delivery body: the record exactly as GET returns it); DESIGN.md
// (estimate events take no filters; the homeowner's actions fire the same events); decisions.md,
// Estimates (Events: viewed on the first view only; expiry raises none) and Webhook subscriptions
// (Samples: records the event could be about).
import { describe, expect, test } from 'vitest';
import type { Harness, Json, TestWorkspace } from '../support/harness';
import {
  advance,
  type Ctx,
  eventsOf,
  fresh,
  ok,
  one,
  recordOf,
  setup,
  subscribe,
  UUID,
} from '../webhooks/setup';

const ESTIMATE_EVENTS = [
  'estimate.created',
  'estimate.sent',
  'estimate.viewed',
  'estimate.signed',
  'estimate.declined',
];

/** A job, then a `*` subscription: the receiver sees only what the test does after it. */
async function watched(): Promise<Ctx & { jobId: string }> {
  const c = await setup();
  const jobId = (await ok(c.ws.api.post('/jobs', { name: 'Roof', address: '1 Main St' }), 201)).id;
  await subscribe(c, '*');
  return { ...c, jobId };
}

const estimate = (ws: TestWorkspace, jobId: string, body: Record<string, unknown> = {}) =>
  ok(
    ws.api.post('/estimates', {
      job_id: jobId,
      line_items: [{ name: 'Roof', unit_price: 1000 }],
      ...body,
    }),
    201,
  );

const act = (h: Harness, id: string, verb: string, body?: unknown): Promise<Json> =>
  ok(h.admin.post(`/estimates/${id}/${verb}`, body));

/**
 * The events that arrived, sorted: up to 8 deliveries of a subscription go out at once, so those
 * due together may arrive in any order.
 */
const seen = (c: Ctx): string[] => [...eventsOf(c.rx)].sort();

/** The four event fields a body of `event` carries, `event_at` when the estimate last changed. */
const eventFields = (c: Ctx, event: string, at: string) => ({
  event_type: event,
  event_id: expect.stringMatching(UUID),
  event_at: at,
  event_workspace_id: c.ws.id,
});

describe('each estimate event carries the estimate exactly as GET returns it', () => {
  test('POST /estimates raises estimate.created', async () => {
    const c = await watched();
    const made = await estimate(c.ws, c.jobId);
    await advance(c.h, 0);
    const body = one(c.rx, 'estimate.created').json;
    expect(recordOf(body)).toEqual(await ok(c.ws.api.get(`/estimates/${made.id}`)));
    expect(body).toMatchObject(eventFields(c, 'estimate.created', made.updated_at));
    expect(body).toMatchObject({ status: 'draft', object: 'estimate' });
    expect(seen(c)).toEqual(['estimate.created']);
  });

  test('send raises estimate.sent', async () => {
    const c = await watched();
    const made = await estimate(c.ws, c.jobId);
    const sent = await act(c.h, made.id, 'send');
    await advance(c.h, 0);
    const body = one(c.rx, 'estimate.sent').json;
    expect(recordOf(body)).toEqual(await ok(c.ws.api.get(`/estimates/${made.id}`)));
    expect(body).toMatchObject({
      ...eventFields(c, 'estimate.sent', sent.updated_at),
      status: 'sent',
      signature_status: 'pending',
      view_url: expect.any(String),
    });
  });

  test('view raises estimate.viewed', async () => {
    const c = await watched();
    const made = await estimate(c.ws, c.jobId);
    await act(c.h, made.id, 'send');
    const viewed = await act(c.h, made.id, 'view');
    await advance(c.h, 0);
    const body = one(c.rx, 'estimate.viewed').json;
    expect(recordOf(body)).toEqual(await ok(c.ws.api.get(`/estimates/${made.id}`)));
    expect(body).toMatchObject({
      ...eventFields(c, 'estimate.viewed', viewed.updated_at),
      status: 'viewed',
      view_count: 1,
    });
  });

  test('sign raises estimate.signed', async () => {
    const c = await watched();
    const made = await estimate(c.ws, c.jobId);
    await act(c.h, made.id, 'send');
    const signed = await act(c.h, made.id, 'sign', { signer_name: 'Dana Whitfield' });
    await advance(c.h, 0);
    const body = one(c.rx, 'estimate.signed').json;
    expect(recordOf(body)).toEqual(await ok(c.ws.api.get(`/estimates/${made.id}`)));
    expect(body).toMatchObject({
      ...eventFields(c, 'estimate.signed', signed.updated_at),
      status: 'signed',
      signer_name: 'Dana Whitfield',
      signed_pdf_url: expect.any(String),
    });
  });

  test('decline raises estimate.declined', async () => {
    const c = await watched();
    const made = await estimate(c.ws, c.jobId);
    await act(c.h, made.id, 'send');
    const declined = await act(c.h, made.id, 'decline');
    await advance(c.h, 0);
    const body = one(c.rx, 'estimate.declined').json;
    expect(recordOf(body)).toEqual(await ok(c.ws.api.get(`/estimates/${made.id}`)));
    expect(body).toMatchObject({
      ...eventFields(c, 'estimate.declined', declined.updated_at),
      status: 'declined',
      signature_status: 'declined',
    });
  });
});

describe('which moves raise events, and how often', () => {
  test('a whole life raises created, sent, viewed and signed, once each', async () => {
    const c = await watched();
    const made = await estimate(c.ws, c.jobId);
    await act(c.h, made.id, 'send');
    await act(c.h, made.id, 'view');
    await act(c.h, made.id, 'sign', { signer_name: 'Dana' });
    await advance(c.h, 0);
    expect(seen(c)).toEqual([
      'estimate.created',
      'estimate.sent',
      'estimate.signed',
      'estimate.viewed',
    ]);
    const ids = c.rx.received.map((r) => r.json.event_id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test('estimate.viewed fires on the first view only; later views only count', async () => {
    const c = await watched();
    const made = await estimate(c.ws, c.jobId);
    await act(c.h, made.id, 'send');
    await act(c.h, made.id, 'view');
    await act(c.h, made.id, 'view');
    await act(c.h, made.id, 'view');
    await advance(c.h, 2);
    expect(seen(c)).toEqual(['estimate.created', 'estimate.sent', 'estimate.viewed']);
    expect(one(c.rx, 'estimate.viewed').json.view_count).toBe(1);
    expect((await ok(c.ws.api.get(`/estimates/${made.id}`))).view_count).toBe(3);
  });

  test('sending one already out raises no second estimate.sent', async () => {
    const c = await watched();
    const made = await estimate(c.ws, c.jobId);
    await act(c.h, made.id, 'send');
    await act(c.h, made.id, 'send');
    await advance(c.h, 2);
    expect(seen(c)).toEqual(['estimate.created', 'estimate.sent']);
  });

  test('sending again after a decline raises estimate.sent again', async () => {
    const c = await watched();
    const made = await estimate(c.ws, c.jobId);
    await act(c.h, made.id, 'send');
    await act(c.h, made.id, 'decline');
    await act(c.h, made.id, 'send');
    await advance(c.h, 2);
    expect(seen(c)).toEqual([
      'estimate.created',
      'estimate.declined',
      'estimate.sent',
      'estimate.sent',
    ]);
  });

  test('declining a declined estimate raises no second estimate.declined', async () => {
    const c = await watched();
    const made = await estimate(c.ws, c.jobId);
    await act(c.h, made.id, 'send');
    await act(c.h, made.id, 'decline');
    await act(c.h, made.id, 'decline');
    await advance(c.h, 2);
    expect(seen(c)).toEqual(['estimate.created', 'estimate.declined', 'estimate.sent']);
  });

  test('a refused move raises nothing', async () => {
    const c = await watched();
    const made = await estimate(c.ws, c.jobId);
    expect((await c.h.admin.post(`/estimates/${made.id}/view`)).status).toBe(409);
    expect((await c.h.admin.post(`/estimates/${made.id}/decline`)).status).toBe(409);
    await advance(c.h, 2);
    expect(seen(c)).toEqual(['estimate.created']);
  });

  test('PATCH raises no event: the catalogue has no estimate.updated', async () => {
    const c = await watched();
    const made = await estimate(c.ws, c.jobId);
    await advance(c.h, 2);
    await ok(c.ws.api.patch(`/estimates/${made.id}`, { title: 'Changed', price: 900 }));
    await advance(c.h, 2);
    expect(seen(c)).toEqual(['estimate.created']);
  });

  test('the estimates of a deleted job raise nothing, neither when hidden nor when purged', async () => {
    const c = await watched();
    const made = await estimate(c.ws, c.jobId);
    await act(c.h, made.id, 'send');
    await advance(c.h, 2);
    await ok(c.ws.api.delete(`/jobs/${c.jobId}`));
    await advance(c.h, 31 * 24 * 3600);
    expect(seen(c)).toEqual(['estimate.created', 'estimate.sent', 'job.deleted']);
  });

  test('expiry raises no event', async () => {
    const c = await watched();
    const made = await estimate(c.ws, c.jobId);
    await act(c.h, made.id, 'send');
    await advance(c.h, 0);
    expect(seen(c)).toEqual(['estimate.created', 'estimate.sent']);
    await advance(c.h, 31 * 24 * 3600);
    expect((await ok(c.ws.api.get(`/estimates/${made.id}`))).status).toBe('expired');
    expect(seen(c)).toEqual(['estimate.created', 'estimate.sent']);
  });

  test('a subscription to one estimate event receives only that event', async () => {
    const c = await setup();
    const jobId = (await ok(c.ws.api.post('/jobs', { name: 'Roof', address: '1 Main St' }), 201))
      .id;
    await subscribe(c, 'estimate.signed');
    const made = await estimate(c.ws, jobId);
    await act(c.h, made.id, 'send');
    await act(c.h, made.id, 'view');
    await act(c.h, made.id, 'sign', { signer_name: 'Dana' });
    await advance(c.h, 2);
    expect(eventsOf(c.rx)).toEqual(['estimate.signed']);
  });
});

describe('GET /events and samples', () => {
  test('GET /events lists the five estimate events, about estimates, with no filters', async () => {
    const { ws } = await fresh('empty');
    const catalogue = await ok(ws.api.get('/events'));
    const entries = catalogue.data.filter((e: { event: string }) =>
      e.event.startsWith('estimate.'),
    );
    expect(entries.map((e: { event: string }) => e.event)).toEqual(ESTIMATE_EVENTS);
    for (const e of entries) {
      expect(e, e.event).toMatchObject({ resource: 'estimate', filters: [] });
    }
  });

  test('a filter on an estimate event is refused', async () => {
    const c = await setup();
    const res = await c.ws.api.post(
      '/webhooks',
      { event: 'estimate.signed', target_url: c.rx.url, filters: { status: 'signed' } },
      { invalid: true },
    );
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
  });

  test('estimate.signed samples are signed estimates as GET returns them; none before one is signed', async () => {
    const { h, ws } = await fresh('empty');
    const jobId = (await ok(ws.api.post('/jobs', { name: 'Roof', address: '1 Main St' }), 201)).id;
    const toSign = await estimate(ws, jobId);
    expect((await ok(ws.api.get('/webhooks/samples/estimate.signed'))).data).toEqual([]);
    await act(h, toSign.id, 'send');
    await act(h, toSign.id, 'sign', { signer_name: 'Dana Whitfield' });
    const draft = await estimate(ws, jobId);
    const samples = (await ok(ws.api.get('/webhooks/samples/estimate.signed'))).data;
    expect(samples.map((s: { id: string }) => s.id)).toEqual([toSign.id]);
    expect(samples.map((s: { id: string }) => s.id)).not.toContain(draft.id);
    const sample = samples[0];
    expect(sample).toMatchObject({
      event_type: 'estimate.signed',
      event_workspace_id: ws.id,
      status: 'signed',
    });
    expect(recordOf(sample)).toEqual(await ok(ws.api.get(`/estimates/${toSign.id}`)));
  });

  test('estimate.created samples are the newest estimates', async () => {
    const { ws } = await fresh('empty');
    const jobId = (await ok(ws.api.post('/jobs', { name: 'Roof', address: '1 Main St' }), 201)).id;
    const made = await estimate(ws, jobId);
    const samples = (await ok(ws.api.get('/webhooks/samples/estimate.created'))).data;
    expect(samples[0]?.id).toBe(made.id);
    expect(samples.every((s: { object: string }) => s.object === 'estimate')).toBe(true);
  });
});
