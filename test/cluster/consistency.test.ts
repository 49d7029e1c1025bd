import { describe, expect, test } from 'vitest';
import { ADMIN_TOKEN, nodesForFile } from '../support/nodes';
import { pgAvailable } from '../support/pg';
import { http } from '../support/spawn';

// Issue 40: two svc nodes serve one PostgreSQL schema; any node answers any call, and what one
// node acknowledged is what the next request sees on the other.

const JOB = { name: 'Across nodes', address: '1 Main St', city: 'Dallas', state: 'TX' };

describe.skipIf(!pgAvailable)('any node answers any call', () => {
  // The rate limit across nodes is rules.test.ts's: here, many calls with one key.
  const nodes = nodesForFile('nodes_consistency', ['--rate-limit', 'off']);
  const { admin } = nodes;

  test('each answer names the node that gave it, the health probe included, and the two nodes are two', async () => {
    const [a, b] = nodes.urls();
    const one = await http(`${a}/v1/ping`, { key: nodes.n.keys.read });
    const two = await http(`${b}/v1/ping`, { key: nodes.n.keys.read });
    expect([one.status, two.status]).toEqual([200, 200]);
    expect(one.headers.get('x-svc-node')).toBe('node-0');
    expect(two.headers.get('x-svc-node')).toBe('node-1');
    // The health probe a load balancer sends too, which no other layer answers.
    for (const [url, name] of [
      [a, 'node-0'],
      [b, 'node-1'],
    ]) {
      const probe = await fetch(`${url}/__health`);
      expect([probe.status, probe.headers.get('x-svc-node')]).toEqual([200, name]);
    }
  });

  test('a write acknowledged by one node is read by the next request on the other, every kind', async () => {
    const [a, b] = nodes.urls();
    const key = nodes.n.keys.write;
    const made = await http(`${a}/v1/jobs`, { method: 'POST', key, body: JOB });
    expect(made.status).toBe(201);
    expect((await http(`${b}/v1/jobs/${made.body.id}`, { key })).body.name).toBe('Across nodes');
    const renamed = await http(`${b}/v1/jobs/${made.body.id}`, {
      method: 'PATCH',
      key,
      body: { name: 'Renamed on b' },
    });
    expect(renamed.status).toBe(200);
    expect((await http(`${a}/v1/jobs/${made.body.id}`, { key })).body.name).toBe('Renamed on b');
    const note = await http(`${a}/v1/notes`, {
      method: 'POST',
      key,
      body: { job_id: made.body.id, content: 'seen on both' },
    });
    expect(note.status).toBe(201);
    const notes = await http(`${b}/v1/jobs/${made.body.id}/notes`, { key });
    expect(notes.body.data.map((x: { id: string }) => x.id)).toContain(note.body.id);
    expect((await http(`${b}/v1/jobs/${made.body.id}`, { method: 'DELETE', key })).status).toBe(
      200,
    );
    expect((await http(`${a}/v1/jobs/${made.body.id}`, { key })).status).toBe(404);
  });

  test('writes to one workspace sent to both nodes at once are all kept, each number once', async () => {
    const key = nodes.n.keys.write;
    const urls = nodes.urls();
    const made = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        http(`${urls[i % 2]}/v1/jobs`, {
          method: 'POST',
          key,
          body: { ...JOB, name: `Race ${i}` },
        }),
      ),
    );
    expect(made.map((r) => [r.status, r.body.error?.message])).toEqual(
      made.map(() => [201, undefined]),
    );
    const numbers = new Set(made.map((r) => r.body.job_number));
    expect(numbers.size).toBe(40);
    for (const url of urls) {
      const found = await Promise.all(
        made.map((r) => http(`${url}/v1/jobs/${r.body.id}`, { key })),
      );
      expect(found.map((r) => [r.status, r.body.error?.message])).toEqual(
        found.map(() => [200, undefined]),
      );
    }
  });

  test('a cursor issued by one node pages on the other', async () => {
    const [a, b] = nodes.urls();
    const first = await http(`${a}/v1/jobs?limit=2`, { key: nodes.n.keys.read });
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const next = await http(`${b}/v1/jobs?limit=2&cursor=${first.body.next_cursor}`, {
      key: nodes.n.keys.read,
    });
    expect(next.status).toBe(200);
    expect(next.body.data[0].id).not.toBe(first.body.data[0].id);
  });

  test('a workspace and key made on one node work on the other; revoked there, refused on the first', async () => {
    const [a, b] = nodes.urls();
    const ws = await admin(a, '/workspaces', 'POST', { name: 'Made on a', profile: 'empty' });
    expect(ws.status).toBe(201);
    const key = ws.body.keys.write.key;
    expect((await http(`${b}/v1/ping`, { key })).status).toBe(200);
    const extra = await admin(b, `/workspaces/${ws.body.id}/keys`, 'POST', { access: 'read' });
    expect(extra.status).toBe(201);
    expect((await http(`${a}/v1/ping`, { key: extra.body.key })).body.key.access).toBe('read');
    expect((await admin(b, `/keys/${ws.body.keys.write.id}`, 'DELETE')).status).toBe(200);
    expect((await http(`${a}/v1/ping`, { key })).status).toBe(401);
    expect((await admin(a, `/workspaces/${ws.body.id}`, 'DELETE')).status).toBe(200);
    expect((await http(`${b}/v1/ping`, { key: extra.body.key })).status).toBe(401);
  });

  test('a control token made on one node reaches its workspace on the other', async () => {
    const [a, b] = nodes.urls();
    const ws = await admin(a, '/workspaces', 'POST', { name: 'Tokened', profile: 'empty' });
    const token = ws.body.control_token;
    expect(token).toMatch(/^svc_ctl_/);
    const own = await http(`${b}/__admin/workspaces/${ws.body.id}`, { key: token });
    expect(own.status).toBe(200);
    const demo = (await admin(a, '/workspaces')).body.data.find(
      (w: { name: string }) => w.name === 'Summit Exteriors',
    );
    const other = await http(`${b}/__admin/workspaces/${demo.id}`, { key: token });
    expect([403, 404]).toContain(other.status);
  });

  test("a workspace's clock moved on one node is where the other says it is", async () => {
    const [a, b] = nodes.urls();
    const ws = await admin(a, '/workspaces', 'POST', { name: 'Clocked', profile: 'empty' });
    const moved = await admin(a, `/workspaces/${ws.body.id}/clock`, 'POST', {
      advance_seconds: 86_400,
    });
    expect(moved.status).toBe(200);
    const there = await admin(b, `/workspaces/${ws.body.id}/clock`);
    expect(Math.abs(Date.parse(there.body.now) - Date.parse(moved.body.now))).toBeLessThan(5_000);
  });

  test("the server's clock moved on one node is where the other says it is", async () => {
    const [a, b] = nodes.urls();
    const before = await admin(b, '/clock');
    const moved = await admin(a, '/clock', 'POST', { advance_seconds: 3600 });
    expect(moved.status).toBe(200);
    const there = await admin(b, '/clock');
    expect(Date.parse(there.body.now) - Date.parse(before.body.now)).toBeGreaterThanOrEqual(
      3_600_000,
    );
    expect(Math.abs(Date.parse(there.body.now) - Date.parse(moved.body.now))).toBeLessThan(5_000);
  });

  test("the request log is one: every node's calls are in /__admin/requests on either node", async () => {
    const [a, b] = nodes.urls();
    const onA = await http(`${a}/v1/jobs?limit=1`, { key: nodes.n.keys.read });
    const onB = await http(`${b}/v1/contacts?limit=1`, { key: nodes.n.keys.read });
    const ids = [onA, onB].map((r) => r.headers.get('x-request-id'));
    for (const url of [a, b]) {
      const logged = await admin(url, '/requests?limit=50');
      expect(logged.status).toBe(200);
      const seen = logged.body.data.map((e: { request_id: string }) => e.request_id);
      expect(seen).toEqual(expect.arrayContaining(ids));
      // Each says which node answered it.
      const nodes = logged.body.data
        .filter((e: { request_id: string }) => ids.includes(e.request_id))
        .map((e: { node: string }) => e.node)
        .sort();
      expect(nodes).toEqual(['node-0', 'node-1']);
    }
  });

  test("the live request page on one node shows the other node's calls as they come", async () => {
    const [a, b] = nodes.urls();
    // Signed in on the other node: the session is the admin token's, valid on every node.
    const signedIn = await fetch(`${b}/sign-in`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: ADMIN_TOKEN, next: '/inspector' }).toString(),
      redirect: 'manual',
    });
    expect(signedIn.status).toBe(303);
    const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const controller = new AbortController();
    const stream = await fetch(`${a}/inspector/requests/stream`, {
      headers: { Cookie: cookie, Accept: 'text/event-stream' },
      signal: controller.signal,
    });
    expect(stream.status).toBe(200);
    const reader = stream.body?.getReader();
    // A path of its own (a job no one has: 404, logged all the same), to find its row by.
    const id = '0badc0de-0000-4000-8000-00000000c0de';
    expect((await http(`${b}/v1/jobs/${id}`, { key: nodes.n.keys.read })).status).toBe(404);
    let text = '';
    const deadline = Date.now() + 5_000;
    while (!text.includes(id) && Date.now() < deadline && reader) {
      const chunk = await Promise.race([
        reader.read(),
        new Promise<{ value: undefined }>((r) => setTimeout(() => r({ value: undefined }), 500)),
      ]);
      text += chunk.value ? new TextDecoder().decode(chunk.value) : '';
    }
    controller.abort();
    expect(text).toContain(id);
  });
});
