import { describe, expect, test } from 'vitest';
import type { Harness, Json, TestWorkspace } from '../support/harness';
import { addContact, addJob, addTask, advance, allIds, idsOf, setup } from './setup';

// decisions.md, Tasks: a task belongs to its job when it has one, else to its contact, and is
// hidden (404 by id) while that is deleted, until it is restored; spec, Conventions: a deleted job
// or contact keeps everything on it.

/** Everywhere a task can be seen: by id and in every list that could hold it. */
async function whereSeen(ws: TestWorkspace, task: Json): Promise<string[]> {
  const seen: string[] = [];
  if ((await ws.api.get(`/tasks/${task.id}`)).status === 200) {
    seen.push('GET');
  }
  const lists: [string, Record<string, string>][] = [
    ['/tasks', {}],
    ['/appointments', {}],
    ['/tasks', { completed: String(task.completed) }],
  ];
  if (task.job_id) {
    lists.push(['/tasks', { job_id: task.job_id }]);
  }
  if (task.contact_id) {
    lists.push(['/tasks', { contact_id: task.contact_id }]);
  }
  for (const [path, query] of lists) {
    if ((await allIds(ws, path, query)).includes(task.id)) {
      seen.push(`${path}?${new URLSearchParams(query)}`);
    }
  }
  if (task.job_id) {
    const res = await ws.api.get(`/jobs/${task.job_id}/tasks`);
    if (res.status === 200 && idsOf(res).includes(task.id)) {
      seen.push('/jobs/{id}/tasks');
    }
  }
  return seen;
}

const everywhere = (task: Json) =>
  [
    'GET',
    '/tasks?',
    ...(task.is_appointment ? ['/appointments?'] : []),
    `/tasks?completed=${task.completed}`,
    ...(task.job_id ? [`/tasks?job_id=${task.job_id}`] : []),
    ...(task.contact_id ? [`/tasks?contact_id=${task.contact_id}`] : []),
    ...(task.job_id ? ['/jobs/{id}/tasks'] : []),
  ].sort();

const restore = async (h: Harness, kind: 'jobs' | 'contacts', id: string) => {
  const res = await h.admin.post(`/${kind}/${id}/restore`);
  expect(res.status, res.text).toBe(200);
};

