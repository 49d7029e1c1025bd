import { describe, expect, test } from 'vitest';
import type { Harness, Json, TestWorkspace } from '../support/harness';
import {
  addContact,
  addJob,
  addTask,
  advance,
  allIds,
  expectInvalid,
  idsOf,
  setup,
  users,
} from './setup';

/** Creates the tasks one second apart, so their order is known; answers them oldest first. */
async function series(
  h: Harness,
  ws: TestWorkspace,
  bodies: Record<string, unknown>[],
): Promise<Json[]> {
  const out: Json[] = [];
  for (const body of bodies) {
    out.push(await addTask(ws, body));
    await advance(h, 1);
  }
  return out;
}

const newestFirst = (tasks: Json[]) => tasks.map((t) => t.id).reverse();
const titled = (n: number, extra: Record<string, unknown> = {}) =>
  Array.from({ length: n }, (_, i) => ({ title: `t${i}`, ...extra }));

describe('order and paging', () => {
  test('GET /tasks is a list envelope, newest first by created_at (not by due_date)', async () => {
    const { h, ws } = await setup('empty');
    const tasks = await series(h, ws, [
      { title: 'a', due_date: '2026-01-01' },
      { title: 'b', due_date: '2026-12-01' },
      { title: 'c', due_date: '2026-06-01' },
    ]);
    const res = await ws.api.get('/tasks');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(idsOf(res)).toEqual(newestFirst(tasks));
    expect(res.body.data[0]).toEqual(tasks[2]);
  });

  test('an empty workspace lists no tasks', async () => {
    const { ws } = await setup('empty');
    const res = await ws.api.get('/tasks');
    expect(res.body).toEqual({ object: 'list', data: [], has_more: false, next_cursor: null });
  });

  test('pages follow next_cursor until null, each task once, newest first', async () => {
    const { h, ws } = await setup('empty');
    const tasks = await series(h, ws, titled(7));
    const first = await ws.api.get('/tasks', { query: { limit: 3 } });
    expect(first.body.data).toHaveLength(3);
    expect(first.body.has_more).toBe(true);
    expect(typeof first.body.next_cursor).toBe('string');
    expect(await allIds(ws, '/tasks', { limit: 3 })).toEqual(newestFirst(tasks));
  });

  test('tasks made of the same millisecond page without loss or repeat', async () => {
    const { ws } = await setup('empty');
    const made: string[] = [];
    for (const body of titled(6)) {
      made.push((await addTask(ws, body)).id);
    }
    const seen = await allIds(ws, '/tasks', { limit: 2 });
    expect([...seen].sort()).toEqual([...made].sort());
  });

  test('a filter holds on every page', async () => {
    const { h, ws } = await setup('empty');
    const tasks = await series(
      h,
      ws,
      Array.from({ length: 8 }, (_, i) => ({ title: `t${i}`, completed: i % 2 === 0 })),
    );
    const done = tasks.filter((t) => t.completed);
    expect(await allIds(ws, '/tasks', { limit: 2, completed: 'true' })).toEqual(newestFirst(done));
  });

  test('GET /appointments pages with its own cursors', async () => {
    const { h, ws } = await setup('empty');
    const appts = await series(h, ws, titled(5, { appointment_type: 'inspection' }));
    await series(h, ws, titled(2));
    expect(await allIds(ws, '/appointments', { limit: 2 })).toEqual(newestFirst(appts));
  });

  // decisions.md, Lists: a cursor is bound to the list that issued it.
  test('a cursor of /tasks is 400 field cursor on /appointments, and a made-up one on /tasks', async () => {
    const { h, ws } = await setup('empty');
    await series(h, ws, titled(3, { appointment_type: 'inspection' }));
    const { next_cursor } = (await ws.api.get('/tasks', { query: { limit: 1 } })).body;
    expectInvalid(await ws.api.get('/appointments', { query: { cursor: next_cursor } }), 'cursor');
    expectInvalid(await ws.api.get('/tasks', { query: { cursor: 'garbage' } }), 'cursor');
  });

  test('limit out of 1–200 falls back to 50', async () => {
    const { ws } = await setup('empty');
    for (const body of titled(51)) {
      await addTask(ws, body);
    }
    for (const limit of [0, 201, -1]) {
      const res = await ws.api.get('/tasks', { query: { limit } });
      expect(res.body.data, String(limit)).toHaveLength(50);
      expect(res.body.has_more).toBe(true);
    }
  });
});

