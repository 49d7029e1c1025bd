import { describe, expect, test } from 'vitest';
import { expectError, ok } from '../support/expect';
import { advance, connect, refreshWith, rig } from './setup';

// spec, Authentication 5 and Scope rule 1: an access token is a credential of one workspace,
// valid 3600 seconds, read only with scope=read.

const HOOK = 'http://127.0.0.1:9/hook';

describe('an access token on the API', () => {
  test('works as Authorization: Bearer; /ping names the app and the access', async () => {
    const r = await rig();
    const t = await connect(r, 'read');
    const ping = await ok(r.h.as(t.access_token).get('/ping'));
    expect(ping.workspace_id).toBe(r.ws.id);
    expect(ping.key).toEqual({ name: 'Roof Reports', access: 'read' });
  });

  test('with scope=write it may change data', async () => {
    const r = await rig();
    const t = await connect(r, 'write');
    await ok(r.h.as(t.access_token).post('/contacts', { name: 'Pat Doe' }), 201);
  });

  test('still works at 3599 s', async () => {
    const r = await rig();
    const t = await connect(r);
    await advance(r.h, 3599);
    expect((await r.h.as(t.access_token).get('/ping')).status).toBe(200);
  });

  test('is refused at 3601 s: 401 in the API envelope', async () => {
    const r = await rig();
    const t = await connect(r);
    await advance(r.h, 3601);
    expectError(await r.h.as(t.access_token).get('/ping'), 401, 'unauthorized');
  });

  test('an unknown svc_oat_ token: 401', async () => {
    const r = await rig();
    expectError(await r.h.as('svc_oat_unknown').get('/ping'), 401, 'unauthorized');
  });

  test('a refresh token is no access token: 401', async () => {
    const r = await rig();
    const t = await connect(r);
    expectError(await r.h.as(t.refresh_token).get('/ping'), 401, 'unauthorized');
  });

  test('scope=read may read but not write: 403 forbidden', async () => {
    const r = await rig();
    const t = await connect(r, 'read');
    const api = r.h.as(t.access_token);
    await ok(api.get('/contacts'));
    expectError(await api.post('/contacts', { name: 'Pat Doe' }), 403, 'forbidden');
  });

  test('scope=read may still subscribe to webhooks', async () => {
    const r = await rig();
    const t = await connect(r, 'read');
    await ok(
      r.h.as(t.access_token).post('/webhooks', { event: 'contact.created', target_url: HOOK }),
      201,
    );
  });

  test("sees only its workspace: another workspace's record is 404", async () => {
    const r = await rig();
    const other = await r.h.workspace({ name: 'Elsewhere' });
    const theirs = await ok(other.api.post('/contacts', { name: 'Not Yours' }), 201);
    const t = await connect(r);
    const api = r.h.as(t.access_token);
    expectError(await api.get(`/contacts/${theirs.id}`), 404, 'not_found');
    const mine = await ok(api.get('/contacts', { query: { limit: 200 } }));
    expect(mine.data.map((c: { id: string }) => c.id)).not.toContain(theirs.id);
  });

  test('the request log records its calls under the connection', async () => {
    const r = await rig();
    const t = await connect(r);
    await ok(r.h.as(t.access_token).get('/ping'));
    const [conn] = (await ok(r.h.admin.get(`/workspaces/${r.ws.id}/connections`))).data;
    const log = await ok(r.h.admin.get('/requests', { query: { key_id: conn.id } }));
    expect(log.data).toHaveLength(1);
    expect(log.data[0]).toMatchObject({
      path: '/v1/ping',
      status: 200,
      credential_kind: 'oauth_token',
      workspace_id: r.ws.id,
    });
  });

  test("a refreshed token's calls are logged under the same connection", async () => {
    const r = await rig();
    const t = await connect(r);
    const next = await ok(refreshWith(r, t.refresh_token));
    await ok(r.h.as(t.access_token).get('/ping'));
    await ok(r.h.as(next.access_token).get('/ping'));
    const [conn] = (await ok(r.h.admin.get(`/workspaces/${r.ws.id}/connections`))).data;
    const log = await ok(r.h.admin.get('/requests', { query: { key_id: conn.id } }));
    expect(log.data).toHaveLength(2);
  });
});
