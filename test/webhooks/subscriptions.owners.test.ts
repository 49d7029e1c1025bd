// Who a subscription belongs to: the credential that made it lists, reads and (with full access)
// deletes it; revoking the key switches it off; a workspace holds at most 500. spec: Authentication 3–4.
import { describe, expect, test } from 'vitest';
import { expectError } from '../support/expect';
import type { Harness, Json, TestWorkspace } from '../support/harness';
import { walkPages } from '../support/pages';
import {
  advance,
  app,
  createWebhook,
  fresh,
  hook,
  ISO,
  idsOf,
  listIds,
  SPEC_EVENTS,
} from './setup';

const HOOK = hook('svc');

/** A uuid no workspace holds. */
const UNKNOWN = '7b0c5b2e-5d2a-4b43-9d59-6a1f0b7f5a11';

/** Every subscription of `ws` as the control API lists them, page after page. */
const adminHooks = async (h: Harness, ws: TestWorkspace): Promise<Json[]> =>
  (await walkPages(h.admin, '/webhooks', { workspace_id: ws.id, limit: 200 })).data;

describe('a subscription belongs to the credential that made it', () => {
  test('a read-only key may subscribe, list and read its own subscriptions', async () => {
    const { ws } = await fresh();
    const created = await createWebhook(ws.read, { event: 'job.created', target_url: HOOK });
    expect(created.secret).toMatch(/^whsec_/);
    const group = await createWebhook(ws.read, {
      events: ['contact.created', 'task.created'],
      target_url: HOOK,
    });
    expect(group.data).toHaveLength(2);
    expect((await listIds(ws.read)).sort()).toEqual(
      [created.id, ...group.data.map((w: { id: string }) => w.id)].sort(),
    );
    const got = await ws.read.get(`/webhooks/${created.id}`);
    expect(got.status).toBe(200);
    expect(got.body.id).toBe(created.id);
  });

  // spec, Authentication 3: read only is "read and subscribe to webhooks; any other write
  // answers 403 forbidden"; Endpoints: "Write operations with a read-only credential answer 403".
  test('a read-only key deleting its own subscription is 403 forbidden, and the subscription stays', async () => {
    const { ws } = await fresh();
    const created = await createWebhook(ws.read, { event: 'job.created', target_url: HOOK });
    expectError(await ws.read.delete(`/webhooks/${created.id}`), 403, 'forbidden');
    expect(await listIds(ws.read)).toContain(created.id);
    expect((await ws.read.get(`/webhooks/${created.id}`)).body.disabled_at).toBeNull();
  });

  test("the write key does not see the read key's subscriptions, and the other way round", async () => {
    const { ws } = await fresh();
    const mine = await createWebhook(ws.api, { event: 'job.created', target_url: hook('w') });
    const theirs = await createWebhook(ws.read, { event: 'job.created', target_url: hook('r') });

    expect(await listIds(ws.api)).toEqual([mine.id]);
    expect(await listIds(ws.read)).toEqual([theirs.id]);

    for (const [client, id] of [
      [ws.api, theirs.id],
      [ws.read, mine.id],
    ] as const) {
      const get = await client.get(`/webhooks/${id}`);
      expect(get.status).toBe(404);
      expect(get.body.error.code).toBe('not_found');
    }
    // The write key may delete, but not what it cannot see; the read key deletes nothing (403).
    expectError(await ws.api.delete(`/webhooks/${theirs.id}`), 404, 'not_found');
    expectError(await ws.read.delete(`/webhooks/${mine.id}`), 403, 'forbidden');
    // the refused deletes removed nothing
    expect((await ws.api.get(`/webhooks/${mine.id}`)).status).toBe(200);
    expect((await ws.read.get(`/webhooks/${theirs.id}`)).status).toBe(200);
  });

  test("a second full-access key of the workspace does not see the first key's subscriptions", async () => {
    const { h, ws } = await fresh();
    const minted = await h.admin.post(`/workspaces/${ws.id}/keys`, { access: 'write' });
    expect(minted.status, minted.text).toBe(201);
    const second = h.as(minted.body.key);
    const mine = await createWebhook(ws.api, { event: 'job.created', target_url: HOOK });
    expect(await listIds(second)).toEqual([]);
    expect((await second.get(`/webhooks/${mine.id}`)).status).toBe(404);
    expect((await second.delete(`/webhooks/${mine.id}`)).status).toBe(404);
  });

  test("another workspace's subscription id is 404 on GET and DELETE", async () => {
    const { ws } = await fresh();
    const other = await app().workspace({ profile: 'empty' });
    const theirs = await createWebhook(other.api, { event: 'job.created', target_url: HOOK });
    const get = await ws.api.get(`/webhooks/${theirs.id}`);
    expect(get.status).toBe(404);
    expect(get.body.error.code).toBe('not_found');
    const del = await ws.api.delete(`/webhooks/${theirs.id}`);
    expect(del.status).toBe(404);
    expect(del.body.error.code).toBe('not_found');
    expect(await listIds(ws.api)).toEqual([]);
    expect(await listIds(other.api)).toEqual([theirs.id]);
  });
});