describe('filters', () => {
  test.each([
    ['true', true],
    ['false', false],
  ])('completed=%s lists only tasks with completed %s', async (value, completed) => {
    const { h, ws } = await setup('empty');
    const tasks = await series(h, ws, [
      { title: 'open', completed: false },
      { title: 'done', completed: true },
      { appointment_type: 'inspection', completed: true },
      { appointment_type: 'build_day' },
    ]);
    const res = await ws.api.get('/tasks', { query: { completed: value } });
    expect(idsOf(res)).toEqual(newestFirst(tasks.filter((t) => t.completed === completed)));
  });

  test('appointments=true lists only appointments, false only tasks that are not', async () => {
    const { h, ws } = await setup('empty');
    const tasks = await series(h, ws, [
      { title: 'task 1' },
      { appointment_type: 'inspection' },
      { title: 'task 2' },
      { appointment_type: 'adjuster_meeting', title: 'Meet adjuster' },
    ]);
    const appts = tasks.filter((t) => t.is_appointment);
    const plain = tasks.filter((t) => !t.is_appointment);
    const yes = await ws.api.get('/tasks', { query: { appointments: 'true' } });
    expect(idsOf(yes)).toEqual(newestFirst(appts));
    const no = await ws.api.get('/tasks', { query: { appointments: 'false' } });
    expect(idsOf(no)).toEqual(newestFirst(plain));
    expect(idsOf(await ws.api.get('/tasks'))).toEqual(newestFirst(tasks));
  });

  test('GET /appointments lists only appointments, newest first', async () => {
    const { h, ws } = await setup('empty');
    const tasks = await series(h, ws, [
      { appointment_type: 'inspection' },
      { title: 'plain task' },
      { appointment_type: 'build_day' },
    ]);
    const res = await ws.api.get('/appointments');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(idsOf(res)).toEqual(newestFirst(tasks.filter((t) => t.is_appointment)));
  });

  test('GET /appointments takes the other filters of GET /tasks', async () => {
    const { h, ws } = await setup('empty');
    const jobId = await addJob(ws);
    const [onJob] = await series(h, ws, [
      { appointment_type: 'inspection', job_id: jobId },
      { appointment_type: 'inspection' },
      { title: 'plain on job', job_id: jobId },
      { appointment_type: 'build_day', job_id: jobId, completed: true },
    ]);
    const res = await ws.api.get('/appointments', { query: { job_id: jobId, completed: 'false' } });
    expect(idsOf(res)).toEqual([onJob.id]);
  });

  test('job_id lists only that job’s tasks and appointments', async () => {
    const { h, ws } = await setup('empty');
    const a = await addJob(ws, 'A');
    const b = await addJob(ws, 'B');
    const tasks = await series(h, ws, [
      { title: 'on a', job_id: a },
      { title: 'on b', job_id: b },
      { title: 'no job' },
      { appointment_type: 'inspection', job_id: a },
    ]);
    const res = await ws.api.get('/tasks', { query: { job_id: a } });
    expect(idsOf(res)).toEqual(newestFirst(tasks.filter((t) => t.job_id === a)));
  });

  test('contact_id lists only that contact’s tasks', async () => {
    const { h, ws } = await setup('empty');
    const mary = await addContact(ws, 'Mary Smith');
    const joe = await addContact(ws, 'Joe Brown');
    const tasks = await series(h, ws, [
      { title: 'call Mary', contact_id: mary },
      { title: 'call Joe', contact_id: joe },
      { title: 'nobody' },
      { appointment_type: 'inspection', contact_id: mary },
    ]);
    const res = await ws.api.get('/tasks', { query: { contact_id: mary } });
    expect(idsOf(res)).toEqual(newestFirst(tasks.filter((t) => t.contact_id === mary)));
  });

  test('assigned_to lists only that teammate’s tasks', async () => {
    const { h, ws } = await setup('small');
    const [u1, u2] = await users(ws);
    const uid = u1?.id ?? '';
    const seeded = await allIds(ws, '/tasks', { assigned_to: uid });
    await advance(h, 1);
    const tasks = await series(h, ws, [
      { title: 'for u1', assigned_to: uid },
      { title: 'for u2', assigned_to: u2?.id },
      { title: 'for nobody' },
      { appointment_type: 'inspection', assigned_to: uid },
    ]);
    const mine = newestFirst(tasks.filter((t) => t.assigned_to_id === uid));
    expect(await allIds(ws, '/tasks', { assigned_to: uid })).toEqual([...mine, ...seeded]);
  });

  test('filters combine: every one given must match', async () => {
    const { h, ws } = await setup('empty');
    const jobId = await addJob(ws);
    const [owner] = (await ws.api.get('/users')).body.data;
    const [match] = await series(h, ws, [
      { appointment_type: 'inspection', job_id: jobId, assigned_to: owner?.id },
      { appointment_type: 'inspection', job_id: jobId },
      { title: 'plain', job_id: jobId, assigned_to: owner?.id },
      { appointment_type: 'inspection', assigned_to: owner?.id },
      { appointment_type: 'inspection', job_id: jobId, assigned_to: owner?.id, completed: true },
    ]);
    const res = await ws.api.get('/tasks', {
      query: { job_id: jobId, assigned_to: owner?.id, appointments: 'true', completed: 'false' },
    });
    expect(idsOf(res)).toEqual([match.id]);
  });

  test.each([
    ['completed', 'yes'],
    ['completed', 'TRUE'],
    ['appointments', 'maybe'],
    ['job_id', 'not-a-uuid'],
    ['contact_id', '123'],
    ['assigned_to', 'bob'],
    ['limit', 'abc'],
    ['limit', '2.5'],
    ['updated_since', 'yesterday'],
    ['created_after', '2026-02-30'],
    ['created_before', '2026-01-01T25:00:00Z'],
  ])('%s=%j is 400 naming it', async (name, value) => {
    const { ws } = await setup('empty');
    const res = await ws.api.get('/tasks', { query: { [name]: value }, invalid: true });
    expectInvalid(res, name);
    const appts = await ws.api.get('/appointments', { query: { [name]: value }, invalid: true });
    expectInvalid(appts, name);
  });
});

