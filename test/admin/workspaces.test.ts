import { describe, expect, test } from 'vitest';
import { harness } from '../support/harness';

describe('POST /__admin/workspaces', () => {
  test('creates a workspace with a write key and a read-only key', async () => {
    const h = harness();
    const res = await h.admin.post('/workspaces', { name: 'Admin Roofing' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'Admin Roofing', keys: { write: {}, read: {} } });
    const write = await h.as(res.body.keys.write.key).get('/ping');
    expect(write.body).toMatchObject({ workspace_id: res.body.id, key: { access: 'write' } });
    const read = await h.as(res.body.keys.read.key).get('/ping');
    expect(read.body.key.access).toBe('read');
  });

  test('a JSON body whose bytes are not UTF-8 is 400 invalid_request, and makes no workspace', async () => {
    const h = harness();
    const before = (await h.admin.get('/workspaces')).body.data.length;
    const body = Buffer.concat([
      Buffer.from('{"name":"bad '),
      Buffer.from([0xff]),
      Buffer.from('"}'),
    ]);
    const res = await h.admin.raw('POST', '/workspaces', {
      body,
      headers: { 'Content-Type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect((await h.admin.get('/workspaces')).body.data).toHaveLength(before);
    const empty = await h.admin.raw('POST', '/workspaces', {
      body: '',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(empty.status).toBe(201); // an empty JSON body is still no body
  });

  test('the empty profile has an owner, both pipelines and templates', async () => {
    const h = harness();
    const ws = await h.workspace({ profile: 'empty' });
    const users = (await ws.api.get('/users')).body.data;
    expect(users.map((u: { role: string }) => u.role)).toEqual(['owner']);
    expect((await ws.api.get('/pipelines')).body.data).toHaveLength(2);
    expect((await ws.api.get('/estimate_templates')).body.data.length).toBeGreaterThan(0);
  });

  test('profiles grow the team: demo has more people than small', async () => {
    const h = harness();
    const small = (await (await h.workspace({ profile: 'small' })).api.get('/users')).body.data;
    const demo = (await (await h.workspace({ profile: 'demo' })).api.get('/users')).body.data;
    expect(small.length).toBeGreaterThan(1);
    expect(demo.length).toBeGreaterThan(small.length);
    expect(demo.map((u: { role: string }) => u.role)).toContain('admin');
  });

  test('one seed gives the same content twice, under different ids', async () => {
    const h = harness();
    const a = await h.workspace({ profile: 'small', seed: 42 });
    const b = await h.workspace({ profile: 'small', seed: 42 });
    expect(a.name).toBe(b.name);
    expect(a.id).not.toBe(b.id);
    const people = async (ws: typeof a) => (await ws.api.get('/users')).body.data;
    const [pa, pb] = [await people(a), await people(b)];
    expect(pa.map((u: { name: string }) => u.name)).toEqual(
      pb.map((u: { name: string }) => u.name),
    );
    expect(pa.map((u: { id: string }) => u.id)).not.toEqual(pb.map((u: { id: string }) => u.id));
    const stagesA = (await a.api.get('/stages')).body.data;
    expect(stagesA.every((s: { pipeline_id: string }) => s.pipeline_id !== undefined)).toBe(true);
    const pipelineIds = new Set(
      (await a.api.get('/pipelines')).body.data.map((p: { id: string }) => p.id),
    );
    expect(stagesA.every((s: { pipeline_id: string }) => pipelineIds.has(s.pipeline_id))).toBe(
      true,
    );
  });

  test.each([
    [{ profile: 'galactic' }, 'profile'],
    [{ profile: 'large' }, 'profile'],
    [{ seed: -1 }, 'seed'],
    [{ seed: 1.5 }, 'seed'],
    [{ name: '' }, 'name'],
    [{ name: 'x'.repeat(201) }, 'name'],
    [{ subscription_active: 'yes' }, 'subscription_active'],
  ])('%j is 400 naming %s', async (body, field) => {
    const h = harness();
    const res = await h.admin.post('/workspaces', body, { invalid: true });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field });
    expect((await h.admin.get('/workspaces')).body.data).toEqual([]);
  });
});

describe('GET and PATCH /__admin/workspaces', () => {
  test('lists every workspace with its keys, never the keys themselves', async () => {
    const h = harness();
    const a = await h.workspace({ name: 'A' });
    const b = await h.workspace({ name: 'B' });
    const res = await h.admin.get('/workspaces');
    expect(res.body.data.map((w: { name: string }) => w.name)).toEqual(['A', 'B']);
    expect(res.body.data[0].keys.map((k: { access: string }) => k.access).sort()).toEqual([
      'read',
      'write',
    ]);
    expect(res.text).not.toContain(a.keys.write.key);
    expect(res.text).not.toContain(b.keys.read.key);
    expect((await h.admin.get(`/workspaces/${b.id}`)).body.name).toBe('B');
  });

  test('an unknown workspace is 404 not_found', async () => {
    const h = harness();
    const id = '7b0c5b2e-5d2a-4b43-9d59-6a1f0b7f5a11';
    for (const res of [
      await h.admin.get(`/workspaces/${id}`),
      await h.admin.patch(`/workspaces/${id}`, { subscription_active: true }),
      await h.admin.post(`/workspaces/${id}/keys`, { access: 'read' }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
  });

  test('PATCH subscription_active turns the plan off and on', async () => {
    const h = harness();
    const ws = await h.workspace();
    const off = await h.admin.patch(`/workspaces/${ws.id}`, { subscription_active: false });
    expect(off.body.subscription_active).toBe(false);
    expect((await ws.api.get('/ping')).status).toBe(402);
    const bad = await h.admin.patch(
      `/workspaces/${ws.id}`,
      { subscription_active: 'no' },
      { invalid: true },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error.field).toBe('subscription_active');
  });
});

describe('keys', () => {
  test('POST /__admin/workspaces/{id}/keys mints a key of the access asked for', async () => {
    const h = harness();
    const ws = await h.workspace();
    const res = await h.admin.post(`/workspaces/${ws.id}/keys`, { name: 'CI', access: 'read' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ access: 'read' });
    expect(res.body.key).toMatch(/^svc_live_/);
    const ping = await h.as(res.body.key, 'x-api-key').get('/ping');
    expect(ping.body.key).toEqual({ name: 'CI', access: 'read' });
  });

  test('access is required and must be write or read', async () => {
    const h = harness();
    const ws = await h.workspace();
    for (const body of [{}, { access: 'admin' }]) {
      const res = await h.admin.post(`/workspaces/${ws.id}/keys`, body, { invalid: true });
      expect(res.status).toBe(400);
      expect(res.body.error.field).toBe('access');
    }
  });

  test('DELETE /__admin/keys/{id} revokes; again is harmless; an unknown key is 404', async () => {
    const h = harness();
    const ws = await h.workspace();
    const first = await h.admin.delete(`/keys/${ws.keys.read.id}`);
    const second = await h.admin.delete(`/keys/${ws.keys.read.id}`);
    expect(second.body.revoked_at).toBe(first.body.revoked_at);
    expect((await ws.read.get('/ping')).status).toBe(401);
    const unknown = await h.admin.delete('/keys/7b0c5b2e-5d2a-4b43-9d59-6a1f0b7f5a11');
    expect(unknown.status).toBe(404);
  });

  test('a path id that is not a uuid names nothing: 404 not_found', async () => {
    const h = harness();
    const res = await h.admin.delete('/keys/not-a-uuid', { invalid: true });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });

  test('an id in upper case names the same workspace', async () => {
    const h = harness();
    const created = await h.admin.post('/workspaces', { name: 'Upper' });
    const res = await h.admin.patch(`/workspaces/${created.body.id.toUpperCase()}`, {
      subscription_active: false,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.id).toBe(created.body.id);
  });
});
