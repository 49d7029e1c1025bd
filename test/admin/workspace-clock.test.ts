import { describe, expect, test } from 'vitest';
import { markSent, newInvoice, newJob } from '../invoices/setup';
import { connect, rig } from '../oauth/setup';
import { ok } from '../support/expect';
import type { Harness, TestWorkspace } from '../support/harness';
import { createJob, hookHarness, receiver, subscribeUrl } from '../webhooks/setup';

// Issue 37: a clock per workspace. Moving one workspace's clock runs its work alone; the server's
// clock and every other workspace's stay where they were.

const DAY_S = 24 * 60 * 60;

const clockOf = async (h: Harness, ws: TestWorkspace): Promise<number> =>
  Date.parse((await ok(h.admin.get(`/workspaces/${ws.id}/clock`))).now);

const serverNow = async (h: Harness): Promise<number> =>
  Date.parse((await ok(h.admin.get('/clock'))).now);

const move = (h: Harness, ws: TestWorkspace, body: Record<string, unknown>) =>
  h.admin.post(`/workspaces/${ws.id}/clock`, body);

async function twoWorkspaces(h: Harness): Promise<[TestWorkspace, TestWorkspace]> {
  return [await h.workspace(), await h.workspace()];
}

/** A $1,000 invoice due `days` from the workspace's today, sent. */
async function sentInvoice(ws: TestWorkspace, now: number, days: number) {
  const due = new Date(now + days * DAY_S * 1000).toISOString().slice(0, 10);
  const job = await newJob(ws);
  const inv = await newInvoice(ws, { job_id: job.id, due_date: due });
  return markSent(ws, inv.id);
}

