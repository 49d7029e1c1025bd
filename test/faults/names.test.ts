import { describe, expect, test } from 'vitest';
import { connect, rig } from '../oauth/setup';

// decisions.md, Faults: a fault naming a workspace or credential svc does not have could never
// fire; it is refused 400 naming the field, as DESIGN answers a record named in a body that is
// not there.

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('POST /__admin/faults: the workspace and credential named', () => {
  test.each([
    [{ workspace_id: UNKNOWN }, 'match.workspace_id'],
    [{ workspace_id: 'not-an-id' }, 'match.workspace_id'],
    [{ target: 'http://127.0.0.1:9/', workspace_id: UNKNOWN }, 'match.workspace_id'],
    [{ key_id: UNKNOWN }, 'match.key_id'],
    [{ key_id: 'not-an-id' }, 'match.key_id'],
  ])(
    'naming nothing, %j is 400 invalid_request, field %s, and nothing is stored',
    async (match, field) => {
      const { h } = await rig();
      const res = await h.admin.post('/faults', { match, action: { status: 500 } });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', field });
      expect((await h.admin.get('/faults')).body.data).toEqual([]);
    },
  );

  test('a key of another workspace than match.workspace_id is 400, field match.key_id', async () => {
    const { h, ws } = await rig();
    const other = await h.workspace({ profile: 'empty' });
    const res = await h.admin.post('/faults', {
      match: { workspace_id: ws.id, key_id: other.keys.write.id },
      action: { status: 500 },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'match.key_id' });
    expect(res.body.error.message).toMatch(/another workspace/);
  });

  test('a revoked key is 400, field match.key_id: its calls are refused before any fault', async () => {
    const { h, ws } = await rig();
    expect((await h.admin.delete(`/keys/${ws.keys.read.id}`)).status).toBe(200);
    const res = await h.admin.post('/faults', {
      match: { key_id: ws.keys.read.id },
      action: { status: 500 },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'match.key_id' });
    expect(res.body.error.message).toMatch(/revoked/);
  });

  test('ids that exist are taken in any case, the key with its own workspace', async () => {
    const { h, ws } = await rig();
    const res = await h.admin.post('/faults', {
      match: { workspace_id: ws.id.toUpperCase(), key_id: ws.keys.write.id.toUpperCase() },
      action: { status: 500 },
      times: 1,
    });
    expect(res.status).toBe(201);
    expect((await ws.api.get('/jobs')).status).toBe(500);
    await h.admin.delete('/faults');
  });

  test("an OAuth connection's id is a key_id: the fault hits its tokens' calls", async () => {
    const r = await rig();
    const tokens = await connect(r);
    const connections = await r.h.admin.get(`/workspaces/${r.ws.id}/connections`);
    const connectionId: string = connections.body.data[0].id;
    const res = await r.h.admin.post('/faults', {
      match: { key_id: connectionId },
      action: { status: 503 },
      times: 1,
    });
    expect(res.status).toBe(201);
    const call = await r.h.app.request('/v1/jobs', {
      headers: { Authorization: `Bearer ${tokens.access_token}` },
    });
    expect(call.status).toBe(503);
    expect((await r.ws.api.get('/jobs')).status).toBe(200);
    await r.h.admin.delete('/faults');
  });
});