describe('GET and DELETE /webhooks', () => {
  test('GET /webhooks lists the caller’s subscriptions newest first, as a whole list', async () => {
    const { h, ws } = await fresh();
    const a = await createWebhook(ws.api, { event: 'job.created', target_url: hook('a') });
    await advance(h, 1);
    const b = await createWebhook(ws.api, { event: '*', target_url: hook('b') });
    await advance(h, 1);
    const c = await createWebhook(ws.api, { event: 'note.created', target_url: hook('c') });
    await createWebhook(ws.read, { event: 'job.created', target_url: hook('read') });
    const res = await ws.api.get('/webhooks');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(idsOf(res)).toEqual([c.id, b.id, a.id]);
    for (const w of res.body.data) {
      expect(w.object).toBe('webhook');
      expect(w).not.toHaveProperty('secret');
    }
  });

  test('GET /webhooks of a key with none is an empty list', async () => {
    const { ws } = await fresh();
    const res = await ws.api.get('/webhooks');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ object: 'list', data: [], has_more: false, next_cursor: null });
  });

  test('GET /webhooks/{id} never shows the secret', async () => {
    const { ws } = await fresh();
    const created = await createWebhook(ws.api, { event: 'job.created', target_url: HOOK });
    const res = await ws.api.get(`/webhooks/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('secret');
    expect(res.text).not.toContain(created.secret);
    const list = await ws.api.get('/webhooks');
    expect(list.text).not.toContain(created.secret);
  });

  test('DELETE answers the deleted confirmation; then GET and DELETE are 404', async () => {
    const { ws } = await fresh();
    const keep = await createWebhook(ws.api, { event: 'job.updated', target_url: HOOK });
    const created = await createWebhook(ws.api, { event: 'job.created', target_url: HOOK });
    const res = await ws.api.delete(`/webhooks/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: created.id, object: 'webhook', deleted: true });

    const get = await ws.api.get(`/webhooks/${created.id}`);
    expect(get.status).toBe(404);
    expect(get.body.error.code).toBe('not_found');
    const again = await ws.api.delete(`/webhooks/${created.id}`);
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('not_found');
    expect(await listIds(ws.api)).toEqual([keep.id]);
  });

  test('deleting one subscription of an events group leaves the others', async () => {
    const { ws } = await fresh();
    const group = await createWebhook(ws.api, {
      events: ['job.created', 'job.deleted'],
      target_url: HOOK,
    });
    const [first, second] = group.data as Json[];
    expect((await ws.api.delete(`/webhooks/${first.id}`)).status).toBe(200);
    expect(await listIds(ws.api)).toEqual([second.id]);
  });

  test.each([['not-a-uuid'], ['12345'], ['7b0c5b2e-5d2a-4b43-9d59-6a1f0b7f5a1']])(
    'an id that is not a uuid (%s) names no subscription: 404 on GET and DELETE',
    async (id) => {
      const { ws } = await fresh();
      for (const res of [
        await ws.api.get(`/webhooks/${id}`, { invalid: true }),
        await ws.api.delete(`/webhooks/${id}`, { invalid: true }),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body.error).toMatchObject({ code: 'not_found' });
      }
    },
  );

  test('an unknown uuid is 404 on GET and DELETE', async () => {
    const { ws } = await fresh();
    expect((await ws.api.get(`/webhooks/${UNKNOWN}`)).status).toBe(404);
    expect((await ws.api.delete(`/webhooks/${UNKNOWN}`)).status).toBe(404);
  });
});

