// POST/GET/DELETE /webhooks: what a subscription looks like, repeats, every bad input, who owns
// a subscription, revoking its key, and the workspace's ceiling. spec: Webhook subscription,
// Endpoints › Webhooks, Authentication 3–4, Events › Filters; decisions.md, Webhook subscriptions.
import { describe, expect, test } from 'vitest';
import type { Harness, Json, TestWorkspace } from '../support/harness';
import {
  advance,
  app,
  createWebhook,
  fresh,
  hook,
  ISO,
  idsOf,
  listIds,
  SPEC_EVENTS,
  type Stage,
  storedSecrets,
  UUID,
} from './setup';

const HOOK = hook('svc');

/** A uuid no workspace holds. */
const UNKNOWN = '7b0c5b2e-5d2a-4b43-9d59-6a1f0b7f5a11';

/** Every subscription of `ws` as the control API lists them, page after page. */
async function adminHooks(h: Harness, ws: TestWorkspace): Promise<Json[]> {
  const all: Json[] = [];
  let cursor: string | null = null;
  do {
    const query: Record<string, string | number> = { workspace_id: ws.id, limit: 200 };
    if (cursor !== null) {
      query.cursor = cursor;
    }
    const res = await h.admin.get('/webhooks', { query });
    expect(res.status, res.text).toBe(200);
    all.push(...res.body.data);
    cursor = res.body.next_cursor;
  } while (cursor !== null);
  return all;
}

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
      expect(storedSecrets(h, ws, w.id)).toEqual([res.body.secret]);
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

