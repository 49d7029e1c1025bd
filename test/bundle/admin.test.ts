import { describe, expect, test } from 'vitest';
import { expectError, ok } from '../support/expect';
import { harness } from '../support/harness';

const UNKNOWN = '7b0c5b2e-5d2a-4b43-9d59-6a1f0b7f5a11';

async function caseWith() {
  const h = harness({ rateLimit: null, allowLocalTargets: true, webhookCoalesceMs: 0 });
  const ws = await h.workspace();
  const other = await h.workspace();
  const hook = await ok(
    ws.api.post('/webhooks', { target_url: 'http://127.0.0.1:9/hook', event: '*' }),
    201,
  );
  const contact = await ok(ws.api.post('/contacts', { first_name: 'Case' }), 201);
  await ok(other.api.post('/contacts', { first_name: 'Elsewhere' }), 201);
  const mine = await ok(
    h.admin.post('/faults', { match: { workspace_id: ws.id }, action: { status: 503 }, times: 5 }),
    201,
  );
  const everyone = await ok(
    h.admin.post('/faults', { match: { path: '/v1/tasks' }, action: { delay_ms: 10 } }),
    201,
  );
  const theirs = await ok(
    h.admin.post('/faults', { match: { workspace_id: other.id }, action: { status: 500 } }),
    201,
  );
  return { h, ws, other, hook, contact, faults: { mine, everyone, theirs } };
}

describe('GET /__admin/workspaces/{id}/bundle', () => {
  test('holds the snapshot, the request log, the delivery log, the clock, faults and a manifest', async () => {
    const { h, ws, contact, faults } = await caseWith();
    const bundle = await ok(h.admin.get(`/workspaces/${ws.id}/bundle`));
    expect(Object.keys(bundle)[0]).toBe('format');
    expect(bundle).toMatchObject({ format: 'svc-bundle', version: 1 });
    expect(bundle.manifest).toMatchObject({
      interface_revision: '2.1.0',
      workspace_id: ws.id,
      counts: { faults: 2 },
    });
    expect(bundle.manifest.redacted.length).toBeGreaterThan(0);
    expect(Date.parse(bundle.clock.now)).toBeGreaterThan(0);
    expect(bundle.snapshot.collections.contacts.map((c: { id: string }) => c.id)).toContain(
      contact.id,
    );
    expect(bundle.requests.map((r: { path: string }) => r.path)).toContain('/v1/contacts');
    expect(bundle.requests.every((r: { workspace_id: string }) => r.workspace_id === ws.id)).toBe(
      true,
    );
    expect(bundle.deliveries.length).toBeGreaterThan(0);
    expect(bundle.snapshot.collections.deliveries).toBeUndefined();
    expect(bundle.faults.map((f: { id: string }) => f.id).sort()).toEqual(
      [faults.mine.id, faults.everyone.id].sort(),
    );
  });

  test('no secret leaves: keys only as hashes, the webhook secret replaced everywhere', async () => {
    const { h, ws, hook } = await caseWith();
    const text = (await h.admin.get(`/workspaces/${ws.id}/bundle`)).text;
    expect(text).not.toContain(ws.keys.write.key);
    expect(text).not.toContain(ws.keys.read.key);
    expect(hook.secret).toMatch(/^whsec_/);
    expect(text).not.toContain(hook.secret);
    const bundle = JSON.parse(text);
    const stored = bundle.snapshot.collections.webhooks[0].secrets[0].secret;
    expect(stored).toMatch(/^whsec_/);
    // the logged answer of POST /webhooks showed the secret: it is replaced by the same new one
    const logged = bundle.requests.find((r: { path: string }) => r.path === '/v1/webhooks');
    expect(logged.response_body).toContain(stored);
    expect(bundle.snapshot.keys[0].hash).toMatch(/^[0-9a-f]{64}$/);
    expect(bundle.snapshot.oauth.tokens).toEqual([]);
  });

  test("a job's portal link is a new one in the bundle, in its record and in the logged answers", async () => {
    const h = harness({ rateLimit: null });
    const ws = await h.workspace();
    const job = await ok(ws.api.post('/jobs', { name: 'Roof', address: '1 Elm St' }), 201);
    const token = String(job.portal_url).split('/portal/')[1] as string;
    const text = (await h.admin.get(`/workspaces/${ws.id}/bundle`)).text;
    expect(text).not.toContain(token);
    const bundle = JSON.parse(text);
    const kept = bundle.snapshot.collections.jobs[0].portal_token;
    const logged = bundle.requests.find((r: { path: string }) => r.path === '/v1/jobs');
    expect(logged.response_body).toContain(`/portal/${kept}`);
  });

  test("asked with the workspace's control token, it holds the faults limited to that workspace alone", async () => {
    const TOKEN = 'bundle-admin-token';
    const h = harness({ rateLimit: null, adminToken: TOKEN });
    const admin = { headers: { Authorization: `Bearer ${TOKEN}` } };
    const ws = await ok(h.admin.post('/workspaces', {}, admin), 201);
    const mine = await ok(
      h.admin.post('/faults', { match: { workspace_id: ws.id }, action: { status: 503 } }, admin),
      201,
    );
    const everyone = await ok(
      h.admin.post('/faults', { match: { path: '/v1/tasks' }, action: { delay_ms: 10 } }, admin),
      201,
    );
    const ids = (bundle: { faults: { id: string }[] }) => bundle.faults.map((f) => f.id).sort();
    const byToken = await ok(
      h.admin.get(`/workspaces/${ws.id}/bundle`, {
        headers: { Authorization: `Bearer ${ws.control_token}` },
      }),
    );
    expect(ids(byToken)).toEqual([mine.id]);
    const byAdmin = await ok(h.admin.get(`/workspaces/${ws.id}/bundle`, admin));
    expect(ids(byAdmin)).toEqual([mine.id, everyone.id].sort());
  });

  test('a spent fault is left out', async () => {
    const { h, ws, faults } = await caseWith();
    const once = await ok(
      h.admin.post('/faults', { match: { path: '/v1/ping' }, action: { status: 503 }, times: 1 }),
      201,
    );
    // The workspace's own fault is older and would fire first: another workspace spends this one.
    const third = await h.workspace();
    const res = await h.app.request('/v1/ping', {
      headers: { Authorization: `Bearer ${third.keys.write.key}` },
    });
    expect(res.status).toBe(503);
    const bundle = await ok(h.admin.get(`/workspaces/${ws.id}/bundle`));
    const ids = bundle.faults.map((f: { id: string }) => f.id);
    expect(ids).not.toContain(once.id);
    expect(ids).toContain(faults.mine.id);
  });

  test('an unknown workspace is 404 not_found', async () => {
    const h = harness();
    expectError(await h.admin.get(`/workspaces/${UNKNOWN}/bundle`), 404, 'not_found');
  });
});
