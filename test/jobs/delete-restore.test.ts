import { describe, expect, test } from 'vitest';
import type { Json } from '../support/harness';
import {
  advance,
  DAYS,
  idsOf,
  newJob,
  newNote,
  newTask,
  ownJobs,
  putFile,
  putPayment,
  type Setup,
  setup,
  UNKNOWN,
} from './setup';

/** A job with a note (from create), a second note, a task, a file and a payment. */
async function jobWithEverything(s: Setup) {
  const job = await newJob(s.ws, { name: 'Zyzzyva Roof', notes: 'From create' });
  const note = await newNote(s.ws, job.id);
  const task = await newTask(s.ws, job.id);
  const file = putFile(s.h, s.ws, job.id, 'photo');
  const payment = putPayment(s.h, s.ws, job.id, 250);
  return { job, note, task, file, payment };
}

const ids = (data: Json[]) => data.map((r: { id: string }) => r.id);

/** Whether the job and everything on it is seen through the API. */
async function visible(s: Setup, made: Awaited<ReturnType<typeof jobWithEverything>>) {
  const { ws } = s;
  const job = await ws.api.get(`/jobs/${made.job.id}`);
  const note = await ws.api.get(`/notes/${made.note.id}`);
  const task = await ws.api.get(`/tasks/${made.task.id}`);
  const listed = idsOf(await ownJobs(s, { archived: 'any' }));
  const found = idsOf(await ws.api.get('/jobs/search', { query: { name: 'zyzzyva' } }));
  const notes = ids((await ws.api.get('/notes', { query: { limit: 200 } })).body.data);
  const jobNotes = ids((await ws.api.get('/notes', { query: { job_id: made.job.id } })).body.data);
  const tasks = ids((await ws.api.get('/tasks', { query: { limit: 200 } })).body.data);
  return {
    job: job.status,
    note: note.status,
    task: task.status,
    listed: listed.includes(made.job.id),
    found: found.includes(made.job.id),
    notes: notes.includes(made.note.id),
    jobNotes: jobNotes.length,
    tasks: tasks.includes(made.task.id),
  };
}

const SEEN = {
  job: 200,
  note: 200,
  task: 200,
  listed: true,
  found: true,
  notes: true,
  jobNotes: 2,
  tasks: true,
};
const GONE = {
  job: 404,
  note: 404,
  task: 404,
  listed: false,
  found: false,
  notes: false,
  jobNotes: 0,
  tasks: false,
};