describe('POST /webhooks: every bad input is 400 invalid_request naming the field, nothing written', () => {
  const long = 'x'.repeat(501);
  test.each<[string, Record<string, unknown>, string]>([
    ['target_url missing', { event: 'job.created' }, 'target_url'],
    ['target_url empty', { event: 'job.created', target_url: '' }, 'target_url'],
    ['target_url malformed', { event: 'job.created', target_url: 'not a url' }, 'target_url'],
    ['target_url relative', { event: 'job.created', target_url: '/hooks' }, 'target_url'],
    ['targetUrl malformed', { event: 'job.created', targetUrl: 'https//nope' }, 'targetUrl'],
    [
      'target_url ftp:',
      { event: 'job.created', target_url: 'ftp://93.184.216.34/hook' },
      'target_url',
    ],
    [
      'targetUrl ftp:',
      { event: 'job.created', targetUrl: 'ftp://93.184.216.34/hook' },
      'targetUrl',
    ],
    ['neither event nor events', { target_url: HOOK }, 'event'],
    ['event empty', { event: '', target_url: HOOK }, 'event'],
    [
      'both event and events',
      { event: 'job.created', events: ['job.updated'], target_url: HOOK },
      'events',
    ],
    ['events empty', { events: [], target_url: HOOK }, 'events'],
    ['unknown event', { event: 'job.exploded', target_url: HOOK }, 'event'],
    ['event in another case', { event: 'Job.Created', target_url: HOOK }, 'event'],
    [
      'unknown name inside events',
      { events: ['job.created', 'job.exploded'], target_url: HOOK },
      'events[1]',
    ],
    ['* inside events', { events: ['*'], target_url: HOOK }, 'events[0]'],
    ['* second inside events', { events: ['job.created', '*'], target_url: HOOK }, 'events[1]'],
    [
      'filters with events',
      { events: ['job.created'], target_url: HOOK, filters: { job_type: 'retail' } },
      'filters',
    ],
    [
      'filters with *',
      { event: '*', target_url: HOOK, filters: { job_type: 'retail' } },
      'filters',
    ],
    [
      'a filter key job.updated does not take',
      { event: 'job.updated', target_url: HOOK, filters: { stage: 'lead' } },
      'filters.stage',
    ],
    [
      'a filter key no event takes',
      { event: 'job.created', target_url: HOOK, filters: { colour: 'red' } },
      'filters.colour',
    ],
    [
      'a second, unknown key beside a good one',
      { event: 'job.created', target_url: HOOK, filters: { job_type: 'retail', city: 'Plano' } },
      'filters.city',
    ],
    [
      'job.deleted with any filter',
      { event: 'job.deleted', target_url: HOOK, filters: { job_type: 'retail' } },
      'filters.job_type',
    ],
    [
      'note.created with any filter',
      { event: 'note.created', target_url: HOOK, filters: { stage: 'lead' } },
      'filters.stage',
    ],
    [
      'job_type outside its values',
      { event: 'job.created', target_url: HOOK, filters: { job_type: 'commercial' } },
      'filters.job_type',
    ],
    [
      'job_type in another case',
      { event: 'job.created', target_url: HOOK, filters: { job_type: 'Retail' } },
      'filters.job_type',
    ],
    [
      'contact type outside its values',
      { event: 'contact.created', target_url: HOOK, filters: { type: 'plumber' } },
      'filters.type',
    ],
    [
      'appointment_type outside its values',
      { event: 'task.created', target_url: HOOK, filters: { appointment_type: 'lunch' } },
      'filters.appointment_type',
    ],
    [
      'is_appointment "false"',
      { event: 'task.created', target_url: HOOK, filters: { is_appointment: 'false' } },
      'filters.is_appointment',
    ],
    [
      'is_appointment false',
      { event: 'task.created', target_url: HOOK, filters: { is_appointment: false } },
      'filters.is_appointment',
    ],
    [
      'an unknown stage',
      { event: 'job.created', target_url: HOOK, filters: { stage: 'on_the_moon' } },
      'filters.stage',
    ],
    [
      'an unknown previous_stage',
      { event: 'job.stage_changed', target_url: HOOK, filters: { previous_stage: 'nowhere' } },
      'filters.previous_stage',
    ],
    [
      'an unknown pipeline id',
      { event: 'job.created', target_url: HOOK, filters: { pipeline_id: UNKNOWN } },
      'filters.pipeline_id',
    ],
    [
      'a pipeline id that is not a uuid',
      { event: 'job.created', target_url: HOOK, filters: { pipeline_id: 'default' } },
      'filters.pipeline_id',
    ],
    [
      'an unknown user',
      { event: 'job.assigned', target_url: HOOK, filters: { assigned_to: UNKNOWN } },
      'filters.assigned_to',
    ],
    [
      'a number as a filter value',
      { event: 'job.created', target_url: HOOK, filters: { job_type: 1 } },
      'filters.job_type',
    ],
    [
      'null as a filter value',
      { event: 'job.created', target_url: HOOK, filters: { job_type: null } },
      'filters.job_type',
    ],
    [
      'an array as a filter value',
      { event: 'job.created', target_url: HOOK, filters: { stage: ['lead'] } },
      'filters.stage',
    ],
    [
      'true as a filter value other than is_appointment',
      { event: 'file.created', target_url: HOOK, filters: { category: true } },
      'filters.category',
    ],
    [
      'an empty string as a filter value',
      { event: 'job.created', target_url: HOOK, filters: { stage: '' } },
      'filters.stage',
    ],
    [
      'description over 500 characters',
      { event: 'job.created', target_url: HOOK, description: long },
      'description',
    ],
  ])('%s → field %s', async (_what, body, field) => {
    const { h, ws } = await fresh();
    const res = await ws.api.post('/webhooks', body, { invalid: true });
    expect(res.status, res.text).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field });
    expect(await listIds(ws.api)).toEqual([]);
    expect(await adminHooks(h, ws)).toEqual([]);
  });

  // JSON makes `__proto__` an own key: it must not vanish and leave the subscription unfiltered
  test('a filter named __proto__ is 400 field filters.__proto__, nothing written', async () => {
    const { ws } = await fresh();
    const res = await ws.api.raw('POST', '/webhooks', {
      headers: { 'Content-Type': 'application/json' },
      body: `{"event":"job.created","target_url":"${HOOK}","filters":{"__proto__":"x"}}`,
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'filters.__proto__' });
    expect(await listIds(ws.api)).toEqual([]);
  });

  test("another workspace's pipeline or user is unknown here", async () => {
    const { ws } = await fresh();
    const other = await app().workspace({ profile: 'small' });
    const pipelineId = (await other.api.get('/pipelines')).body.data[0].id;
    const userId = (await other.api.get('/users')).body.data[0].id;
    const byPipeline = await ws.api.post('/webhooks', {
      event: 'job.created',
      target_url: HOOK,
      filters: { pipeline_id: pipelineId },
    });
    expect(byPipeline.status).toBe(400);
    expect(byPipeline.body.error).toMatchObject({
      code: 'invalid_request',
      field: 'filters.pipeline_id',
    });
    const byUser = await ws.api.post('/webhooks', {
      event: 'task.created',
      target_url: HOOK,
      filters: { assigned_to: userId },
    });
    expect(byUser.status).toBe(400);
    expect(byUser.body.error).toMatchObject({
      code: 'invalid_request',
      field: 'filters.assigned_to',
    });
    expect(await listIds(ws.api)).toEqual([]);
  });

  test('a refused events request writes none of its subscriptions', async () => {
    const { h, ws } = await fresh();
    const res = await ws.api.post('/webhooks', {
      events: ['job.created', 'contact.created', 'nope.never'],
      target_url: HOOK,
    });
    expect(res.status).toBe(400);
    expect(res.body.error.field).toBe('events[2]');
    expect(await adminHooks(h, ws)).toEqual([]);
  });
});

