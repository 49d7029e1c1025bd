import { describe, expect, test } from 'vitest';
import { nodesForFile } from '../support/nodes';
import { pgAvailable } from '../support/pg';
import { Receiver } from '../support/receiver';
import { type HttpReply, http } from '../support/spawn';

// Issue 40: each rule of the spec holds over two nodes as it does on one: an idempotency key, the
// rate limit, a code traded twice, a workspace's due work.

const JOB = { name: 'Once', address: '1 Main St', city: 'Dallas', state: 'TX' };

/** A request with headers of its own (an idempotency key), JSON in and out. */
async function send(
  url: string,
  opts: { method?: string; key: string; body?: unknown; headers?: Record<string, string> },
): Promise<HttpReply> {
  const res = await fetch(url, {
    method: opts.method ?? 'GET',
    headers: {
      Authorization: `Bearer ${opts.key}`,
      ...(opts.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...opts.headers,
    },
    signal: AbortSignal.timeout(10_000),
    ...(opts.body === undefined ? {} : { body: JSON.stringify(opts.body) }),
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: text === '' ? undefined : JSON.parse(text),
  };
}

describe.skipIf(!pgAvailable)('every rule across nodes', () => {
  const nodes = nodesForFile('nodes_rules', ['--allow-local-targets']);
  const { admin, urls, workspace } = nodes;

  test('one Idempotency-Key sent to both nodes at once makes one record; the other is replayed or 409', async () => {
    const { key } = await workspace('Keyed');
    for (let i = 0; i < 5; i++) {
      const headers = { 'Idempotency-Key': `both-${i}` };
      const body = { ...JOB, name: `Keyed ${i}` };
      const answers = await Promise.all(
        urls().map((url) => send(`${url}/v1/jobs`, { method: 'POST', key, body, headers })),
      );
      const made = answers.filter((a) => a.status === 201);
      expect(made.length).toBeGreaterThanOrEqual(1);
      for (const a of answers) {
        expect([201, 409]).toContain(a.status);
      }
      const ids = new Set(made.map((a) => a.body.id));
      expect(ids.size).toBe(1);
      if (made.length === 2) {
        expect(made.map((a) => a.headers.get('idempotent-replayed'))).toContain('true');
      }
      // Replayed by either node afterwards.
      for (const url of urls()) {
        const again = await send(`${url}/v1/jobs`, { method: 'POST', key, body, headers });
        expect([again.status, again.body.id]).toEqual([201, [...ids][0]]);
        expect(again.headers.get('idempotent-replayed')).toBe('true');
      }
      const listed = await send(`${urls()[1]}/v1/jobs?limit=100`, { key });
      expect(
        listed.body.data.filter((j: { name: string }) => j.name === `Keyed ${i}`),
      ).toHaveLength(1);
    }
  });

  test('the rate limit is the key’s over every node: 120 served in a minute in all, the rest 429 with the headers', async () => {
    const { key } = await workspace('Limited');
    const answers: HttpReply[] = [];
    for (let round = 0; round < 13; round++) {
      answers.push(
        ...(await Promise.all(
          Array.from({ length: 10 }, () => send(`${nodes.n.proxy.url}/v1/ping`, { key })),
        )),
      );
    }
    const served = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 429);
    expect([served.length, refused.length]).toEqual([120, 10]);
    const answeredBy = new Set(answers.map((a) => a.headers.get('x-svc-node')));
    expect(answeredBy.size).toBe(2);
    const remaining = served.map((a) => Number(a.headers.get('x-ratelimit-remaining')));
    expect(remaining.sort((x, y) => x - y)).toEqual(Array.from({ length: 120 }, (_, i) => i));
    for (const a of refused) {
      expect(a.body.error.code).toBe('rate_limited');
      expect(a.headers.get('x-ratelimit-limit')).toBe('120');
      expect(a.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(Number(a.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  test('a code traded on both nodes at once: one trade wins, the other is invalid_grant and disconnects', async () => {
    const [a, b] = urls();
    const ws = await workspace('Connected');
    const app = await admin(a, '/oauth/apps', 'POST', {
      name: 'Two Node App',
      redirect_uris: ['https://app.example.com/callback'],
    });
    expect(app.status).toBe(201);
    const authorized = await admin(b, '/oauth/authorize', 'POST', {
      client_id: app.body.client_id,
      redirect_uri: 'https://app.example.com/callback',
      state: 'xyz',
      workspace_id: ws.id,
      decision: 'allow',
    });
    expect(authorized.status).toBe(200);
    const code = new URL(authorized.body.location).searchParams.get('code') ?? '';
    const trade = (url: string) =>
      fetch(`${url}/v1/oauth/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: 'https://app.example.com/callback',
          client_id: app.body.client_id,
          client_secret: app.body.client_secret,
        }),
      }).then(async (res) => ({
        status: res.status,
        body: (await res.json()) as { error?: string; access_token?: string },
      }));
    const [one, two] = await Promise.all([trade(a), trade(b)]);
    expect([one.status, two.status].sort()).toEqual([200, 400]);
    const lost = one.status === 400 ? one : two;
    const won = one.status === 200 ? one : two;
    expect(lost.body.error).toBe('invalid_grant');
    // The code used twice disconnected the connection: the token the winner got is refused.
    for (const url of [a, b]) {
      const ping = await http(`${url}/v1/ping`, { key: won.body.access_token ?? '' });
      expect(ping.status).toBe(401);
    }
  });

  test('due work runs once whichever node moves the clock: one overdue invoice, one delivery of its event', async () => {
    const [a, b] = urls();
    const ws = await workspace('Overdue');
    const receiver = await Receiver.start();
    try {
      const hook = await send(`${a}/v1/webhooks`, {
        method: 'POST',
        key: ws.key,
        body: { event: 'invoice.overdue', target_url: receiver.url },
      });
      expect(hook.status).toBe(201);
      const job = await send(`${b}/v1/jobs`, { method: 'POST', key: ws.key, body: JOB });
      expect(job.status).toBe(201);
      const invoice = await send(`${a}/v1/invoices`, {
        method: 'POST',
        key: ws.key,
        body: {
          job_id: job.body.id,
          due_date: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
          line_items: [{ name: 'Roof', quantity: 1, unit_price: 1000 }],
        },
      });
      expect([invoice.status, invoice.body.error]).toEqual([201, undefined]);
      const sent = await send(`${b}/v1/invoices/${invoice.body.id}/mark_sent`, {
        method: 'POST',
        key: ws.key,
      });
      expect(sent.status).toBe(200);
      const moved = await admin(b, `/workspaces/${ws.id}/clock`, 'POST', {
        advance_seconds: 3 * 86_400,
      });
      expect(moved.status).toBe(200);
      for (const url of [a, b]) {
        const got = await send(`${url}/v1/invoices/${invoice.body.id}`, { key: ws.key });
        expect(got.body.status).toBe('overdue');
      }
      await receiver.waitFor(1, 10_000);
      // A while later, both nodes' workers having run: still the one delivery.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const overdue = receiver.received.filter((r) => r.json.event_type === 'invoice.overdue');
      expect(overdue).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });
});