describe('revoking a key switches off the webhooks it created', () => {
  test('DELETE /__admin/keys/{id} sets disabled_at on that key’s webhooks only', async () => {
    const { h, ws } = await fresh();
    const other = await app().workspace({ profile: 'empty' });
    const single = await createWebhook(ws.api, { event: 'job.created', target_url: hook('w1') });
    const group = await createWebhook(ws.api, {
      events: ['contact.created', 'task.created'],
      target_url: hook('w2'),
    });
    const readOwn = await createWebhook(ws.read, { event: 'job.created', target_url: hook('r') });
    const elsewhere = await createWebhook(other.api, {
      event: 'job.created',
      target_url: hook('o'),
    });
    const writeIds = [single.id, ...group.data.map((w: { id: string }) => w.id)];

    const before = await adminHooks(h, ws);
    expect(before).toHaveLength(4);
    for (const w of before) {
      expect(w).toMatchObject({
        object: 'webhook',
        workspace_id: ws.id,
        disabled_at: null,
        consecutive_failures: 0,
        active_secrets: 1,
      });
      expect(w.credential_id).toBe(writeIds.includes(w.id) ? ws.keys.write.id : ws.keys.read.id);
    }

    await advance(h, 60);
    const revoked = await h.admin.delete(`/keys/${ws.keys.write.id}`);
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.body.revoked_at).toMatch(ISO);

    const after = await adminHooks(h, ws);
    expect(after).toHaveLength(4);
    for (const w of after) {
      if (writeIds.includes(w.id)) {
        expect(w.disabled_at).toBe(revoked.body.revoked_at);
      } else {
        expect(w.id).toBe(readOwn.id);
        expect(w.disabled_at).toBeNull();
      }
    }
    // the read key goes on, its subscription on
    const readView = await ws.read.get(`/webhooks/${readOwn.id}`);
    expect(readView.status).toBe(200);
    expect(readView.body.disabled_at).toBeNull();
    // the revoked key is refused
    expect((await ws.api.get('/webhooks')).status).toBe(401);
    // another workspace is untouched
    const theirs = await adminHooks(h, other);
    expect(theirs.map((w) => [w.id, w.disabled_at])).toEqual([[elsewhere.id, null]]);
  });

  test('revoking the read key switches off its webhooks and not the write key’s', async () => {
    const { h, ws } = await fresh();
    const mine = await createWebhook(ws.api, { event: '*', target_url: hook('w') });
    const theirs = await createWebhook(ws.read, { event: '*', target_url: hook('r') });
    const revoked = await h.admin.delete(`/keys/${ws.keys.read.id}`);
    expect(revoked.status).toBe(200);
    const byId = new Map((await adminHooks(h, ws)).map((w) => [w.id, w]));
    expect(byId.get(theirs.id)?.disabled_at).toBe(revoked.body.revoked_at);
    expect(byId.get(mine.id)?.disabled_at).toBeNull();
    expect((await ws.api.get(`/webhooks/${mine.id}`)).body.disabled_at).toBeNull();
  });

  test('revoking again leaves disabled_at as the first revocation set it', async () => {
    const { h, ws } = await fresh();
    const mine = await createWebhook(ws.read, { event: 'job.created', target_url: HOOK });
    const first = await h.admin.delete(`/keys/${ws.keys.read.id}`);
    await advance(h, 60);
    const second = await h.admin.delete(`/keys/${ws.keys.read.id}`);
    expect(second.status).toBe(200);
    expect(second.body.revoked_at).toBe(first.body.revoked_at);
    const [w] = await adminHooks(h, ws);
    expect(w.id).toBe(mine.id);
    expect(w.disabled_at).toBe(first.body.revoked_at);
  });
});

describe('a workspace holds at most 500 subscriptions (decisions.md)', () => {
  test('the 501st is 400 invalid_request with no field; repeats still answer; keys share the ceiling', async () => {
    const { h, ws } = await fresh('empty');
    // 16 groups of all 30 events: 480 subscriptions.
    for (let i = 0; i < 16; i++) {
      await createWebhook(ws.api, { events: SPEC_EVENTS, target_url: hook(`g${i}`) });
    }
    expect(await adminHooks(h, ws)).toHaveLength(480);

    // A group that would pass the ceiling is refused whole.
    const over = await ws.api.post('/webhooks', { events: SPEC_EVENTS, target_url: hook('over') });
    expect(over.status).toBe(400);
    expect(over.body.error.code).toBe('invalid_request');
    expect(over.body.error).not.toHaveProperty('field');
    expect(await adminHooks(h, ws)).toHaveLength(480);

    // 19 more by the write key, the 500th by the read key.
    await createWebhook(ws.api, { events: SPEC_EVENTS.slice(0, 19), target_url: hook('tail') });
    await createWebhook(ws.read, { event: 'job.created', target_url: hook('read') });
    expect(await adminHooks(h, ws)).toHaveLength(500);

    for (const client of [ws.api, ws.read]) {
      const res = await client.post('/webhooks', { event: 'job.created', target_url: hook('501') });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
      expect(res.body.error).not.toHaveProperty('field');
    }
    expect(await adminHooks(h, ws)).toHaveLength(500);

    // A repeat creates nothing, so it is still answered.
    const repeat = await ws.api.post('/webhooks', { events: SPEC_EVENTS, target_url: hook('g0') });
    expect(repeat.status).toBe(200);
    expect(repeat.body.data).toHaveLength(30);

    // Deleting one makes room for one.
    const firstId = (await listIds(ws.api))[0] as string;
    expect((await ws.api.delete(`/webhooks/${firstId}`)).status).toBe(200);
    await createWebhook(ws.api, { event: 'job.created', target_url: hook('501') });
    expect(await adminHooks(h, ws)).toHaveLength(500);
  });
});
