// GET /webhooks/samples/{event}: what a sample looks like, each event's extra fields, at most three,
// the calling workspace's only. spec: Webhooks, Delivery body; decisions.md, Webhook subscriptions.
import { describe, expect, test } from 'vitest';
import type { Json, TestWorkspace } from '../support/harness';
import { fresh, ISO, UUID } from './setup';

describe('GET /webhooks/samples/{event}', () => {
  const EVENT_FIELDS = ['event_type', 'event_id', 'event_at', 'event_workspace_id'];

  async function samples(ws: TestWorkspace, event: string): Promise<Json[]> {
    const res = await ws.api.get(`/webhooks/samples/${event}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ object: 'list' });
    expect(Array.isArray(res.body.data)).toBe(true);
    return res.body.data;
  }

  function expectEventFields(item: Json, event: string, ws: TestWorkspace): void {
    expect(item.event_type).toBe(event);
    expect(item.event_id).toMatch(UUID);
    expect(item.event_at).toMatch(ISO);
    expect(item.event_workspace_id).toBe(ws.id);
  }

  test.each(['job.exploded', 'jobs', 'Job.Created', 'job.created.extra'])(
    '%s is not an event: 404 not_found',
    async (event) => {
      const { ws } = await fresh();
      const res = await ws.api.get(`/webhooks/samples/${event}`);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    },
  );

  test.each(['small', 'demo'] as const)(
    'job.created on a %s workspace: up to three of its newest jobs, each as GET /jobs/{id} returns it plus the event fields',
    async (profile) => {
      const { ws } = await fresh(profile);
      // Archived jobs are real recent records too: samples draw on them as on live ones.
      const newest: string[] = (
        await ws.api.get('/jobs', { query: { limit: 3, archived: 'any' } })
      ).body.data.map((j: { id: string }) => j.id);
      expect(newest.length).toBeGreaterThan(0);
      const data = await samples(ws, 'job.created');
      expect(data.map((d) => d.id)).toEqual(newest);
      for (const item of data) {
        const job = (await ws.api.get(`/jobs/${item.id}`)).body;
        const record = Object.fromEntries(
          Object.entries(item).filter(([k]) => !EVENT_FIELDS.includes(k)),
        );
        expect(record).toEqual(job);
        expectEventFields(item, 'job.created', ws);
        // decisions.md: event_at is the record's updated_at for a created or changed record
        expect(item.event_at).toBe(job.updated_at);
      }
      expect(new Set(data.map((d) => d.event_id)).size).toBe(data.length);
    },
  );

  test('at most three samples, even with many records', async () => {
    const { ws } = await fresh('demo');
    const all = await ws.api.get('/jobs', { query: { limit: 10 } });
    expect(all.body.data.length).toBeGreaterThan(3);
    expect(await samples(ws, 'job.created')).toHaveLength(3);
  });

  test('a job just made is the first sample; a deleted job is not a sample', async () => {
    const { ws } = await fresh();
    const made = await ws.api.post('/jobs', { name: 'Sample roof', address: '9 Birch Lane' });
    expect(made.status).toBe(201);
    expect((await samples(ws, 'job.created'))[0]?.id).toBe(made.body.id);
    expect((await ws.api.delete(`/jobs/${made.body.id}`)).status).toBe(200);
    const after = await samples(ws, 'job.created');
    expect(after.map((d) => d.id)).not.toContain(made.body.id);
  });

  test.each([
    ['contact.created', '/contacts'],
    ['contact.updated', '/contacts'],
    ['task.created', '/tasks'],
    ['note.created', '/notes'],
  ])('%s samples are records as GET %s/{id} returns them', async (event, path) => {
    const { ws } = await fresh('demo');
    const data = await samples(ws, event);
    expect(data.length).toBeGreaterThan(0);
    expect(data.length).toBeLessThanOrEqual(3);
    for (const item of data) {
      const got = await ws.api.get(`${path}/${item.id}`);
      expect(got.status).toBe(200);
      for (const [k, v] of Object.entries(got.body)) {
        expect(item[k], `${event} ${k}`).toEqual(v);
      }
      expectEventFields(item, event, ws);
    }
  });

  test('job.stage_changed samples carry previous_stage and previous_stage_label', async () => {
    const { ws } = await fresh();
    const data = await samples(ws, 'job.stage_changed');
    expect(data.length).toBeGreaterThan(0);
    for (const item of data) {
      expect(item).toHaveProperty('previous_stage');
      expect(item).toHaveProperty('previous_stage_label');
      expect(item.object).toBe('job');
      expectEventFields(item, 'job.stage_changed', ws);
    }
  });

  test.each(['job.updated', 'contact.updated', 'task.updated'])(
    '%s samples carry changed_fields, an array',
    async (event) => {
      const { ws } = await fresh('demo');
      const data = await samples(ws, event);
      expect(data.length).toBeGreaterThan(0);
      for (const item of data) {
        expect(Array.isArray(item.changed_fields)).toBe(true);
        expectEventFields(item, event, ws);
      }
    },
  );

  test('job.assigned samples carry previous_assigned_to_id', async () => {
    const { ws } = await fresh();
    const data = await samples(ws, 'job.assigned');
    expect(data.length).toBeGreaterThan(0);
    for (const item of data) {
      expect(item).toHaveProperty('previous_assigned_to_id');
    }
  });

  test('job.created samples carry none of the other events’ extra fields', async () => {
    const { ws } = await fresh();
    for (const item of await samples(ws, 'job.created')) {
      for (const extra of [
        'previous_stage',
        'previous_stage_label',
        'changed_fields',
        'previous_assigned_to_id',
        'event_test',
      ]) {
        expect(item).not.toHaveProperty(extra);
      }
    }
  });

  test.each([
    ['job.deleted', 'job', '/jobs', ['job_number', 'name', 'address']],
    ['contact.deleted', 'contact', '/contacts', ['first_name', 'last_name', 'email', 'phone']],
    ['task.deleted', 'task', '/tasks', ['title', 'job_id']],
  ])(
    '%s samples are deleted snapshots {id, object, deleted, identifying fields} only',
    async (event, object, path, fields) => {
      const { ws } = await fresh('demo');
      const data = await samples(ws, event);
      expect(data.length).toBeGreaterThan(0);
      for (const item of data) {
        expect(Object.keys(item).sort()).toEqual(
          ['id', 'object', 'deleted', ...fields, ...EVENT_FIELDS].sort(),
        );
        expect(item).toMatchObject({ object, deleted: true });
        expectEventFields(item, event, ws);
        const record = (await ws.api.get(`${path}/${item.id}`)).body;
        for (const f of fields) {
          expect(item[f], `${event} ${f}`).toEqual(record[f]);
        }
      }
    },
  );

  test.each([
    ['pin.created', 'pin', (_d: Json) => true],
    ['pin.result_changed', 'pin', (d: Json) => d.knock_result !== null],
    // spec, States: storm_list.ready is emitted when a list finishes building, failed included.
    [
      'storm_list.ready',
      'storm_list',
      (d: Json) => ['ready', 'partial', 'failed'].includes(d.status),
    ],
  ])(
    '%s on a demo workspace: records of its kind the event could be about',
    async (event, object, about) => {
      const { ws } = await fresh('demo');
      const got = await samples(ws, event);
      expect(got.length).toBeGreaterThan(0);
      for (const d of got) {
        expect(d).toMatchObject({ object, event_type: event });
        expect(about(d), JSON.stringify(d)).toBe(true);
      }
    },
  );

  test.each(['job.created', 'job.deleted', 'contact.created', 'task.created'])(
    '%s on an empty workspace: an empty list',
    async (event) => {
      const { ws } = await fresh('empty');
      const res = await ws.api.get(`/webhooks/samples/${event}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ object: 'list', data: [] });
    },
  );

  test('samples are of the calling workspace only', async () => {
    const { ws } = await fresh('empty');
    await fresh('demo');
    expect(await samples(ws, 'job.created')).toEqual([]);
    const made = await ws.api.post('/jobs', { name: 'Only roof', address: '1 Oak Court' });
    expect((await samples(ws, 'job.created')).map((d) => d.id)).toEqual([made.body.id]);
  });
});
