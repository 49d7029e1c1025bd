import { describe, expect, test } from 'vitest';
import { addJob, addTask, allIds, setup } from './setup';

// spec, Conventions: a deleted task is permanently gone (no recoverable area, unlike jobs).
describe('DELETE /tasks/{id}', () => {
  test('answers 200 with the deleted confirmation', async () => {
    const { ws } = await setup();
    const task = await addTask(ws, { title: 'Order dumpster' });
    const res = await ws.api.delete(`/tasks/${task.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: task.id, object: 'task', deleted: true });
  });

  test('an appointment is deleted the same way, as object task', async () => {
    const { ws } = await setup();
    const appt = await addTask(ws, { appointment_type: 'build_day' }, '/appointments');
    const res = await ws.api.delete(`/tasks/${appt.id}`);
    expect(res.body).toEqual({ id: appt.id, object: 'task', deleted: true });
    expect(await allIds(ws, '/appointments')).not.toContain(appt.id);
  });

  test('a deleted task is 404 on GET, PATCH and a second DELETE', async () => {
    const { ws } = await setup();
    const task = await addTask(ws, { title: 'Order dumpster' });
    await ws.api.delete(`/tasks/${task.id}`);
    for (const res of [
      await ws.api.get(`/tasks/${task.id}`),
      await ws.api.patch(`/tasks/${task.id}`, { title: 'Back?' }),
      await ws.api.delete(`/tasks/${task.id}`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
  });

  test('a deleted task leaves every list and only that one', async () => {
    const { ws } = await setup();
    const jobId = await addJob(ws);
    const keep = await addTask(ws, { title: 'Keep', job_id: jobId });
    const gone = await addTask(ws, { title: 'Gone', job_id: jobId });
    await ws.api.delete(`/tasks/${gone.id}`);
    const all = await allIds(ws, '/tasks');
    expect(all).toContain(keep.id);
    expect(all).not.toContain(gone.id);
    expect(await allIds(ws, `/jobs/${jobId}/tasks`)).toEqual([keep.id]);
  });

  test('restoring the job a task was on does not bring a deleted task back', async () => {
    const { h, ws } = await setup();
    const jobId = await addJob(ws);
    const task = await addTask(ws, { title: 'Gone for good', job_id: jobId });
    expect((await ws.api.delete(`/tasks/${task.id}`)).status).toBe(200);
    await ws.api.delete(`/jobs/${jobId}`);
    expect((await h.admin.post(`/jobs/${jobId}/restore`)).status).toBe(200);
    expect((await ws.api.get(`/tasks/${task.id}`)).status).toBe(404);
    expect(await allIds(ws, `/jobs/${jobId}/tasks`)).toEqual([]);
  });

  test('DELETE of an unknown task is 404 not_found', async () => {
    const { ws } = await setup();
    const res = await ws.api.delete(`/tasks/${crypto.randomUUID()}`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });
});