describe('a deleted job', () => {
  test('hides its tasks and appointments everywhere, and a restore brings them back unchanged', async () => {
    const { h, ws } = await setup('small');
    const jobId = await addJob(ws);
    const task = await addTask(ws, { title: 'Order materials', job_id: jobId });
    const appt = await addTask(ws, { appointment_type: 'build_day', job_id: jobId });
    expect((await whereSeen(ws, task)).sort()).toEqual(everywhere(task));
    expect((await whereSeen(ws, appt)).sort()).toEqual(everywhere(appt));

    expect((await ws.api.delete(`/jobs/${jobId}`)).status).toBe(200);
    expect(await whereSeen(ws, task)).toEqual([]);
    expect(await whereSeen(ws, appt)).toEqual([]);

    await advance(h, 86_400);
    await restore(h, 'jobs', jobId);
    expect((await ws.api.get(`/tasks/${task.id}`)).body).toEqual(task);
    expect((await ws.api.get(`/tasks/${appt.id}`)).body).toEqual(appt);
    expect((await whereSeen(ws, task)).sort()).toEqual(everywhere(task));
    expect((await whereSeen(ws, appt)).sort()).toEqual(everywhere(appt));
  });

  test('its hidden task is 404 on GET, PATCH and DELETE, and survives to be restored', async () => {
    const { h, ws } = await setup();
    const jobId = await addJob(ws);
    const task = await addTask(ws, { title: 'Order materials', job_id: jobId });
    await ws.api.delete(`/jobs/${jobId}`);
    for (const res of [
      await ws.api.get(`/tasks/${task.id}`),
      await ws.api.patch(`/tasks/${task.id}`, { title: 'Changed' }),
      await ws.api.delete(`/tasks/${task.id}`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
    await restore(h, 'jobs', jobId);
    expect((await ws.api.get(`/tasks/${task.id}`)).body).toEqual(task);
  });

  test('leaves the tasks of other jobs and of no job in view', async () => {
    const { ws } = await setup();
    const doomed = await addJob(ws, 'Doomed');
    const kept = await addJob(ws, 'Kept');
    await addTask(ws, { title: 'on doomed', job_id: doomed });
    const onKept = await addTask(ws, { title: 'on kept', job_id: kept });
    const loose = await addTask(ws, { title: 'no job' });
    await ws.api.delete(`/jobs/${doomed}`);
    expect((await whereSeen(ws, onKept)).sort()).toEqual(everywhere(onKept));
    expect((await whereSeen(ws, loose)).sort()).toEqual(everywhere(loose));
  });
});

describe('a deleted contact', () => {
  test('hides its own tasks everywhere, and a restore brings them back unchanged', async () => {
    const { h, ws } = await setup();
    const contactId = await addContact(ws);
    const task = await addTask(ws, { title: 'Call Mary', contact_id: contactId });
    expect((await ws.api.delete(`/contacts/${contactId}`)).status).toBe(200);
    expect(await whereSeen(ws, task)).toEqual([]);

    await restore(h, 'contacts', contactId);
    expect((await ws.api.get(`/tasks/${task.id}`)).body).toEqual(task);
    expect((await whereSeen(ws, task)).sort()).toEqual(everywhere(task));
  });

  test('a task on a live job stays, its contact link hidden until the contact is restored', async () => {
    const { h, ws } = await setup();
    const contactId = await addContact(ws);
    const jobId = await addJob(ws);
    const appt = await addTask(ws, {
      appointment_type: 'inspection',
      contact_id: contactId,
      job_id: jobId,
    });
    expect((await ws.api.delete(`/contacts/${contactId}`)).status).toBe(200);
    const shown = await ws.api.get(`/tasks/${appt.id}`);
    expect(shown.body).toEqual({ ...appt, contact_id: null });
    expect(idsOf(await ws.api.get(`/jobs/${jobId}/tasks`))).toEqual([appt.id]);
    expect(await allIds(ws, '/tasks', { contact_id: contactId })).toEqual([]);

    await restore(h, 'contacts', contactId);
    expect((await ws.api.get(`/tasks/${appt.id}`)).body).toEqual(appt);
    expect((await whereSeen(ws, appt)).sort()).toEqual(everywhere(appt));
  });

  test('a job task taken off its job while its contact is deleted stays, with no contact', async () => {
    const { ws } = await setup();
    const contactId = await addContact(ws);
    const jobId = await addJob(ws);
    const task = await addTask(ws, { title: 'Measure', contact_id: contactId, job_id: jobId });
    await ws.api.delete(`/contacts/${contactId}`);
    const moved = await ws.api.patch(`/tasks/${task.id}`, { job_id: null });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({ job_id: null, contact_id: null });
    expect((await ws.api.get(`/tasks/${task.id}`)).body).toEqual(moved.body);
  });

  test('purged after 30 days, it takes its own tasks and leaves job tasks without the link', async () => {
    const { h, ws } = await setup();
    const contactId = await addContact(ws);
    const jobId = await addJob(ws);
    const own = await addTask(ws, { title: 'Call Mary', contact_id: contactId });
    const onJob = await addTask(ws, { title: 'Measure', contact_id: contactId, job_id: jobId });
    await ws.api.delete(`/contacts/${contactId}`);
    await advance(h, 30 * 24 * 3600 + 1);
    expect((await ws.api.get(`/tasks/${own.id}`)).status).toBe(404);
    expect((await h.admin.post(`/contacts/${contactId}/restore`)).status).toBe(404);
    const kept = await ws.api.get(`/tasks/${onJob.id}`);
    expect(kept.status).toBe(200);
    expect(kept.body.contact_id).toBeNull();
    expect(kept.body.updated_at).toBe(onJob.updated_at);
  });

  test('its hidden task is 404 on PATCH and DELETE too', async () => {
    const { ws } = await setup();
    const contactId = await addContact(ws);
    const task = await addTask(ws, { title: 'Call Mary', contact_id: contactId });
    await ws.api.delete(`/contacts/${contactId}`);
    expect((await ws.api.patch(`/tasks/${task.id}`, { completed: true })).status).toBe(404);
    expect((await ws.api.delete(`/tasks/${task.id}`)).status).toBe(404);
  });

  test('a task on a job follows the job, whatever becomes of its contact', async () => {
    const { h, ws } = await setup();
    const jobId = await addJob(ws);
    const contactId = await addContact(ws);
    const task = await addTask(ws, { title: 'Both', job_id: jobId, contact_id: contactId });
    await ws.api.delete(`/jobs/${jobId}`);
    await ws.api.delete(`/contacts/${contactId}`);
    await restore(h, 'contacts', contactId);
    expect((await ws.api.get(`/tasks/${task.id}`)).status).toBe(404);
    await restore(h, 'jobs', jobId);
    expect((await ws.api.get(`/tasks/${task.id}`)).body).toEqual(task);
  });
});

test('hidden tasks older than a page leave has_more false and next_cursor null', async () => {
  const { h, ws } = await setup();
  const jobId = await addJob(ws);
  for (let i = 0; i < 3; i++) {
    await addTask(ws, { title: `hidden ${i}`, job_id: jobId });
  }
  await advance(h, 1);
  const visible = [await addTask(ws, { title: 'v1' }), await addTask(ws, { title: 'v2' })];
  await ws.api.delete(`/jobs/${jobId}`);
  const res = await ws.api.get('/tasks', { query: { limit: 2 } });
  expect(idsOf(res).sort()).toEqual(visible.map((t) => t.id).sort());
  expect(res.body).toMatchObject({ has_more: false, next_cursor: null });
});

describe('GET /jobs/{id}/tasks', () => {
  test('lists the job’s tasks and appointments, done or not, newest first, and nothing else', async () => {
    const { h, ws } = await setup();
    const jobId = await addJob(ws, 'Mine');
    const otherJob = await addJob(ws, 'Other');
    const mine: Json[] = [];
    for (const body of [
      { title: 'Order shingles', job_id: jobId },
      { appointment_type: 'inspection', job_id: jobId },
      { title: 'Elsewhere', job_id: otherJob },
      { title: 'Loose' },
      { appointment_type: 'build_day', job_id: jobId, completed: true },
    ]) {
      const task = await addTask(ws, body);
      if (task.job_id === jobId) {
        mine.push(task);
      }
      await advance(h, 1);
    }
    const res = await ws.api.get(`/jobs/${jobId}/tasks`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(res.body.data).toEqual([...mine].reverse());
  });

  test('pages with limit and cursor', async () => {
    const { h, ws } = await setup();
    const jobId = await addJob(ws);
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      made.push((await addTask(ws, { title: `t${i}`, job_id: jobId })).id);
      await advance(h, 1);
    }
    const first = await ws.api.get(`/jobs/${jobId}/tasks`, { query: { limit: 2 } });
    expect(first.body.data).toHaveLength(2);
    expect(first.body.has_more).toBe(true);
    expect(await allIds(ws, `/jobs/${jobId}/tasks`, { limit: 2 })).toEqual(made.reverse());
  });

  test('a task moved to another job leaves the first job’s list', async () => {
    const { ws } = await setup();
    const a = await addJob(ws, 'A');
    const b = await addJob(ws, 'B');
    const task = await addTask(ws, { title: 'Move me', job_id: a });
    await ws.api.patch(`/tasks/${task.id}`, { job_id: b });
    expect(await allIds(ws, `/jobs/${a}/tasks`)).toEqual([]);
    expect(await allIds(ws, `/jobs/${b}/tasks`)).toEqual([task.id]);
  });

  test('an unknown job is 404, a deleted one 404 until restored', async () => {
    const { h, ws } = await setup();
    expect((await ws.api.get(`/jobs/${crypto.randomUUID()}/tasks`)).status).toBe(404);
    const jobId = await addJob(ws);
    const task = await addTask(ws, { title: 't', job_id: jobId });
    await ws.api.delete(`/jobs/${jobId}`);
    const gone = await ws.api.get(`/jobs/${jobId}/tasks`);
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe('not_found');
    await restore(h, 'jobs', jobId);
    expect(await allIds(ws, `/jobs/${jobId}/tasks`)).toEqual([task.id]);
  });
});