describe('a subscription belongs to the credential that made it', () => {
  test('a read-only key may subscribe, list, read and delete its own subscriptions', async () => {
    const { ws } = await fresh();
    const created = await createWebhook(ws.read, { event: 'job.created', target_url: HOOK });
    expect(created.secret).toMatch(/^whsec_/);
    const group = await createWebhook(ws.read, {
      events: ['contact.created', 'task.created'],
      target_url: HOOK,
    });
    expect(group.data).toHaveLength(2);
    expect((await listIds(ws.read)).sort()).toEqual(
      [created.id, ...group.data.map((w: { id: string }) => w.id)].sort(),
    );
    const got = await ws.read.get(`/webhooks/${created.id}`);
    expect(got.status).toBe(200);
    expect(got.body.id).toBe(created.id);
    const gone = await ws.read.delete(`/webhooks/${created.id}`);
    expect(gone.status).toBe(200);
    expect(gone.body).toEqual({ id: created.id, object: 'webhook', deleted: true });
    expect(await listIds(ws.read)).not.toContain(created.id);
  });

  test("the write key does not see the read key's subscriptions, and the other way round", async () => {
    const { ws } = await fresh();
    const mine = await createWebhook(ws.api, { event: 'job.created', target_url: hook('w') });
    const theirs = await createWebhook(ws.read, { event: 'job.created', target_url: hook('r') });

    expect(await listIds(ws.api)).toEqual([mine.id]);
    expect(await listIds(ws.read)).toEqual([theirs.id]);

    for (const [client, id] of [
      [ws.api, theirs.id],
      [ws.read, mine.id],
    ] as const) {
      const get = await client.get(`/webhooks/${id}`);
      expect(get.status).toBe(404);
      expect(get.body.error.code).toBe('not_found');
      const del = await client.delete(`/webhooks/${id}`);
      expect(del.status).toBe(404);
      expect(del.body.error.code).toBe('not_found');
    }
    // the refused deletes removed nothing
    expect((await ws.api.get(`/webhooks/${mine.id}`)).status).toBe(200);
    expect((await ws.read.get(`/webhooks/${theirs.id}`)).status).toBe(200);
  });

  test("a second full-access key of the workspace does not see the first key's subscriptions", async () => {
    const { h, ws } = await fresh();
    const minted = await h.admin.post(`/workspaces/${ws.id}/keys`, { access: 'write' });
    expect(minted.status, minted.text).toBe(201);
    const second = h.as(minted.body.key);
    const mine = await createWebhook(ws.api, { event: 'job.created', target_url: HOOK });
    expect(await listIds(second)).toEqual([]);
    expect((await second.get(`/webhooks/${mine.id}`)).status).toBe(404);
    expect((await second.delete(`/webhooks/${mine.id}`)).status).toBe(404);
  });

  test("another workspace's subscription id is 404 on GET and DELETE", async () => {
    const { ws } = await fresh();
    const other = await app().workspace({ profile: 'empty' });
    const theirs = await createWebhook(other.api, { event: 'job.created', target_url: HOOK });
    const get = await ws.api.get(`/webhooks/${theirs.id}`);
    expect(get.status).toBe(404);
    expect(get.body.error.code).toBe('not_found');
    const del = await ws.api.delete(`/webhooks/${theirs.id}`);
    expect(del.status).toBe(404);
    expect(del.body.error.code).toBe('not_found');
    expect(await listIds(ws.api)).toEqual([]);
    expect(await listIds(other.api)).toEqual([theirs.id]);
  });
});

