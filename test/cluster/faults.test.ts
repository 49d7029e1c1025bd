import { describe, expect, test } from 'vitest';
import { nodesForFile } from '../support/nodes';
import { pgAvailable } from '../support/pg';
import { http } from '../support/spawn';

// Issue 40: the faults injected through the control API are one list for every node: a fault
// injected on one fires on the other's calls, its `times` and its seeded draws run over every
// node's calls as over one server's, and a fault deleted on either is gone from both.

/** A GET of the workspace's jobs on `url`: the status it answered. */
async function jobs(url: string, key: string): Promise<number> {
  return (await http(`${url}/v1/jobs`, { key })).status;
}

describe.skipIf(!pgAvailable)('faults across nodes', () => {
  const nodes = nodesForFile('nodes_faults');
  const { admin, urls, workspace } = nodes;

  test('a fault injected on one node fires on the other; its times are counted over both', async () => {
    const [a, b] = urls();
    const ws = await workspace('Faulted');
    const made = await admin(a, '/faults', 'POST', {
      match: { workspace_id: ws.id },
      action: { status: 503 },
      times: 3,
    });
    expect(made.status).toBe(201);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push(await jobs(i % 2 === 0 ? b : a, ws.key));
    }
    expect(statuses).toEqual([503, 503, 503, 200, 200, 200]);
    for (const url of [a, b]) {
      const got = await admin(url, `/faults/${made.body.id}`);
      expect([got.body.fired, got.body.remaining, got.body.state]).toEqual([3, 0, 'spent']);
    }
  });

  test("a seeded fault's draws are one run over both nodes: the same seed faults the same calls", async () => {
    const [a, b] = urls();
    const one = await workspace('One node');
    const both = await workspace('Both nodes');
    const fault = { action: { status: 500 }, probability: 0.5, seed: 4242 };
    for (const ws of [one, both]) {
      const made = await admin(a, '/faults', 'POST', { ...fault, match: { workspace_id: ws.id } });
      expect(made.status).toBe(201);
    }
    const onOne: number[] = [];
    const onBoth: number[] = [];
    for (let i = 0; i < 16; i++) {
      onOne.push(await jobs(a, one.key));
      onBoth.push(await jobs(i % 2 === 0 ? a : b, both.key));
    }
    expect(onBoth).toEqual(onOne);
    expect(new Set(onOne)).toEqual(new Set([200, 500]));
  });

  test('a fault deleted on one node is gone from the other at once; a clear on either clears both', async () => {
    const [a, b] = urls();
    const ws = await workspace('Cleared');
    const made = await admin(a, '/faults', 'POST', {
      match: { workspace_id: ws.id },
      action: { status: 502 },
    });
    expect(await jobs(b, ws.key)).toBe(502);
    expect((await admin(b, `/faults/${made.body.id}`, 'DELETE')).status).toBe(200);
    expect(await jobs(a, ws.key)).toBe(200);
    expect((await admin(a, `/faults/${made.body.id}`)).status).toBe(404);
    for (let i = 0; i < 2; i++) {
      await admin(a, '/faults', 'POST', {
        match: { workspace_id: ws.id },
        action: { status: 503 },
      });
    }
    const listed = (await admin(b, '/faults')).body.data as { match: { workspace_id?: string } }[];
    expect(listed.filter((f) => f.match.workspace_id === ws.id)).toHaveLength(2);
    const cleared = await admin(b, '/faults', 'DELETE');
    expect([cleared.status, cleared.body.deleted]).toEqual([200, listed.length]);
    expect((await admin(a, '/faults')).body.data).toEqual([]);
    expect(await jobs(a, ws.key)).toBe(200);
  });

  test('a node started again while the other serves finds the faults; started alone, none: a restart of svc clears them', async () => {
    const { n } = nodes;
    const ws = await workspace('Restarted');
    const made = await admin(urls()[0], '/faults', 'POST', {
      match: { workspace_id: ws.id },
      action: { status: 503 },
    });
    expect(made.status).toBe(201);
    await n.nodes[0]?.stop();
    const again = await n.restart(0);
    expect((await admin(again.url, `/faults/${made.body.id}`)).status).toBe(200);
    expect(await jobs(again.url, ws.key)).toBe(503);
    await Promise.all(n.nodes.map((node) => node.stop()));
    const first = await n.restart(0);
    await n.restart(1);
    expect((await admin(first.url, '/faults')).body.data).toEqual([]);
    expect(await jobs(urls()[1], ws.key)).toBe(200);
  });
});
