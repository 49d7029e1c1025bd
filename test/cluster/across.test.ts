import { describe, expect, test } from 'vitest';
import { nodesForFile } from '../support/nodes';
import { pgAvailable } from '../support/pg';
import { Receiver } from '../support/receiver';
import { http } from '../support/spawn';

// Issue 40: what a probe of two nodes found, each held to what one server does: the homeowner's
// pages that record a view, the control API on a node that never held the workspace, due work a
// clock move on the other node runs, and a retry schedule played by clock moves on both nodes.

const JOB = { name: 'Across', address: '1 Main St', city: 'Dallas', state: 'TX' };

describe.skipIf(!pgAvailable)('one server, whichever node answers', () => {
  const nodes = nodesForFile('nodes_across', ['--rate-limit', 'off', '--allow-local-targets']);
  const { admin, urls, workspace } = nodes;

  test("the homeowner's invoice and estimate pages open on both nodes (each records a view)", async () => {
    const [a, b] = urls();
    const ws = await workspace('Homeowner');
    const job = await http(`${a}/v1/jobs`, { method: 'POST', key: ws.key, body: JOB });
    const invoice = await http(`${a}/v1/invoices`, {
      method: 'POST',
      key: ws.key,
      body: { job_id: job.body.id, line_items: [{ name: 'Roof', quantity: 1, unit_price: 500 }] },
    });
    expect(invoice.status).toBe(201);
    const estimate = await http(`${b}/v1/estimates`, {
      method: 'POST',
      key: ws.key,
      body: { job_id: job.body.id, price: 9000 },
    });
    expect(estimate.status).toBe(201);
    // Out to the homeowner: the invoice sent, the estimate out for signature.
    const sent = await http(`${b}/v1/invoices/${invoice.body.id}/mark_sent`, {
      method: 'POST',
      key: ws.key,
    });
    expect(sent.status).toBe(200);
    expect((await admin(a, `/estimates/${estimate.body.id}/send`, 'POST')).status).toBe(200);
    for (const url of [b, a]) {
      for (const path of [`/pay/${invoice.body.id}`, `/view/estimates/${estimate.body.id}`]) {
        const page = await fetch(`${url}${path}`);
        expect([path, page.status]).toEqual([path, 200]);
      }
    }
  });

  test('the control API on a node that never held the workspace finds its records', async () => {
    const [a, b] = urls();
    const receiver = await Receiver.start();
    try {
      const ws = await workspace('Unseen');
      const hook = await http(`${a}/v1/webhooks`, {
        method: 'POST',
        key: ws.key,
        body: { event: 'job.created', target_url: receiver.url },
      });
      await http(`${a}/v1/jobs`, { method: 'POST', key: ws.key, body: JOB });
      await receiver.waitFor(1, 10_000);
      const log = await admin(b, `/webhooks/${hook.body.id}/deliveries`);
      expect([log.status, log.body.data?.length]).toEqual([200, 1]);
      const list = await admin(b, `/workspaces/${ws.id}/storm_lists`, 'POST', {
        name: 'Made on b',
        window_from: '2026-05-01',
        window_to: '2026-05-30',
        min_size_in: 1,
      });
      expect([list.status, list.body.error]).toEqual([201, undefined]);
    } finally {
      await receiver.close();
    }
  });

  test('a clock moved on one node runs the work a write on the other made due, at its time', async () => {
    const [a, b] = urls();
    const ws = await workspace('Building');
    const list = await admin(a, `/workspaces/${ws.id}/storm_lists`, 'POST', {
      name: 'Made on a',
      window_from: '2026-05-01',
      window_to: '2026-05-30',
      min_size_in: 1,
    });
    expect(list.status).toBe(201);
    expect(list.body.status).toBe('building');
    const moved = await admin(b, `/workspaces/${ws.id}/clock`, 'POST', { advance_seconds: 60 });
    expect(moved.status).toBe(200);
    const built = await http(`${b}/v1/storm_lists/${list.body.id}`, { key: ws.key });
    expect(built.body.status).not.toBe('building');
    // Built when it fell due (30 s after it was made), not when the clock was moved.
    expect(Date.parse(built.body.built_at) - Date.parse(list.body.created_at)).toBeLessThan(35_000);
  });

  test("the server's clock moved on one node runs the work a write on the other made due, before it answers", async () => {
    const [a, b] = urls();
    const ws = await workspace('Server clock');
    const list = await admin(b, `/workspaces/${ws.id}/storm_lists`, 'POST', {
      name: 'Made on b',
      window_from: '2026-05-01',
      window_to: '2026-05-30',
      min_size_in: 1,
    });
    expect(list.body.status).toBe('building');
    expect((await admin(a, '/clock', 'POST', { advance_seconds: 40 })).status).toBe(200);
    for (const url of [a, b]) {
      const built = await http(`${url}/v1/storm_lists/${list.body.id}`, { key: ws.key });
      expect(built.body.status).not.toBe('building');
      expect(Date.parse(built.body.built_at) - Date.parse(list.body.created_at)).toBeLessThan(
        35_000,
      );
    }
  });

  test('retries follow the schedule when the clock is moved on each node in turn', async () => {
    const [a, b] = urls();
    const receiver = (await Receiver.start()).answer(() => 500);
    try {
      const ws = await workspace('Retrying');
      await http(`${a}/v1/webhooks`, {
        method: 'POST',
        key: ws.key,
        body: { event: 'contact.created', target_url: receiver.url },
      });
      await http(`${b}/v1/contacts`, {
        method: 'POST',
        key: ws.key,
        body: { first_name: 'Ana', last_name: 'Ruiz', email: 'ana@example.com' },
      });
      await receiver.waitFor(1, 10_000);
      // The spec's schedule: a minute before the second attempt, then the wait doubles.
      const moves: [string, number][] = [
        [b, 30],
        [a, 30],
        [b, 120],
        [a, 240],
      ];
      const expected = [1, 2, 3, 4];
      for (const [i, [url, seconds]] of moves.entries()) {
        const moved = await admin(url, `/workspaces/${ws.id}/clock`, 'POST', {
          advance_seconds: seconds,
        });
        expect(moved.status).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        expect([i, receiver.received.length]).toEqual([i, expected[i]]);
      }
      const attempts = receiver.received.map((r) => r.headers['x-service-attempt']);
      expect(attempts).toEqual(['1', '2', '3', '4']);
    } finally {
      await receiver.close();
    }
  });

  test('a file uploaded through one node downloads through the other, byte for byte', async () => {
    const [a, b] = urls();
    const ws = await workspace('Filed');
    const job = await http(`${a}/v1/jobs`, { method: 'POST', key: ws.key, body: JOB });
    const boundary = 'svc-nodes-boundary';
    const bytes = 'roof photo bytes \u00e9 '.repeat(100);
    const body = [
      `--${boundary}\r\nContent-Disposition: form-data; name="job_id"\r\n\r\n${job.body.id}\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="roof.txt"\r\nContent-Type: text/plain\r\n\r\n${bytes}\r\n`,
      `--${boundary}--\r\n`,
    ].join('');
    const made = await fetch(`${a}/v1/files`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${ws.key}`,
        'Content-Type': `multipart/form-data; boundary=${boundary}`,
      },
      body,
    });
    expect(made.status).toBe(201);
    const file = (await made.json()) as { id: string; download_url: string };
    const path = new URL(file.download_url).pathname + new URL(file.download_url).search;
    for (const url of [b, a]) {
      const got = await fetch(`${url}${path}`, { headers: { Authorization: `Bearer ${ws.key}` } });
      expect([url, got.status]).toEqual([url, 200]);
      expect(await got.text()).toBe(bytes);
    }
  });

  test("clock moves on both nodes while a hanging receiver holds a subscription's 8 slots all answer, and the workspace takes writes after", async () => {
    const [a, b] = urls();
    const ws = await workspace('Hung');
    const receiver = await Receiver.start();
    try {
      receiver.answer(() => ({ status: 200, delayMs: 3_000 }));
      const hook = await http(`${a}/v1/webhooks`, {
        method: 'POST',
        key: ws.key,
        body: { event: 'job.created', target_url: receiver.url },
      });
      expect(hook.status).toBe(201);
      for (const round of [1, 2]) {
        const made = await Promise.all(
          Array.from({ length: 12 }, (_, i) =>
            http(`${i % 2 === 0 ? a : b}/v1/jobs`, {
              method: 'POST',
              key: ws.key,
              body: { ...JOB, name: `Hung ${round}.${i}` },
            }),
          ),
        );
        expect(made.map((m) => m.status)).toEqual(Array(12).fill(201));
        // As the probe sent them: each node moves one clock, then (in the second round, 1.5 s
        // later, the first moves still running) each the other.
        const waves =
          round === 1
            ? [[b, a]]
            : [
                [a, b],
                [b, a],
              ];
        const moves = await Promise.all(
          waves.flatMap(([wsNode, serverNode], wave) => {
            const later = new Promise((resolve) => setTimeout(resolve, 300 + 1500 * wave));
            const move = (url: string | undefined, path: string) =>
              later.then(() => admin(String(url), path, 'POST', { advance_seconds: 60 }));
            return [move(wsNode, `/workspaces/${ws.id}/clock`), move(serverNode, '/clock')];
          }),
        );
        expect(moves.map((m) => m.status)).toEqual(moves.map(() => 200));
      }
      await receiver.waitFor(24, 30_000);
      const ids = receiver.received.map((r) => r.headers['x-service-delivery']);
      expect(new Set(ids).size).toBe(24);
      for (const url of [a, b]) {
        const after = await http(`${url}/v1/jobs`, { method: 'POST', key: ws.key, body: JOB });
        expect(after.status).toBe(201);
      }
    } finally {
      await receiver.close();
    }
  }, 90_000);
});