describe('GET and DELETE /webhooks', () => {
  test('GET /webhooks lists the caller’s subscriptions newest first, as a whole list', async () => {
    const { h, ws } = await fresh();
    const a = await createWebhook(ws.api, { event: 'job.created', target_url: hook('a') });
    await advance(h, 1);
    const b = await createWebhook(ws.api, { event: '*', target_url: hook('b') });
    await advance(h, 1);
    const c = await createWebhook(ws.api, { event: 'note.created', target_url: hook('c') });
    await createWebhook(ws.read, { event: 'job.created', target_url: hook('read') });
    const res = await ws.api.get('/webhooks');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(idsOf(res)).toEqual([c.id, b.id, a.id]);
    for (const w of res.body.data) {
      expect(w.object).toBe('webhook');
      expect(w).not.toHaveProperty('secret');
    }
  });

  test('GET /webhooks of a key with none is an empty list', async () => {
    const { ws } = await fresh();
    const res = await ws.api.get('/webhooks');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ object: 'list', data: [], has_more: false, next_cursor: null });
  });

  test('GET /webhooks/{id} never shows the secret', async () => {
    const { ws } = await fresh();
    const created = await createWebhook(ws.api, { event: 'job.created', target_url: HOOK });
    const res = await ws.api.get(`/webhooks/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('secret');
    expect(res.text).not.toContain(created.secret);
    const list = await ws.api.get('/webhooks');
    expect(list.text).not.toContain(created.secret);
  });

  test('DELETE answers the deleted confirmation; then GET and DELETE are 404', async () => {
    const { ws } = await fresh();
    const keep = await createWebhook(ws.api, { event: 'job.updated', target_url: HOOK });
    const created = await createWebhook(ws.api, { event: 'job.created', target_url: HOOK });
    const res = await ws.api.delete(`/webhooks/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: created.id, object: 'webhook', deleted: true });

    const get = await ws.api.get(`/webhooks/${created.id}`);
    expect(get.status).toBe(404);
    expect(get.body.error.code).toBe('not_found');
    const again = await ws.api.delete(`/webhooks/${created.id}`);
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('not_found');
    expect(await listIds(ws.api)).toEqual([keep.id]);
  });

  test('deleting one subscription of an events group leaves the others', async () => {
    const { ws } = await fresh();
    const group = await createWebhook(ws.api, {
      events: ['job.created', 'job.deleted'],
      target_url: HOOK,
    });
    const [first, second] = group.data as Json[];
    expect((await ws.api.delete(`/webhooks/${first.id}`)).status).toBe(200);
    expect(await listIds(ws.api)).toEqual([second.id]);
  });

  test.each([['not-a-uuid'], ['12345'], ['7b0c5b2e-5d2a-4b43-9d59-6a1f0b7f5a1']])(
    'an id that is not a uuid (%s) names no subscription: 404 on GET and DELETE',
    async (id) => {
      const { ws } = await fresh();
      for (const res of [
        await ws.api.get(`/webhooks/${id}`, { invalid: true }),
        await ws.api.delete(`/webhooks/${id}`, { invalid: true }),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body.error).toMatchObject({ code: 'not_found' });
      }
    },
  );

  test('an unknown uuid is 404 on GET and DELETE', async () => {
    const { ws } = await fresh();
    expect((await ws.api.get(`/webhooks/${UNKNOWN}`)).status).toBe(404);
    expect((await ws.api.delete(`/webhooks/${UNKNOWN}`)).status).toBe(404);
  });
});

