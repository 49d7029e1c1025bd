import { describe, expect, test } from 'vitest';
import {
  advance,
  idsOf,
  newJob,
  newNote,
  newTask,
  putFile,
  putPayment,
  type Setup,
  setup,
  UNKNOWN,
} from './setup';

const SUBLISTS = ['notes', 'files', 'photos', 'tasks', 'estimates', 'invoices', 'payments'];

describe('the seven lists of a job', () => {
  test.each(SUBLISTS)('/jobs/{id}/%s of a new job is an empty list', async (sub) => {
    const { ws } = await setup();
    const job = await newJob(ws);
    const res = await ws.api.get(`/jobs/${job.id}/${sub}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ object: 'list', data: [], has_more: false, next_cursor: null });
  });

  test.each(SUBLISTS)('/jobs/{id}/%s of an unknown job is 404 not_found', async (sub) => {
    const { ws } = await setup();
    const res = await ws.api.get(`/jobs/${UNKNOWN}/${sub}`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });

  test.each(SUBLISTS)('/jobs/{id}/%s of a deleted job is 404 not_found', async (sub) => {
    const { ws } = await setup();
    const job = await newJob(ws);
    await newNote(ws, job.id);
    await ws.api.delete(`/jobs/${job.id}`);
    const res = await ws.api.get(`/jobs/${job.id}/${sub}`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });

  test.each(SUBLISTS)("/jobs/{id}/%s of another workspace's job is 404", async (sub) => {
    const { h, ws } = await setup();
    const other = await h.workspace({ profile: 'empty' });
    const theirs = await newJob(other);
    const res = await ws.api.get(`/jobs/${theirs.id}/${sub}`);
    expect(res.status).toBe(404);
  });

  test.each(SUBLISTS)('a read-only key can read /jobs/{id}/%s', async (sub) => {
    const { ws } = await setup();
    const job = await newJob(ws);
    expect((await ws.read.get(`/jobs/${job.id}/${sub}`)).status).toBe(200);
  });
});

describe('what each list holds', () => {
  test("notes: the job's own notes, newest first, none of another job's", async () => {
    const { h, ws } = await setup();
    const job = await newJob(ws, { notes: 'First' });
    const other = await newJob(ws);
    await advance(h, 1);
    const second = await newNote(ws, job.id, 'Second');
    await newNote(ws, other.id, 'Elsewhere');
    const res = await ws.api.get(`/jobs/${job.id}/notes`);
    expect(res.body.data.map((n: { content: string }) => n.content)).toEqual(['Second', 'First']);
    expect(res.body.data[0]).toMatchObject({ id: second.id, job_id: job.id, object: 'note' });
  });

  test("tasks: the job's own tasks, none of another job's", async () => {
    const { h, ws } = await setup();
    const job = await newJob(ws);
    const other = await newJob(ws);
    const a = await newTask(ws, job.id, 'Order shingles');
    await advance(h, 1);
    const b = await newTask(ws, job.id, 'Schedule crew');
    await newTask(ws, other.id, 'Elsewhere');
    const res = await ws.api.get(`/jobs/${job.id}/tasks`);
    expect(idsOf(res)).toEqual([b.id, a.id]);
    expect(res.body.data[0]).toMatchObject({ object: 'task', job_id: job.id });
  });

  test('tasks: appointments of the job are listed with its tasks', async () => {
    const { h, ws } = await setup();
    const job = await newJob(ws);
    const task = await newTask(ws, job.id);
    await advance(h, 1);
    const made = await ws.api.post('/appointments', {
      appointment_type: 'inspection',
      job_id: job.id,
      due_date: '2026-06-01T09:00:00',
    });
    expect(made.status).toBe(201);
    const res = await ws.api.get(`/jobs/${job.id}/tasks`);
    expect(idsOf(res)).toEqual([made.body.id, task.id]);
    expect(res.body.data[0]).toMatchObject({
      is_appointment: true,
      appointment_type: 'inspection',
    });
  });

  test('tasks: a task moved to another job leaves the list', async () => {
    const { ws } = await setup();
    const job = await newJob(ws);
    const other = await newJob(ws);
    const task = await newTask(ws, job.id);
    await ws.api.patch(`/tasks/${task.id}`, { job_id: other.id });
    expect((await ws.api.get(`/jobs/${job.id}/tasks`)).body.data).toEqual([]);
    expect(idsOf(await ws.api.get(`/jobs/${other.id}/tasks`))).toEqual([task.id]);
  });

  test('notes page with limit and cursor', async () => {
    const { h, ws } = await setup();
    const job = await newJob(ws);
    const ids: string[] = [];
    for (const content of ['a', 'b', 'c']) {
      ids.push((await newNote(ws, job.id, content)).id);
      await advance(h, 1);
    }
    const first = await ws.api.get(`/jobs/${job.id}/notes`, { query: { limit: 2 } });
    expect(first.body.has_more).toBe(true);
    const second = await ws.api.get(`/jobs/${job.id}/notes`, {
      query: { limit: 2, cursor: first.body.next_cursor },
    });
    expect([...idsOf(first), ...idsOf(second)]).toEqual([...ids].reverse());
    expect(second.body).toMatchObject({ has_more: false, next_cursor: null });
  });

  test("a cursor of one job's notes is refused on another job's notes", async () => {
    const { ws } = await setup();
    const job = await newJob(ws);
    const other = await newJob(ws);
    await newNote(ws, job.id, 'a');
    await newNote(ws, job.id, 'b');
    const { next_cursor } = (await ws.api.get(`/jobs/${job.id}/notes`, { query: { limit: 1 } }))
      .body;
    const res = await ws.api.get(`/jobs/${other.id}/notes`, { query: { cursor: next_cursor } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'cursor' });
  });

  test('files: every file of the job; category narrows; photos are the photo category', async () => {
    const { h, ws } = await setup();
    const job = await newJob(ws);
    const other = await newJob(ws);
    const photo = putFile(h, ws, job.id, 'photo');
    await advance(h, 1);
    const contract = putFile(h, ws, job.id, 'contract');
    putFile(h, ws, other.id, 'photo');
    expect(idsOf(await ws.api.get(`/jobs/${job.id}/files`))).toEqual([contract, photo]);
    const narrowed = await ws.api.get(`/jobs/${job.id}/files`, { query: { category: 'contract' } });
    expect(idsOf(narrowed)).toEqual([contract]);
    expect(idsOf(await ws.api.get(`/jobs/${job.id}/photos`))).toEqual([photo]);
  });

  test.each(['photo', 'document', 'scope', 'estimate', 'contract', 'other'])(
    'files: category=%s is accepted',
    async (category) => {
      const { ws } = await setup();
      const job = await newJob(ws);
      const res = await ws.api.get(`/jobs/${job.id}/files`, { query: { category } });
      expect(res.status).toBe(200);
    },
  );

  test.each(['video', 'PHOTO', ''])(
    'files: category=%j is 400 with field category',
    async (category) => {
      const { ws } = await setup();
      const job = await newJob(ws);
      const res = await ws.api.get(`/jobs/${job.id}/files`, { query: { category }, invalid: true });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'category' });
    },
  );

  test("payments: the job's own payments", async () => {
    const { h, ws } = await setup();
    const job = await newJob(ws);
    const other = await newJob(ws);
    const mine = putPayment(h, ws, job.id, 500);
    putPayment(h, ws, other.id, 700);
    const res = await ws.api.get(`/jobs/${job.id}/payments`);
    expect(idsOf(res)).toEqual([mine]);
    expect(res.body.data[0]).toMatchObject({ object: 'payment', amount: 500, job_id: job.id });
  });
});

/** Makes one record on the job for a sub-list the test can fill, answering its id. */
const MAKERS: Record<string, (s: Setup, jobId: string) => Promise<string> | string> = {
  notes: async (s, jobId) => (await newNote(s.ws, jobId)).id,
  tasks: async (s, jobId) => (await newTask(s.ws, jobId)).id,
  files: (s, jobId) => putFile(s.h, s.ws, jobId, 'document'),
  photos: (s, jobId) => putFile(s.h, s.ws, jobId, 'photo'),
  payments: (s, jobId) => putPayment(s.h, s.ws, jobId, 100),
};

// spec, Pagination 3: every paged list accepts updated_since, created_after, created_before.
describe("time filters on a job's lists", () => {
  test.each(Object.entries(MAKERS))(
    '/jobs/{id}/%s: created_after, created_before and updated_since narrow it',
    async (sub, make) => {
      const s = await setup();
      const job = await newJob(s.ws);
      const old = await make(s, job.id);
      const mark = await advance(s.h, 60);
      const recent = await make(s, job.id);
      const list = (query: Record<string, string>) =>
        s.ws.api.get(`/jobs/${job.id}/${sub}`, { query });
      expect(idsOf(await list({ created_after: mark }))).toEqual([recent]);
      expect(idsOf(await list({ created_before: mark }))).toEqual([old]);
      expect(idsOf(await list({ updated_since: mark }))).toEqual([recent]);
      expect(idsOf(await list({ created_after: mark.slice(0, 10) }))).toContain(recent);
    },
  );

  test('/jobs/{id}/tasks: updated_since keeps a task changed at or after the instant', async () => {
    const s = await setup();
    const job = await newJob(s.ws);
    const changed = await newTask(s.ws, job.id, 'Changed later');
    await newTask(s.ws, job.id, 'Left alone');
    const mark = await advance(s.h, 60);
    expect((await s.ws.api.patch(`/tasks/${changed.id}`, { title: 'Renamed' })).status).toBe(200);
    const res = await s.ws.api.get(`/jobs/${job.id}/tasks`, { query: { updated_since: mark } });
    expect(idsOf(res)).toEqual([changed.id]);
  });

  test('/jobs/{id}/files: category and the time filters combine', async () => {
    const s = await setup();
    const job = await newJob(s.ws);
    putFile(s.h, s.ws, job.id, 'contract');
    const mark = await advance(s.h, 60);
    const contract = putFile(s.h, s.ws, job.id, 'contract');
    putFile(s.h, s.ws, job.id, 'photo');
    const res = await s.ws.api.get(`/jobs/${job.id}/files`, {
      query: { category: 'contract', created_after: mark },
    });
    expect(idsOf(res)).toEqual([contract]);
  });

  const BAD = SUBLISTS.flatMap((sub) =>
    ['updated_since', 'created_after', 'created_before'].map((field) => [sub, field]),
  );
  test.each(BAD)('/jobs/{id}/%s: a bad %s is 400 naming it', async (sub, field) => {
    const { ws } = await setup();
    const job = await newJob(ws);
    for (const value of ['yesterday', '2026-02-30']) {
      const res = await ws.api.get(`/jobs/${job.id}/${sub}`, {
        query: { [field as string]: value },
        invalid: true,
      });
      expect(res.status, value).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', field });
    }
  });
});