describe("a workspace's clock", () => {
  test("a new workspace's clock starts at the server's now", async () => {
    const h = hookHarness();
    const ws = await h.workspace();
    const [server, own] = [await serverNow(h), await clockOf(h, ws)];
    expect(Math.abs(own - server)).toBeLessThan(1000);
  });

  test("moving it 40 days makes its invoice overdue; the other workspace's and the server's time stay", async () => {
    const h = hookHarness();
    const rx = await receiver();
    const [moved, still] = await twoWorkspaces(h);
    const start = await serverNow(h);
    for (const ws of [moved, still]) {
      await createWebhook(ws, rx.url);
      await sentInvoice(ws, start, 30);
    }
    const res = await move(h, moved, { advance_seconds: 40 * DAY_S });
    expect(res.status).toBe(200);
    expect(Date.parse(res.body.now) - start).toBeGreaterThanOrEqual(40 * DAY_S * 1000);
    expect(Math.abs((await clockOf(h, still)) - start)).toBeLessThan(5000);
    expect(Math.abs((await serverNow(h)) - start)).toBeLessThan(5000);
    const overdue = async (ws: TestWorkspace) =>
      (await ok(ws.api.get('/invoices', { query: { status: 'overdue' } }))).data.length;
    expect(await overdue(moved)).toBe(1);
    expect(await overdue(still)).toBe(0);
    const events = rx.received.map((d) => [d.json.event_type, d.json.event_workspace_id]);
    expect(events).toContainEqual(['invoice.overdue', moved.id]);
    expect(events).not.toContainEqual(['invoice.overdue', still.id]);
  });

  test('records written after the move carry its time; the other workspace writes at its own', async () => {
    const h = hookHarness();
    const [moved, still] = await twoWorkspaces(h);
    await ok(move(h, moved, { advance_seconds: 10 * DAY_S }));
    const ahead = await ok(moved.api.post('/jobs', { name: 'A', address: '1 Main St' }), 201);
    const here = await ok(still.api.post('/jobs', { name: 'B', address: '1 Main St' }), 201);
    const gap = Date.parse(ahead.created_at) - Date.parse(here.created_at);
    expect(gap).toBeGreaterThan(10 * DAY_S * 1000 - 5000);
    expect(gap).toBeLessThan(10 * DAY_S * 1000 + 5000);
  });

  test('its delivery retries play out on its clock alone', async () => {
    const h = hookHarness();
    const rx = await receiver(() => 500);
    const [moved, still] = await twoWorkspaces(h);
    await subscribeUrl(moved, rx.url);
    await subscribeUrl(still, rx.url);
    await createJob(moved);
    await createJob(still);
    await ok(h.admin.post('/clock', { advance_seconds: 1 })); // both first attempts go
    await rx.waitFor(2);
    await ok(move(h, moved, { advance_seconds: 3 * DAY_S }));
    const attempts = (ws: TestWorkspace) =>
      rx.received.filter((d) => d.json.event_workspace_id === ws.id).length;
    expect(attempts(moved)).toBeGreaterThan(3);
    expect(attempts(still)).toBe(1);
  });

  test("the server's clock moves every workspace's with it; one ahead stays as far ahead", async () => {
    const h = hookHarness();
    const [ahead, behind] = await twoWorkspaces(h);
    await ok(move(h, ahead, { advance_seconds: 5 * DAY_S }));
    const lead = (await clockOf(h, ahead)) - (await clockOf(h, behind));
    await ok(h.admin.post('/clock', { advance_seconds: 2 * DAY_S }));
    const start = await serverNow(h);
    expect(Math.abs((await clockOf(h, behind)) - start)).toBeLessThan(5000);
    const after = (await clockOf(h, ahead)) - (await clockOf(h, behind));
    expect(Math.abs(after - lead)).toBeLessThan(5000);
  });

  test('it only moves forward, and refuses what /__admin/clock refuses, naming the field', async () => {
    const h = hookHarness();
    const ws = await h.workspace();
    const past = new Date((await clockOf(h, ws)) - DAY_S * 1000).toISOString();
    const cases: [Record<string, unknown>, string][] = [
      [{ set: past }, 'set'],
      [{}, 'advance_seconds'],
      [{ advance_seconds: 1, set: past }, 'set'],
      [{ set: 'tomorrow' }, 'set'],
      [{ set: '2099-01-01' }, 'set'], // a date alone: the document says date-time
      [{ advance_seconds: -1 }, 'advance_seconds'],
      [{ set: '9999-12-31T23:59:59Z' }, 'set'], // past ten years: no four-digit year beyond
    ];
    for (const [body, field] of cases) {
      const res = await h.admin.raw('POST', `/workspaces/${ws.id}/clock`, {
        body: JSON.stringify(body),
        headers: { 'Content-Type': 'application/json' },
      });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', field });
    }
    const target = new Date((await clockOf(h, ws)) + DAY_S * 1000).toISOString();
    const moved = Date.parse((await ok(move(h, ws, { set: target }))).now);
    expect(moved - Date.parse(target)).toBeGreaterThanOrEqual(0);
    expect(moved - Date.parse(target)).toBeLessThan(1000); // real time runs on meanwhile
  });

  test('an unknown workspace is 404, for a read and a move', async () => {
    const h = hookHarness();
    const unknown = '7b0c5b2e-5d2a-4b43-9d59-6a1f0b7f5a11';
    expect((await h.admin.get(`/workspaces/${unknown}/clock`)).status).toBe(404);
    const res = await h.admin.post(`/workspaces/${unknown}/clock`, { advance_seconds: 1 });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });

  test('a snapshot restore brings its clock back with it', async () => {
    const h = hookHarness();
    const ws = await h.workspace();
    await ok(move(h, ws, { advance_seconds: DAY_S }));
    const snapshot = await ok(h.admin.get(`/workspaces/${ws.id}/snapshot`));
    const then = await clockOf(h, ws);
    await ok(move(h, ws, { advance_seconds: 10 * DAY_S }));
    await ok(
      h.admin.raw('PUT', `/workspaces/${ws.id}/snapshot`, {
        body: JSON.stringify(snapshot),
        headers: { 'Content-Type': 'application/json' },
        invalid: false,
      }),
    );
    const back = await clockOf(h, ws);
    expect(back - then).toBeGreaterThanOrEqual(0);
    expect(back - then).toBeLessThan(5000);
  });

  test("an Idempotency-Key's 24 hours run on its workspace's clock", async () => {
    const h = hookHarness();
    const [moved, still] = await twoWorkspaces(h);
    const send = (ws: TestWorkspace) =>
      ws.api.post(
        '/jobs',
        { name: 'A', address: '1 Main St' },
        { headers: { 'Idempotency-Key': 'one-key' } },
      );
    const first = { moved: await send(moved), still: await send(still) };
    await ok(move(h, moved, { advance_seconds: 25 * 60 * 60 }));
    const again = { moved: await send(moved), still: await send(still) };
    expect(again.still.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.still.body.id).toBe(first.still.body.id);
    expect(again.moved.headers.get('Idempotent-Replayed')).toBeNull();
    expect(again.moved.body.id).not.toBe(first.moved.body.id);
  });

  test("its calls leave the request log when its clock passes their 14 days; the other's stay", async () => {
    const h = hookHarness();
    const [moved, still] = await twoWorkspaces(h);
    await moved.api.get('/jobs');
    await still.api.get('/jobs');
    await ok(move(h, moved, { advance_seconds: 15 * DAY_S }));
    const logged = async () =>
      (await ok(h.admin.get('/requests', { query: { limit: 100 } }))).data.map(
        (e: { workspace_id: string }) => e.workspace_id,
      );
    expect(new Set(await logged())).toEqual(new Set([still.id]));
    const exported = await h.admin.get('/requests', { query: { format: 'jsonl' } });
    expect(exported.text).not.toContain(moved.id);
    expect(exported.text).toContain(still.id);
  });

  test("an OAuth access token expires when its workspace's clock passes its hour", async () => {
    const r = await rig();
    const tokens = await connect(r);
    const other = await r.h.workspace();
    await ok(r.h.admin.post(`/workspaces/${other.id}/clock`, { advance_seconds: 2 * 3600 }));
    expect((await r.h.as(tokens.access_token).get('/ping')).status).toBe(200);
    await ok(r.h.admin.post(`/workspaces/${r.ws.id}/clock`, { advance_seconds: 3601 }));
    expect((await r.h.as(tokens.access_token).get('/ping')).status).toBe(401);
  });
});

