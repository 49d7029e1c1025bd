import { describe, expect, test } from 'vitest';
import { nodesForFile } from '../support/nodes';
import { pgAvailable } from '../support/pg';
import { Receiver } from '../support/receiver';
import { http } from '../support/spawn';

// Issue 40: a node killed (kill -9) under load loses no acknowledged write; the other keeps
// answering; the delivery it had claimed is sent by the other once its claim lapses; and the node
// started again joins without a restart of the other.

const JOB = { name: 'Kept', address: '1 Main St', city: 'Dallas', state: 'TX' };

describe.skipIf(!pgAvailable)('a node lost', () => {
  const nodes = nodesForFile('nodes_lost', ['--rate-limit', 'off', '--allow-local-targets']);

  test('kill -9 of one node under writes through the proxy: every acknowledged write is kept, the other answers on', async () => {
    const n = nodes.n;
    const { key } = await nodes.workspace('Under load');
    const acknowledged: string[] = [];
    let stop = false;
    const writer = async (w: number) => {
      for (let i = 0; !stop; i++) {
        try {
          const made = await http(`${n.proxy.url}/v1/jobs`, {
            method: 'POST',
            key,
            body: { ...JOB, name: `Kept ${w}-${i}` },
          });
          if (made.status === 201) {
            acknowledged.push(made.body.id);
          }
        } catch {
          // cut off by the kill: not acknowledged
        }
      }
    };
    const writers = Array.from({ length: 6 }, (_, w) => writer(w));
    await new Promise((resolve) => setTimeout(resolve, 700));
    await n.nodes[0]?.stop('SIGKILL');
    n.proxy.backends = [n.nodes[1]?.url ?? ''];
    await new Promise((resolve) => setTimeout(resolve, 700));
    stop = true;
    await Promise.all(writers);
    expect(acknowledged.length).toBeGreaterThan(20);
    const survivor = n.nodes[1]?.url ?? '';
    const found = await Promise.all(
      acknowledged.map((id) => http(`${survivor}/v1/jobs/${id}`, { key })),
    );
    expect(found.filter((r) => r.status !== 200)).toEqual([]);
    // The node started again joins and answers, the other left running.
    const back = await n.restart(0);
    const again = await http(`${back.url}/v1/jobs/${acknowledged[0]}`, { key });
    expect(again.status).toBe(200);
  }, 60_000);

  test('a delivery the lost node was sending is sent by the other once its claim lapses, once', async () => {
    const n = nodes.n;
    const [a, b] = nodes.urls();
    const receiver = await Receiver.start();
    try {
      // The first attempt hangs: the node sending it is killed meanwhile.
      receiver.answer((_req, i) => (i === 1 ? { status: 200, delayMs: 8_000 } : 200));
      const { key } = await nodes.workspace('Claimed');
      const hook = await http(`${a}/v1/webhooks`, {
        method: 'POST',
        key,
        body: { event: 'job.created', target_url: receiver.url },
      });
      expect(hook.status).toBe(201);
      const made = await http(`${a}/v1/jobs`, { method: 'POST', key, body: JOB });
      expect(made.status).toBe(201);
      await receiver.waitFor(1, 10_000);
      const sender = receiver.received[0]?.headers['user-agent'];
      expect(sender).toBeDefined();
      // Kill whichever node holds the attempt: the one the first request came from is unknown
      // to the receiver, so both are candidates; kill a, then make sure b is the one left.
      await n.nodes[0]?.stop('SIGKILL');
      // b reads the workspace (it then holds it, and its scheduled attempt) and takes it over.
      expect((await http(`${b}/v1/jobs/${made.body.id}`, { key })).status).toBe(200);
      await receiver.waitFor(2, 30_000);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const ids = receiver.received.map((r) => r.headers['x-service-delivery']);
      expect(ids).toHaveLength(2);
      expect(new Set(ids).size).toBe(1);
      const log = await nodes.admin(b, `/webhooks/${hook.body.id}/deliveries`);
      expect(log.status).toBe(200);
      expect(log.body.data[0].state).toBe('succeeded');
    } finally {
      await receiver.close();
      await n.restart(0);
    }
  }, 60_000);

  test('work a stopped node left in a workspace the other holds goes from the other within seconds', async () => {
    const [a, b] = nodes.urls();
    const receiver = await Receiver.start();
    try {
      const { key } = await nodes.workspace('Left behind');
      await http(`${a}/v1/webhooks`, {
        method: 'POST',
        key,
        body: { event: 'contact.updated', target_url: receiver.url },
      });
      const contact = await http(`${a}/v1/contacts`, {
        method: 'POST',
        key,
        body: { first_name: 'Lee', last_name: 'Park', email: 'lee@example.com' },
      });
      // b holds the workspace; a makes an update whose delivery waits to gather edits, and stops.
      expect((await http(`${b}/v1/contacts/${contact.body.id}`, { key })).status).toBe(200);
      const edited = await http(`${a}/v1/contacts/${contact.body.id}`, {
        method: 'PATCH',
        key,
        body: { notes: 'left with a' },
      });
      expect(edited.status).toBe(200);
      await nodes.n.nodes[0]?.stop('SIGKILL');
      const got = await receiver.waitFor(1, 15_000);
      expect(got[0]?.json.event_type).toBe('contact.updated');
    } finally {
      await receiver.close();
      await nodes.n.restart(0);
    }
  }, 60_000);
});
