// POST /webhooks: every bad input is 400 naming the field, and writes nothing. spec: Endpoints ›
// Webhooks, Events › Filters, Errors; decisions.md, Webhook subscriptions.
import { describe, expect, test } from 'vitest';
import type { Harness, Json, TestWorkspace } from '../support/harness';
import { walkPages } from '../support/pages';
import { app, fresh, hook, listIds } from './setup';

const HOOK = hook('svc');

/** A uuid no workspace holds. */
const UNKNOWN = '7b0c5b2e-5d2a-4b43-9d59-6a1f0b7f5a11';

/** Every subscription of `ws` as the control API lists them, page after page. */
const adminHooks = async (h: Harness, ws: TestWorkspace): Promise<Json[]> =>
  (await walkPages(h.admin, '/webhooks', { workspace_id: ws.id, limit: 200 })).data;

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
