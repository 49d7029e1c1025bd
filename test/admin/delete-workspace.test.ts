import { describe, expect, test } from 'vitest';
import { connect, rig } from '../oauth/setup';
import { ok } from '../support/expect';
import type { Harness, TestWorkspace } from '../support/harness';
import { advance, createJob, hookHarness, receiver, subscribeUrl } from '../webhooks/setup';

// Issue 37: DELETE /__admin/workspaces/{id} ends a workspace for good; nothing of it answers
// afterwards, and no other workspace is touched.

async function twoWorkspaces(h: Harness): Promise<[TestWorkspace, TestWorkspace]> {
  return [await h.workspace({ profile: 'small' }), await h.workspace({ profile: 'small' })];
}

const remove = (h: Harness, id: string) => h.admin.delete(`/workspaces/${id}`);

describe('DELETE /__admin/workspaces/{id}', () => {
  test('answers 200 {id, object: workspace, deleted: true}; the id is 404 afterwards', async () => {
    const h = hookHarness();
    const [gone] = await twoWorkspaces(h);
    const res = await remove(h, gone.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: gone.id, object: 'workspace', deleted: true });
    const after = await h.admin.get(`/workspaces/${gone.id}`);
    expect(after.status).toBe(404);
    expect(after.body.error.code).toBe('not_found');
    expect((await remove(h, gone.id)).status).toBe(404);
    const patched = await h.admin.patch(`/workspaces/${gone.id}`, { subscription_active: false });
    expect(patched.status).toBe(404);
    const newKey = await h.admin.post(`/workspaces/${gone.id}/keys`, { access: 'read' });
    expect(newKey.status).toBe(404);
    const listed = (await h.admin.get('/workspaces', { query: { limit: 100 } })).body.data;
    expect(listed.map((w: { id: string }) => w.id)).not.toContain(gone.id);
  });

  test('an id in capitals names the same workspace; an id of another form names none: 404', async () => {
    const h = hookHarness();
    const ws = await h.workspace();
    expect((await remove(h, ws.id.toUpperCase())).status).toBe(200);
    const bad = await remove(h, 'not-a-uuid');
    expect(bad.status).toBe(404);
    expect(bad.body.error.code).toBe('not_found');
  });

  test("its keys answer 401 at once; the other workspace's keys and records are untouched", async () => {
    const h = hookHarness();
    const [gone, kept] = await twoWorkspaces(h);
    const keptJobs = (await kept.api.get('/jobs', { query: { limit: 100 } })).body;
    await ok(remove(h, gone.id));
    for (const client of [gone.api, gone.read]) {
      const res = await client.get('/jobs');
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('unauthorized');
    }
    expect((await kept.api.get('/jobs', { query: { limit: 100 } })).body).toEqual(keptJobs);
    expect((await kept.read.get('/ping')).status).toBe(200);
  });

  test("its OAuth connection's tokens answer 401 and its refresh token is invalid_grant", async () => {
    const r = await rig();
    const tokens = await connect(r);
    const bearer = r.h.as(tokens.access_token);
    expect((await bearer.get('/ping')).status).toBe(200);
    // A fault may name the connection as its key_id: it goes with the workspace.
    const [connection] = (await ok(r.h.admin.get(`/workspaces/${r.ws.id}/connections`))).data;
    await ok(
      r.h.admin.post('/faults', {
        match: { key_id: connection.id, path: '/nothing-here' },
        action: { status: 503 },
      }),
      201,
    );
    await ok(remove(r.h, r.ws.id));
    expect((await bearer.get('/ping')).status).toBe(401);
    const refreshed = await r.h.anonymous.raw('POST', '/oauth/token', {
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        client_id: r.app.client_id,
        client_secret: r.app.client_secret,
      }).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(refreshed.status).toBe(400);
    expect(refreshed.body.error).toBe('invalid_grant');
    const global = r.h.rt.store.global;
    const own = (coll: 'oauth_connections' | 'oauth_codes') =>
      [...global.values(coll)].filter((c) => c.workspace_id === r.ws.id);
    expect(own('oauth_connections')).toEqual([]);
    expect(own('oauth_codes')).toEqual([]);
    expect((await r.h.admin.get('/faults')).body.data).toEqual([]);
  });

  test('its pending deliveries are cancelled: no retry goes out when the clock moves on', async () => {
    const h = hookHarness();
    const rx = await receiver(() => 500);
    const [gone, kept] = await twoWorkspaces(h);
    await subscribeUrl(gone, rx.url);
    await subscribeUrl(kept, rx.url);
    await createJob(gone);
    await createJob(kept);
    await advance(h, 1); // the in-process scheduler runs only as the clock moves
    await rx.waitFor(2);
    await ok(remove(h, gone.id));
    const before = rx.received.length;
    await advance(h, 3 * 24 * 3600);
    const after = rx.received.slice(before).map((d) => d.json.event_workspace_id);
    expect(after.length).toBeGreaterThan(0); // the other workspace's retries go on
    expect(new Set(after)).toEqual(new Set([kept.id]));
  });

  test('its request-log entries are gone from every query; the other workspace keeps its own', async () => {
    const h = hookHarness();
    const [gone, kept] = await twoWorkspaces(h);
    await gone.api.get('/jobs');
    await gone.api.get('/contacts');
    await kept.api.get('/jobs');
    const all = async () => (await h.admin.get('/requests', { query: { limit: 100 } })).body.data;
    const workspaces = (entries: { workspace_id: string }[]) =>
      new Set(entries.map((e) => e.workspace_id));
    expect(workspaces(await all())).toEqual(new Set([gone.id, kept.id]));
    await ok(remove(h, gone.id));
    expect(workspaces(await all())).toEqual(new Set([kept.id]));
    const filtered = await h.admin.get('/requests', { query: { workspace_id: gone.id } });
    expect(filtered.body.data).toEqual([]);
  });

  test('faults matching it or one of its keys go; a fault for every workspace stays', async () => {
    const h = hookHarness();
    const [gone, kept] = await twoWorkspaces(h);
    const byWorkspace = await ok(
      h.admin.post('/faults', { match: { workspace_id: gone.id }, action: { status: 503 } }),
      201,
    );
    const byKey = await ok(
      h.admin.post('/faults', { match: { key_id: gone.keys.read.id }, action: { status: 503 } }),
      201,
    );
    const theirs = await ok(
      h.admin.post('/faults', { match: { workspace_id: kept.id }, action: { status: 503 } }),
      201,
    );
    const everyone = await ok(
      h.admin.post('/faults', { match: { path: '/nothing-here' }, action: { status: 503 } }),
      201,
    );
    await ok(remove(h, gone.id));
    const ids = (await h.admin.get('/faults')).body.data.map((f: { id: string }) => f.id);
    expect(ids).not.toContain(byWorkspace.id);
    expect(ids).not.toContain(byKey.id);
    expect(ids).toEqual(expect.arrayContaining([theirs.id, everyone.id]));
  });

  test('its idempotency records go: no answer of it is kept', async () => {
    const h = hookHarness();
    const [gone, kept] = await twoWorkspaces(h);
    for (const ws of [gone, kept]) {
      const headers = { 'Idempotency-Key': `make-${ws.id}` };
      await ok(ws.api.post('/jobs', { name: 'A', address: '1 Main St' }, { headers }), 201);
    }
    await ok(remove(h, gone.id));
    const kept_ = [...h.rt.store.global.values('idempotency_keys')].map((r) => r.credential_id);
    expect(kept_).toEqual([kept.keys.write.id]);
  });

  test('no work of it stays scheduled', async () => {
    const h = hookHarness();
    const gone = await h.workspace({ profile: 'demo' });
    const tasks = h.rt.scheduler.size;
    expect(tasks).toBeGreaterThan(0);
    await ok(remove(h, gone.id));
    // What is left is the server's own work (the daily sweep, purges of its logs).
    expect(h.rt.scheduler.size).toBeLessThan(tasks);
    expect(h.rt.scheduler.size).toBeLessThanOrEqual(3);
  });

  test('a page of workspaces whose cursor names one deleted since goes on after the one before it', async () => {
    const h = hookHarness();
    const made = [await h.workspace(), await h.workspace(), await h.workspace()];
    const all = (await h.admin.get('/workspaces', { query: { limit: 100 } })).body.data.map(
      (w: { id: string }) => w.id,
    );
    const at = all.indexOf(made[1]?.id);
    const first = await h.admin.get('/workspaces', { query: { limit: at + 1 } });
    expect(first.body.data.at(-1).id).toBe(made[1]?.id);
    await ok(remove(h, String(made[1]?.id)));
    const next = await h.admin.get('/workspaces', {
      query: { limit: 100, cursor: first.body.next_cursor },
    });
    expect(next.status).toBe(200);
    expect(next.body.data.map((w: { id: string }) => w.id)).toEqual(all.slice(at + 1));
  });
});
