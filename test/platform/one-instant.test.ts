// A change happens at one instant: the stamp a move sets (sent_at, signed_at, completed_at, ...)
// is the record's updated_at, never a millisecond apart. The real clock here ticks on every
// read, so a verb that read the time twice would show it.
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { ok } from '../support/expect';
import { type Harness, harness } from '../support/harness';

let h: Harness;
beforeAll(() => {
  let tick = Date.now();
  vi.spyOn(Date, 'now').mockImplementation(() => ++tick);
  // The Clock keeps the Date.now it was built with: build the app after the spy is in place.
  h = harness({ rateLimit: null });
});
afterAll(() => vi.restoreAllMocks());

async function workspaceWithJob() {
  const ws = await h.workspace();
  const job = await ok(ws.api.post('/jobs', { name: 'Roof', address: '1 Main St' }), 201);
  return { ws, jobId: job.id as string };
}

describe('a stamp set by a move equals updated_at', () => {
  test('estimates: sent_at, first and last viewed, signed_at', async () => {
    const { ws, jobId } = await workspaceWithJob();
    const est = await ok(
      ws.api.post('/estimates', { job_id: jobId, line_items: [{ name: 'Roof', unit_price: 1 }] }),
      201,
    );
    const sent = await ok(h.admin.post(`/estimates/${est.id}/send`));
    expect(sent.sent_at).toBe(sent.updated_at);
    const viewed = await ok(h.admin.post(`/estimates/${est.id}/view`));
    expect([viewed.first_viewed_at, viewed.last_viewed_at]).toEqual([
      viewed.updated_at,
      viewed.updated_at,
    ]);
    const signed = await ok(h.admin.post(`/estimates/${est.id}/sign`, { signer_name: 'Dana' }));
    expect(signed.signed_at).toBe(signed.updated_at);
  });

  test('invoices: sent_at, first_viewed_at', async () => {
    const { ws, jobId } = await workspaceWithJob();
    const inv = await ok(
      ws.api.post('/invoices', { job_id: jobId, line_items: [{ name: 'Roof', unit_price: 1000 }] }),
      201,
    );
    const sent = await ok(ws.api.post(`/invoices/${inv.id}/mark_sent`));
    expect(sent.sent_at).toBe(sent.updated_at);
    const viewed = await ok(h.admin.post(`/invoices/${inv.id}/view`));
    expect(viewed.first_viewed_at).toBe(viewed.updated_at);
  });

  test('tasks: completed_at, made done and done later', async () => {
    const { ws } = await workspaceWithJob();
    const done = await ok(ws.api.post('/tasks', { title: 'Call', completed: true }), 201);
    expect(done.completed_at).toBe(done.updated_at);
    const open = await ok(ws.api.post('/tasks', { title: 'Call' }), 201);
    const later = await ok(ws.api.patch(`/tasks/${open.id}`, { completed: true }));
    expect(later.completed_at).toBe(later.updated_at);
  });
});
