import { describe, expect, test } from 'vitest';
import type { Reply } from '../support/harness';
import { addJob, addTask, allIds, setup } from './setup';

const expectForbidden = (res: Reply) => {
  expect(res.status, res.text).toBe(403);
  expect(res.body.error.code).toBe('forbidden');
};

describe('a read-only key', () => {
  test('cannot create a task or an appointment: 403 forbidden, nothing written', async () => {
    const { ws } = await setup();
    const before = await allIds(ws, '/tasks');
    expectForbidden(await ws.read.post('/tasks', { title: 'Sneaky' }));
    expectForbidden(await ws.read.post('/appointments', { appointment_type: 'inspection' }));
    expect(await allIds(ws, '/tasks')).toEqual(before);
  });

  test('cannot change a task: 403 forbidden, the task unchanged', async () => {
    const { ws } = await setup();
    const task = await addTask(ws, { title: 'Original' });
    expectForbidden(await ws.read.patch(`/tasks/${task.id}`, { title: 'Changed' }));
    expectForbidden(await ws.read.patch(`/tasks/${task.id}`, { completed: true }));
    expect((await ws.api.get(`/tasks/${task.id}`)).body).toEqual(task);
  });

  test('is refused 403 on PATCH and DELETE before the task is looked up', async () => {
    const { ws } = await setup();
    const unknown = crypto.randomUUID();
    expectForbidden(await ws.read.patch(`/tasks/${unknown}`, { title: 'x' }));
    expectForbidden(await ws.read.delete(`/tasks/${unknown}`));
  });

  test('cannot delete a task: 403 forbidden, the task still there', async () => {
    const { ws } = await setup();
    const task = await addTask(ws, { title: 'Stays' });
    expectForbidden(await ws.read.delete(`/tasks/${task.id}`));
    expect((await ws.api.get(`/tasks/${task.id}`)).status).toBe(200);
  });

  // decisions.md, HTTP conventions: read-only credentials are refused before the body is validated.
  test('is refused 403 before an invalid body is looked at', async () => {
    const { ws } = await setup();
    const task = await addTask(ws, { title: 't' });
    const opts = { invalid: true };
    expectForbidden(await ws.read.post('/tasks', { priority: 'urgent' }, opts));
    expectForbidden(await ws.read.post('/appointments', { title: 'no type' }, opts));
    expectForbidden(await ws.read.patch(`/tasks/${task.id}`, { title: null }, opts));
  });

  test('reads tasks, appointments and a job’s tasks', async () => {
    const { ws } = await setup();
    const jobId = await addJob(ws);
    const task = await addTask(ws, { appointment_type: 'inspection', job_id: jobId });
    expect((await ws.read.get(`/tasks/${task.id}`)).body).toEqual(task);
    for (const path of ['/tasks', '/appointments', `/jobs/${jobId}/tasks`]) {
      const res = await ws.read.get(path, { query: { limit: 1 } });
      expect(res.status, path).toBe(200);
      expect(res.body.data[0]?.id, path).toBe(task.id);
    }
  });
});

describe('another workspace', () => {
  test('its task is 404 on GET, PATCH and DELETE, and is left untouched', async () => {
    const { h, ws } = await setup();
    const other = await h.workspace({ profile: 'small' });
    const theirs = await addTask(other, { title: 'Theirs' });
    for (const res of [
      await ws.api.get(`/tasks/${theirs.id}`),
      await ws.api.patch(`/tasks/${theirs.id}`, { title: 'Mine now' }),
      await ws.api.delete(`/tasks/${theirs.id}`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
    expect((await other.api.get(`/tasks/${theirs.id}`)).body).toEqual(theirs);
  });

  test('its tasks and appointments never appear in this workspace’s lists', async () => {
    const { h, ws } = await setup('small');
    const other = await h.workspace({ profile: 'small' });
    const task = await addTask(other, { title: 'Theirs' });
    const appt = await addTask(other, { appointment_type: 'inspection' });
    const mine = [...(await allIds(ws, '/tasks')), ...(await allIds(ws, '/appointments'))];
    expect(mine).not.toContain(task.id);
    expect(mine).not.toContain(appt.id);
  });

  test('its job’s tasks are 404 through this workspace', async () => {
    const { h, ws } = await setup();
    const other = await h.workspace({ profile: 'small' });
    const jobId = await addJob(other);
    await addTask(other, { title: 'Theirs', job_id: jobId });
    const res = await ws.api.get(`/jobs/${jobId}/tasks`);
    expect(res.status).toBe(404);
  });
});