describe('expires_in_seconds', () => {
  test('the workspace deletes itself when its clock passes its end; the other stays', async () => {
    const h = hookHarness();
    const made = await ok(h.admin.post('/workspaces', { expires_in_seconds: 3600 }), 201);
    const kept = await h.workspace();
    expect(made.expires_at).toEqual(expect.any(String));
    expect(made.control_token).toMatch(/^svc_ctl_/);
    const shown = await ok(h.admin.get(`/workspaces/${made.id}`));
    expect(shown.expires_at).toBe(made.expires_at);
    const start = await clockOf(h, kept);
    expect(Date.parse(shown.expires_at) - start).toBeGreaterThan(3590 * 1000);
    expect(Date.parse(shown.expires_at) - start).toBeLessThanOrEqual(3600 * 1000);
    expect((await ok(h.admin.get(`/workspaces/${kept.id}`))).expires_at).toBeNull();
    await ok(h.admin.post(`/workspaces/${made.id}/clock`, { advance_seconds: 3500 }));
    expect((await h.admin.get(`/workspaces/${made.id}`)).status).toBe(200);
    await ok(h.admin.post(`/workspaces/${made.id}/clock`, { advance_seconds: 200 }));
    expect((await h.admin.get(`/workspaces/${made.id}`)).status).toBe(404);
    expect((await h.as(made.keys.write.key).get('/ping')).status).toBe(401);
    expect((await h.admin.get(`/workspaces/${kept.id}`)).status).toBe(200);
  });

  test("the server's clock passing its end deletes it too", async () => {
    const h = hookHarness();
    const made = await ok(h.admin.post('/workspaces', { expires_in_seconds: 60 }), 201);
    await ok(h.admin.post('/clock', { advance_seconds: 61 }));
    expect((await h.admin.get(`/workspaces/${made.id}`)).status).toBe(404);
  });

  test.each([0, -5, 1.5, 'soon'])('%s is 400 naming expires_in_seconds', async (value) => {
    const h = hookHarness();
    const res = await h.admin.raw('POST', '/workspaces', {
      body: JSON.stringify({ expires_in_seconds: value }),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'expires_in_seconds' });
  });
});

async function createWebhook(ws: TestWorkspace, url: string): Promise<void> {
  await ok(ws.api.post('/webhooks', { event: 'invoice.overdue', target_url: url }), 201);
}