describe('DELETE /jobs/{id}', () => {
  test('answers the deleted confirmation {id, object: job, deleted: true}', async () => {
    const { ws } = await setup();
    const job = await newJob(ws);
    const res = await ws.api.delete(`/jobs/${job.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: job.id, object: 'job', deleted: true });
  });

  test('the job and its notes and tasks disappear from every read', async () => {
    const s = await setup();
    const made = await jobWithEverything(s);
    expect(await visible(s, made)).toEqual(SEEN);
    await s.ws.api.delete(`/jobs/${made.job.id}`);
    expect(await visible(s, made)).toEqual(GONE);
  });

  test("another job's notes and tasks are untouched", async () => {
    const s = await setup();
    const made = await jobWithEverything(s);
    const other = await newJob(s.ws);
    const note = await newNote(s.ws, other.id);
    const task = await newTask(s.ws, other.id);
    await s.ws.api.delete(`/jobs/${made.job.id}`);
    expect((await s.ws.api.get(`/notes/${note.id}`)).status).toBe(200);
    expect((await s.ws.api.get(`/tasks/${task.id}`)).status).toBe(200);
    expect((await s.ws.api.get(`/jobs/${other.id}`)).status).toBe(200);
  });

  test.each([
    ['an unknown job', false],
    ['a job already deleted', true],
  ])('DELETE of %s is 404 not_found', async (_case, twice) => {
    const { ws } = await setup();
    const job = await newJob(ws);
    if (twice) {
      await ws.api.delete(`/jobs/${job.id}`);
    }
    const res = await ws.api.delete(`/jobs/${twice ? job.id : UNKNOWN}`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });

  test("DELETE of another workspace's job is 404 and leaves it", async () => {
    const { h, ws } = await setup();
    const other = await h.workspace({ profile: 'empty' });
    const theirs = await newJob(other);
    expect((await ws.api.delete(`/jobs/${theirs.id}`)).status).toBe(404);
    expect((await other.api.get(`/jobs/${theirs.id}`)).status).toBe(200);
  });

  test('a read-only key cannot delete: 403 forbidden and the job stays', async () => {
    const { ws } = await setup();
    const job = await newJob(ws);
    const res = await ws.read.delete(`/jobs/${job.id}`);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('forbidden');
    expect((await ws.api.get(`/jobs/${job.id}`)).status).toBe(200);
  });

  test('a deleted job cannot take a new note or task (its job_id is 400)', async () => {
    const { ws } = await setup();
    const job = await newJob(ws);
    await ws.api.delete(`/jobs/${job.id}`);
    const note = await ws.api.post('/notes', { job_id: job.id, content: 'x' });
    expect(note.status).toBe(400);
    expect(note.body.error.field).toBe('job_id');
    const task = await ws.api.post('/tasks', { title: 'x', job_id: job.id });
    expect(task.status).toBe(400);
    expect(task.body.error.field).toBe('job_id');
  });
});

describe('POST /__admin/jobs/{id}/restore', () => {
  test('brings back the job with its notes, tasks, files and payments', async () => {
    const s = await setup();
    const made = await jobWithEverything(s);
    const before = (await s.ws.api.get(`/jobs/${made.job.id}`)).body;
    await s.ws.api.delete(`/jobs/${made.job.id}`);
    await advance(s.h, DAYS(2));
    const res = await s.h.admin.post(`/jobs/${made.job.id}/restore`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: made.job.id,
      object: 'job',
      job_number: before.job_number,
    });
    expect(await visible(s, made)).toEqual(SEEN);
    expect(idsOf(await s.ws.api.get(`/jobs/${made.job.id}/photos`))).toEqual([made.file]);
    expect(idsOf(await s.ws.api.get(`/jobs/${made.job.id}/payments`))).toEqual([made.payment]);
    const { updated_at: _a, ...now } = (await s.ws.api.get(`/jobs/${made.job.id}`)).body;
    const { updated_at: _b, ...then } = before;
    expect(now).toEqual(then);
  });

  test('still works 29 days after deletion', async () => {
    const s = await setup();
    const made = await jobWithEverything(s);
    await s.ws.api.delete(`/jobs/${made.job.id}`);
    await advance(s.h, DAYS(29));
    expect((await s.h.admin.post(`/jobs/${made.job.id}/restore`)).status).toBe(200);
    expect(await visible(s, made)).toEqual(SEEN);
  });

  test('restoring a live job answers it unchanged', async () => {
    const { h, ws } = await setup();
    const job = await newJob(ws);
    await advance(h, 60);
    const res = await h.admin.post(`/jobs/${job.id}/restore`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(job);
  });

  test('restoring a job that never existed is 404', async () => {
    const { h } = await setup();
    const res = await h.admin.post(`/jobs/${UNKNOWN}/restore`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });
});

describe('30 days after deletion the job is purged', () => {
  test('after 30 days and a second, the job, its notes and tasks are gone for good', async () => {
    const s = await setup();
    const made = await jobWithEverything(s);
    await s.ws.api.delete(`/jobs/${made.job.id}`);
    await advance(s.h, DAYS(30) + 1);
    const restore = await s.h.admin.post(`/jobs/${made.job.id}/restore`);
    expect(restore.status).toBe(404);
    expect(await visible(s, made)).toEqual(GONE);
    const store = s.h.rt.store.workspace(s.ws.id);
    expect(store.get('jobs', made.job.id)).toBeUndefined();
    expect(store.get('notes', made.note.id)).toBeUndefined();
    expect(store.get('tasks', made.task.id)).toBeUndefined();
    expect(store.get('files', made.file)).toBeUndefined();
    expect(store.get('payments', made.payment)).toBeUndefined();
  });

  test('a restore past the 30 days is 404 even before the purge has run, and purges the job', async () => {
    const s = await setup();
    const made = await jobWithEverything(s);
    await s.ws.api.delete(`/jobs/${made.job.id}`);
    // The clock moved on without running due work (as real time passes between timer ticks):
    // the purge task has not run, so restore must judge the 30 days itself.
    s.h.rt.clock.moveTo(s.h.rt.clock.nowMs() + (DAYS(30) + 1) * 1000);
    const store = s.h.rt.store.workspace(s.ws.id);
    expect(store.get('jobs', made.job.id)).toBeDefined();
    const restore = await s.h.admin.post(`/jobs/${made.job.id}/restore`);
    expect(restore.status).toBe(404);
    expect(restore.body.error.code).toBe('not_found');
    expect(await visible(s, made)).toEqual(GONE);
    expect(store.get('jobs', made.job.id)).toBeUndefined();
    expect(store.get('notes', made.note.id)).toBeUndefined();
    expect(store.get('tasks', made.task.id)).toBeUndefined();
    expect(store.get('payments', made.payment)).toBeUndefined();
  });

  test('a restored job is not purged when its 30 days would have run out', async () => {
    const s = await setup();
    const made = await jobWithEverything(s);
    await s.ws.api.delete(`/jobs/${made.job.id}`);
    await advance(s.h, DAYS(10));
    await s.h.admin.post(`/jobs/${made.job.id}/restore`);
    await advance(s.h, DAYS(25));
    expect(await visible(s, made)).toEqual(SEEN);
  });

  test('the 30 days count from the latest deletion', async () => {
    const s = await setup();
    const made = await jobWithEverything(s);
    await s.ws.api.delete(`/jobs/${made.job.id}`);
    await advance(s.h, DAYS(20));
    await s.h.admin.post(`/jobs/${made.job.id}/restore`);
    await s.ws.api.delete(`/jobs/${made.job.id}`);
    await advance(s.h, DAYS(20)); // 40 days after the first deletion, 20 after the second
    expect((await s.h.admin.post(`/jobs/${made.job.id}/restore`)).status).toBe(200);
  });

  test('a purged job number is never given again', async () => {
    const { h, ws } = await setup('empty');
    const job = await newJob(ws);
    await ws.api.delete(`/jobs/${job.id}`);
    await advance(h, DAYS(31));
    expect((await newJob(ws)).job_number).toBe('J-1002');
  });
});