describe('time filters', () => {
  test('created_after is inclusive and created_before exclusive of a task’s created_at', async () => {
    const { h, ws } = await setup('empty');
    const [a, b, c] = await series(h, ws, titled(3));
    const after = await ws.api.get('/tasks', { query: { created_after: b.created_at } });
    expect(idsOf(after)).toEqual([c.id, b.id]);
    const before = await ws.api.get('/tasks', { query: { created_before: b.created_at } });
    expect(idsOf(before)).toEqual([a.id]);
    const window = await ws.api.get('/tasks', {
      query: { created_after: a.created_at, created_before: c.created_at },
    });
    expect(idsOf(window)).toEqual([b.id, a.id]);
  });

  test('time filters take a date (midnight UTC) or a date-time without a zone (UTC)', async () => {
    const { ws } = await setup('empty');
    const task = await addTask(ws, { title: 't' });
    const day = task.created_at.slice(0, 10);
    const nextDay = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000)
      .toISOString()
      .slice(0, 10);
    expect(idsOf(await ws.api.get('/tasks', { query: { created_after: day } }))).toEqual([task.id]);
    expect(idsOf(await ws.api.get('/tasks', { query: { created_before: day } }))).toEqual([]);
    expect(idsOf(await ws.api.get('/tasks', { query: { created_before: nextDay } }))).toEqual([
      task.id,
    ]);
    const noZone = task.created_at.replace('Z', '');
    expect(idsOf(await ws.api.get('/tasks', { query: { created_after: noZone } }))).toEqual([
      task.id,
    ]);
    expect(idsOf(await ws.api.get('/tasks', { query: { created_before: noZone } }))).toEqual([]);
  });

  test('updated_since keeps tasks changed at or after the instant', async () => {
    const { h, ws } = await setup('empty');
    const [a, b] = await series(h, ws, titled(2));
    const since = await advance(h, 3600);
    const changed = await ws.api.patch(`/tasks/${a.id}`, { completed: true });
    const res = await ws.api.get('/tasks', { query: { updated_since: since } });
    expect(idsOf(res)).toEqual([a.id]);
    const exact = await ws.api.get('/tasks', {
      query: { updated_since: changed.body.updated_at },
    });
    expect(idsOf(exact)).toEqual([a.id]);
    expect(idsOf(exact)).not.toContain(b.id);
  });
});

describe('every listed task obeys the Task rules', () => {
  test('seeded and new tasks alike: is_appointment, completed_at, wall-clock due_date, end_date', async () => {
    const { ws } = await setup('small');
    await addTask(ws, { appointment_type: 'inspection', due_date: '2026-05-14T09:30:00-05:00' });
    await addTask(ws, {
      title: 'Done',
      completed: true,
      due_date: '2026-05-14',
      end_date: '2026-05-15',
    });
    const tasks: Json[] = [];
    let cursor: string | null = null;
    do {
      const page: Json = (await ws.api.get('/tasks', { query: cursor ? { cursor } : {} })).body;
      tasks.push(...page.data);
      cursor = page.next_cursor;
    } while (cursor);
    expect(tasks.length).toBeGreaterThanOrEqual(2);
    for (const t of tasks) {
      const where = `${t.id} ${t.title}`;
      expect(t.object, where).toBe('task');
      expect(typeof t.title === 'string' && t.title.trim() !== '', where).toBe(true);
      expect(t.is_appointment, where).toBe(t.appointment_type !== null);
      expect(t.completed_at !== null, where).toBe(t.completed);
      if (t.due_date !== null) {
        expect(t.due_date, where).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
      }
      if (t.end_date !== null && t.due_date !== null) {
        expect(t.end_date >= t.due_date.slice(0, 10), where).toBe(true);
      }
      expect(t.assigned_to_name === null, where).toBe(t.assigned_to_id === null);
      expect(t.url, where).toContain(t.id);
    }
  });
});