describe('revoking a key switches off the webhooks it created', () => {
  test('DELETE /__admin/keys/{id} sets disabled_at on that key’s webhooks only', async () => {
    const { h, ws } = await fresh();
    const other = await app().workspace({ profile: 'empty' });
    const single = await createWebhook(ws.api, { event: 'job.created', target_url: hook('w1') });
    const group = await createWebhook(ws.api, {
      events: ['contact.created', 'task.created'],
      target_url: hook('w2'),
    });
    const readOwn = await createWebhook(ws.read, { event: 'job.created', target_url: hook('r') });
    const elsewhere = await createWebhook(other.api, {
      event: 'job.created',
      target_url: hook('o'),
    });
    const writeIds = [single.id, ...group.data.map((w: { id: string }) => w.id)];

    const before = await adminHooks(h, ws);
    expect(before).toHaveLength(4);
    for (const w of before) {
      expect(w).toMatchObject({
        object: 'webhook',
        workspace_id: ws.id,
        disabled_at: null,
        consecutive_failures: 0,
        active_secrets: 1,
      });
      expect(w.credential_id).toBe(writeIds.includes(w.id) ? ws.keys.write.id : ws.keys.read.id);
    }

    await advance(h, 60);
    const revoked = await h.admin.delete(`/keys/${ws.keys.write.id}`);
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.body.revoked_at).toMatch(ISO);

    const after = await adminHooks(h, ws);
    expect(after).toHaveLength(4);
    for (const w of after) {
      if (writeIds.includes(w.id)) {
        expect(w.disabled_at).toBe(revoked.body.revoked_at);
      } else {
        expect(w.id).toBe(readOwn.id);
        expect(w.disabled_at).toBeNull();
      }
    }
    // the read key goes on, its subscription on
    const readView = await ws.read.get(`/webhooks/${readOwn.id}`);
    expect(readView.status).toBe(200);
    expect(readView.body.disabled_at).toBeNull();
    // the revoked key is refused
    expect((await ws.api.get('/webhooks')).status).toBe(401);
    // another workspace is untouched
    const theirs = await adminHooks(h, other);
    expect(theirs.map((w) => [w.id, w.disabled_at])).toEqual([[elsewhere.id, null]]);
  });

  test('revoking the read key switches off its webhooks and not the write key’s', async () => {
    const { h, ws } = await fresh();
    const mine = await createWebhook(ws.api, { event: '*', target_url: hook('w') });
    const theirs = await createWebhook(ws.read, { event: '*', target_url: hook('r') });
    const revoked = await h.admin.delete(`/keys/${ws.keys.read.id}`);
    expect(revoked.status).toBe(200);
    const byId = new Map((await adminHooks(h, ws)).map((w) => [w.id, w]));
    expect(byId.get(theirs.id)?.disabled_at).toBe(revoked.body.revoked_at);
    expect(byId.get(mine.id)?.disabled_at).toBeNull();
    expect((await ws.api.get(`/webhooks/${mine.id}`)).body.disabled_at).toBeNull();
  });

  test('revoking again leaves disabled_at as the first revocation set it', async () => {
    const { h, ws } = await fresh();
    const mine = await createWebhook(ws.read, { event: 'job.created', target_url: HOOK });
    const first = await h.admin.delete(`/keys/${ws.keys.read.id}`);
    await advance(h, 60);
    const second = await h.admin.delete(`/keys/${ws.keys.read.id}`);
    expect(second.status).toBe(200);
    expect(second.body.revoked_at).toBe(first.body.revoked_at);
    const [w] = await adminHooks(h, ws);
    expect(w.id).toBe(mine.id);
    expect(w.disabled_at).toBe(first.body.revoked_at);
  });
});

describe('a workspace holds at most 500 subscriptions (decisions.md)', () => {
  test('the 501st is 400 invalid_request with no field; repeats still answer; keys share the ceiling', async () => {
    const { h, ws } = await fresh('empty');
    // 16 groups of all 30 events: 480 subscriptions.
    for (let i = 0; i < 16; i++) {
      await createWebhook(ws.api, { events: SPEC_EVENTS, target_url: hook(`g${i}`) });
    }
    expect(await adminHooks(h, ws)).toHaveLength(480);

    // A group that would pass the ceiling is refused whole.
    const over = await ws.api.post('/webhooks', { events: SPEC_EVENTS, target_url: hook('over') });
    expect(over.status).toBe(400);
    expect(over.body.error.code).toBe('invalid_request');
    expect(over.body.error).not.toHaveProperty('field');
    expect(await adminHooks(h, ws)).toHaveLength(480);

    // 19 more by the write key, the 500th by the read key.
    await createWebhook(ws.api, { events: SPEC_EVENTS.slice(0, 19), target_url: hook('tail') });
    await createWebhook(ws.read, { event: 'job.created', target_url: hook('read') });
    expect(await adminHooks(h, ws)).toHaveLength(500);

    for (const client of [ws.api, ws.read]) {
      const res = await client.post('/webhooks', { event: 'job.created', target_url: hook('501') });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
      expect(res.body.error).not.toHaveProperty('field');
    }
    expect(await adminHooks(h, ws)).toHaveLength(500);

    // A repeat creates nothing, so it is still answered.
    const repeat = await ws.api.post('/webhooks', { events: SPEC_EVENTS, target_url: hook('g0') });
    expect(repeat.status).toBe(200);
    expect(repeat.body.data).toHaveLength(30);

    // Deleting one makes room for one.
    const firstId = (await listIds(ws.read))[0] as string;
    expect((await ws.read.delete(`/webhooks/${firstId}`)).status).toBe(200);
    await createWebhook(ws.api, { event: 'job.created', target_url: hook('501') });
    expect(await adminHooks(h, ws)).toHaveLength(500);
  });
});
