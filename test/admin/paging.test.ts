import { randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import type { Harness, Json } from '../support/harness';
import { type Ctx, createJob, setup, subscribe } from '../webhooks/setup';

// decisions.md, Control API: the control API's lists page as the public ones do (spec,
// Pagination): limit 1 to 200, default 50, out of range 50, not an integer 400; cursor the
// next_cursor of the page before, one svc did not issue 400.

interface Listed {
  /** The list's path, once make() has given it three entries. */
  path: string;
  /** How the full list is ordered. */
  order: 'newest first' | 'oldest first';
}

/** Three notifications, as the worker writes them when it switches a subscription off. */
async function notify(h: Harness, workspaceId: string, count: number): Promise<void> {
  await h.rt.store.ensure(workspaceId); // on PostgreSQL, let go since its last request
  h.rt.store.transaction((tx) => {
    for (let i = 0; i < count; i++) {
      tx.workspace(workspaceId).put('notifications', {
        id: randomUUID(),
        object: 'notification',
        kind: 'webhook_disabled',
        webhook_id: randomUUID(),
        user_ids: [],
        message: `switched off ${i}`,
        created_at: new Date(Date.UTC(2026, 10, 1, 12, 0, i)).toISOString(),
      });
    }
  });
}

const lists: Record<string, (c: Ctx) => Promise<Listed>> = {
  'GET /__admin/workspaces': async (c) => {
    await c.h.workspace({ name: 'second' });
    await c.h.workspace({ name: 'third' });
    return { path: '/workspaces', order: 'oldest first' };
  },
  'GET /__admin/webhooks': async (c) => {
    for (const event of ['job.created', 'job.updated', 'contact.created']) {
      await subscribe(c, event);
    }
    return { path: '/webhooks', order: 'newest first' };
  },
  'GET /__admin/webhooks/{id}/deliveries': async (c) => {
    const hook = await subscribe(c, 'job.created');
    for (const name of ['a', 'b', 'c']) {
      await createJob(c.ws, name);
    }
    return { path: `/webhooks/${hook.id}/deliveries`, order: 'newest first' };
  },
  'GET /__admin/notifications': async (c) => {
    await notify(c.h, c.ws.id, 3);
    return { path: '/notifications', order: 'newest first' };
  },
};
const cases = Object.entries(lists);

const ids = (body: Json): string[] => body.data.map((item: { id: string }) => item.id);

describe('paging the control API', () => {
  test.each(cases)(
    '%s?limit=2 gives two, then its next_cursor the rest: the whole list once, in order',
    async (_name, make) => {
      const c = await setup();
      const { path, order } = await make(c);
      const whole = await c.h.admin.get(path, { query: { limit: 200 } });
      expect(whole.status).toBe(200);
      expect(whole.body).toMatchObject({ has_more: false, next_cursor: null });
      expect(whole.body.data).toHaveLength(3);
      const keys = whole.body.data.map((item: Json) => `${item.created_at}\u0000${item.id}`);
      if (order === 'newest first') {
        expect(keys).toEqual([...keys].sort().reverse());
      } else {
        // decisions.md, Seeding: workspaces are listed in the order they were made
        expect(whole.body.data.map((ws: Json) => ws.name).slice(1)).toEqual(['second', 'third']);
      }

      const first = await c.h.admin.get(path, { query: { limit: 2 } });
      expect(first.status).toBe(200);
      expect(first.body.data).toHaveLength(2);
      expect(first.body.has_more).toBe(true);
      expect(first.body.next_cursor).toEqual(expect.any(String));
      const rest = await c.h.admin.get(path, {
        query: { limit: 2, cursor: first.body.next_cursor },
      });
      expect(rest.status).toBe(200);
      expect(rest.body).toMatchObject({ has_more: false, next_cursor: null });
      expect([...ids(first.body), ...ids(rest.body)]).toEqual(ids(whole.body));
    },
  );

  test.each(cases)('%s: a limit that is not an integer is 400 field limit', async (_name, make) => {
    const c = await setup();
    const { path } = await make(c);
    for (const limit of ['abc', '2.5', '1e2']) {
      const res = await c.h.admin.get(path, { query: { limit }, invalid: true });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'limit' });
    }
  });

  test.each(cases)(
    '%s: a cursor svc did not issue for this list is 400 field cursor',
    async (_name, make) => {
      const c = await setup();
      const { path } = await make(c);
      const issued = (await c.h.admin.get(path, { query: { limit: 1 } })).body.next_cursor;
      // the request log's cursors are its own, and no other list's
      const other = path === '/workspaces' ? '/notifications' : '/workspaces';
      await notify(c.h, c.ws.id, 2);
      await c.h.workspace();
      const foreign = (await c.h.admin.get(other, { query: { limit: 1 } })).body.next_cursor;
      expect(foreign).toEqual(expect.any(String));
      for (const cursor of ['nonsense', `${issued}x`, `x${issued}`, foreign]) {
        const res = await c.h.admin.get(path, { query: { cursor } });
        expect([cursor, res.status]).toEqual([cursor, 400]);
        expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'cursor' });
      }
    },
  );

  test("a deliveries cursor of one subscription is 400 on another's log", async () => {
    const c = await setup();
    const a = await subscribe(c, 'job.created');
    const b = await subscribe(c, 'job.updated');
    await createJob(c.ws, 'a');
    await createJob(c.ws, 'b');
    const page = await c.h.admin.get(`/webhooks/${a.id}/deliveries`, { query: { limit: 1 } });
    expect(page.body.has_more).toBe(true);
    const res = await c.h.admin.get(`/webhooks/${b.id}/deliveries`, {
      query: { cursor: page.body.next_cursor },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.field).toBe('cursor');
  });

  test('a delivery log of 51 answers 50 by default, and 50 for a limit out of 1 to 200', async () => {
    const c = await setup();
    const hook = await subscribe(c, 'job.created');
    for (let i = 0; i < 51; i++) {
      await createJob(c.ws, `job ${i}`);
    }
    const path = `/webhooks/${hook.id}/deliveries`;
    const queries: Record<string, string | number>[] = [
      {},
      { limit: 0 },
      { limit: 201 },
      { limit: -3 },
      { limit: '' },
    ];
    for (const query of queries) {
      const res = await c.h.admin.get(path, { query });
      expect(res.status).toBe(200);
      expect([query, res.body.data.length, res.body.has_more]).toEqual([query, 50, true]);
    }
    const all = await c.h.admin.get(path, { query: { limit: 200 } });
    expect(all.body.data).toHaveLength(51);
    expect(all.body.has_more).toBe(false);
  });

  test('filters and paging go together: workspace_id narrows the webhooks and notifications', async () => {
    const c = await setup();
    const other = await c.h.workspace();
    await notify(c.h, c.ws.id, 3);
    await notify(c.h, other.id, 2);
    const page = await c.h.admin.get('/notifications', {
      query: { workspace_id: c.ws.id, limit: 2 },
    });
    expect(page.body.data.map((n: Json) => n.workspace_id)).toEqual([c.ws.id, c.ws.id]);
    const rest = await c.h.admin.get('/notifications', {
      query: { workspace_id: c.ws.id, limit: 2, cursor: page.body.next_cursor },
    });
    expect(rest.body.data.map((n: Json) => n.workspace_id)).toEqual([c.ws.id]);
    expect(rest.body).toMatchObject({ has_more: false, next_cursor: null });
  });
});
