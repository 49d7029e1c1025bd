// POST /webhooks: what a new subscription looks like, its secret, its filters. spec: Webhook
// subscription, Endpoints › Webhooks, Events › Filters; decisions.md, Webhook subscriptions.
import { describe, expect, test } from 'vitest';
import type { Json } from '../support/harness';
import {
  createWebhook,
  fresh,
  hook,
  ISO,
  idsOf,
  listIds,
  type Stage,
  storedSecrets,
  UUID,
} from './setup';

const HOOK = hook('svc');

describe('POST /webhooks: a new subscription answers 201 with its secret, once', () => {
  test('one event name: 201 with every Webhook field and a whsec_ secret', async () => {
    const { ws } = await fresh();
    const res = await ws.api.post('/webhooks', { event: 'job.created', target_url: HOOK });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(
      [
        'id',
        'object',
        'event',
        'target_url',
        'description',
        'filters',
        'created_at',
        'disabled_at',
        'secret',
      ].sort(),
    );
    expect(res.body).toMatchObject({
      object: 'webhook',
      event: 'job.created',
      target_url: HOOK,
      description: null,
      filters: {},
      disabled_at: null,
    });
    expect(res.body.id).toMatch(UUID);
    expect(res.body.created_at).toMatch(ISO);
    expect(res.body.secret).toMatch(/^whsec_.{16,}$/);
  });

  test('the answer is the stored subscription: GET /webhooks/{id} shows the same fields', async () => {
    const { ws } = await fresh();
    const { secret, ...created } = await createWebhook(ws.api, {
      event: 'contact.created',
      target_url: HOOK,
      description: 'CRM sync',
    });
    expect(secret).toMatch(/^whsec_/);
    const res = await ws.api.get(`/webhooks/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(created);
  });

  test('separate subscriptions have separate secrets', async () => {
    const { ws } = await fresh();
    const a = await createWebhook(ws.api, { event: 'job.created', target_url: hook('a') });
    const b = await createWebhook(ws.api, { event: 'job.created', target_url: hook('b') });
    expect(a.secret).not.toBe(b.secret);
  });

  test('`*` subscribes to every event: 201 with event "*"', async () => {
    const { ws } = await fresh();
    const body = await createWebhook(ws.api, { event: '*', target_url: HOOK });
    expect(body).toMatchObject({ object: 'webhook', event: '*', filters: {}, target_url: HOOK });
    expect(body.secret).toMatch(/^whsec_/);
  });

  test('events [a, b]: 201 list of two subscriptions, one per event, sharing one secret', async () => {
    const { h, ws } = await fresh();
    const res = await ws.api.post('/webhooks', {
      events: ['job.created', 'contact.created'],
      target_url: HOOK,
      description: 'both',
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(
      ['object', 'data', 'has_more', 'next_cursor', 'secret'].sort(),
    );
    expect(res.body).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(res.body.secret).toMatch(/^whsec_/);
    const data: Json[] = res.body.data;
    expect(data).toHaveLength(2);
    expect(data.map((w) => w.event).sort()).toEqual(['contact.created', 'job.created']);
    for (const w of data) {
      expect(w).toMatchObject({
        object: 'webhook',
        target_url: HOOK,
        description: 'both',
        filters: {},
        disabled_at: null,
      });
      expect(w).not.toHaveProperty('secret');
      expect(w.id).toMatch(UUID);
      // spec, Signature verification 4: several events on one URL share one secret
      expect(await storedSecrets(h, ws, w.id)).toEqual([res.body.secret]);
    }
    expect(new Set(idsOf(res)).size).toBe(2);
    expect((await listIds(ws.api)).sort()).toEqual(idsOf(res).sort());
  });

  test('events with one name still answers a list (decisions.md)', async () => {
    const { ws } = await fresh();
    const body = await createWebhook(ws.api, { events: ['note.created'], target_url: HOOK });
    expect(body).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(body.data).toHaveLength(1);
    expect(body.data[0].event).toBe('note.created');
    expect(body.secret).toMatch(/^whsec_/);
  });

  test('a name repeated in events counts once', async () => {
    const { ws } = await fresh();
    const body = await createWebhook(ws.api, {
      events: ['job.created', 'job.created', 'job.deleted'],
      target_url: HOOK,
    });
    expect(body.data.map((w: Json) => w.event).sort()).toEqual(['job.created', 'job.deleted']);
    expect(await listIds(ws.api)).toHaveLength(2);
  });

  test('targetUrl is an alias of target_url', async () => {
    const { ws } = await fresh();
    const body = await createWebhook(ws.api, { event: 'task.created', targetUrl: HOOK });
    expect(body.target_url).toBe(HOOK);
    expect(body).not.toHaveProperty('targetUrl');
  });

  test('the URL is stored as sent', async () => {
    const { ws } = await fresh();
    const url = 'https://Hooks.Example.COM/In/Bound?src=svc';
    const body = await createWebhook(ws.api, { event: 'task.created', target_url: url });
    expect(body.target_url).toBe(url);
    expect((await ws.api.get(`/webhooks/${body.id}`)).body.target_url).toBe(url);
  });

  test('description is stored, up to 500 characters', async () => {
    const { ws } = await fresh();
    const text = 'd'.repeat(500);
    const body = await createWebhook(ws.api, {
      event: 'job.created',
      target_url: HOOK,
      description: text,
    });
    expect(body.description).toBe(text);
    expect((await ws.api.get(`/webhooks/${body.id}`)).body.description).toBe(text);
  });

  // spec, Conventions: a value the service does not have is null, not an empty string
  test.each([[null], [''], ['   ']])('description %j is stored as null', async (description) => {
    const { ws } = await fresh();
    const body = await createWebhook(ws.api, {
      event: 'job.created',
      target_url: HOOK,
      description,
    });
    expect(body.description).toBeNull();
    expect((await ws.api.get(`/webhooks/${body.id}`)).body.description).toBeNull();
  });

  test('description is trimmed', async () => {
    const { ws } = await fresh();
    const body = await createWebhook(ws.api, {
      event: 'job.created',
      target_url: HOOK,
      description: '  CRM sync ',
    });
    expect(body.description).toBe('CRM sync');
  });

  test('filters are stored, several keys together', async () => {
    const { ws } = await fresh();
    const pipelines: Json[] = (await ws.api.get('/pipelines')).body.data;
    const pipelineId = pipelines[0].id;
    const body = await createWebhook(ws.api, {
      event: 'job.created',
      target_url: HOOK,
      filters: { job_type: 'insurance', pipeline_id: pipelineId },
    });
    expect(body.filters).toEqual({ job_type: 'insurance', pipeline_id: pipelineId });
    expect((await ws.api.get(`/webhooks/${body.id}`)).body.filters).toEqual(body.filters);
  });

  test('a stage filter given as a label is stored as the stage key', async () => {
    const { ws } = await fresh();
    const stages: Stage[] = (await ws.api.get('/stages')).body.data;
    // A label that is not also a key, on the default board (listed first).
    const stage = stages.find((s) => s.label !== s.key && s.pipeline_id === stages[0]?.pipeline_id);
    if (!stage) {
      throw new Error('the default board should have a stage whose label is not its key');
    }
    const expected = stages.find((s) => s.label === stage.label)?.key;
    expect(expected).toBe(stage.key);
    const body = await createWebhook(ws.api, {
      event: 'job.stage_changed',
      target_url: HOOK,
      filters: { stage: stage.label, previous_stage: stage.label },
    });
    expect(body.filters).toEqual({ stage: stage.key, previous_stage: stage.key });
    expect((await ws.api.get(`/webhooks/${body.id}`)).body.filters).toEqual(body.filters);
  });

  test('a stage filter given as a key is stored as that key', async () => {
    const { ws } = await fresh();
    const stages: Stage[] = (await ws.api.get('/stages')).body.data;
    const last = stages[stages.length - 1] as Stage;
    const body = await createWebhook(ws.api, {
      event: 'job.created',
      target_url: HOOK,
      filters: { stage: last.key },
    });
    expect(body.filters).toEqual({ stage: last.key });
  });

  test.each([['true'], [true]])('is_appointment %j is stored as "true"', async (value) => {
    const { ws } = await fresh();
    const body = await createWebhook(ws.api, {
      event: 'task.created',
      target_url: HOOK,
      filters: { is_appointment: value },
    });
    expect(body.filters).toEqual({ is_appointment: 'true' });
  });

  test('filters: null or {} is no filter', async () => {
    const { ws } = await fresh();
    const a = await createWebhook(ws.api, { event: '*', target_url: hook('a'), filters: {} });
    const b = await createWebhook(ws.api, {
      events: ['job.created', 'job.updated'],
      target_url: hook('b'),
      filters: null,
    });
    expect(a.filters).toEqual({});
    expect(b.data.map((w: Json) => w.filters)).toEqual([{}, {}]);
  });
});
