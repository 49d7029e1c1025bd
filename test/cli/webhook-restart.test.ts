import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { type Received, Receiver } from '../support/receiver';
import { cleanup, http, type Server, startServe, tempDir } from '../support/spawn';

// decisions.md, Deliveries: deliveries are persisted rows, so a restart picks the retry schedule
// up where it stood; a send cut short by a stop goes again (same event_id, same attempt number);
// an acknowledged change has its delivery on disk with it, so a kill -9 loses none.

const FLAGS = ['--no-seed', '--allow-local-targets', '--rate-limit', 'off'];
const HOURS_15 = 15 * 3600;

const receivers: Receiver[] = [];
afterEach(async () => {
  await cleanup();
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function receiver(
  answer: (req: Received, n: number) => ReturnType<Parameters<Receiver['answer']>[0]>,
) {
  const r = await Receiver.start();
  receivers.push(r.answer(answer));
  return r;
}

interface Setup {
  data: string;
  server: Server;
  key: string;
  hookId: string;
}

/** A server on a fresh data file, a workspace, and a job.created subscription to `url`. */
async function setup(url: string): Promise<Setup> {
  const data = join(await tempDir(), 'data.json');
  const server = await startServe(data, FLAGS);
  const ws = await http(`${server.url}/__admin/workspaces`, { method: 'POST', body: {} });
  expect(ws.status).toBe(201);
  const key = ws.body.keys.write.key as string;
  const hook = await http(`${server.url}/v1/webhooks`, {
    method: 'POST',
    key,
    body: { event: 'job.created', target_url: url },
  });
  expect(hook.status).toBe(201);
  return { data, server, key, hookId: hook.body.id };
}

async function createJob(server: Server, key: string, name: string): Promise<string> {
  const res = await http(`${server.url}/v1/jobs`, {
    method: 'POST',
    key,
    body: { name, address: '1 Main St' },
  });
  expect(res.status).toBe(201);
  return res.body.id;
}

// biome-ignore lint/suspicious/noExplicitAny: the delivery log as JSON
async function log(server: Server, hookId: string): Promise<any[]> {
  const res = await http(`${server.url}/__admin/webhooks/${hookId}/deliveries`);
  expect(res.status).toBe(200);
  return res.body.data;
}

/** Polls until `check` holds (at most `ms`). */
async function until(check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) {
      throw new Error(`not reached within ${ms} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const advance = async (server: Server, seconds: number) => {
  const res = await http(`${server.url}/__admin/clock`, {
    method: 'POST',
    body: { advance_seconds: seconds },
  });
  expect(res.status).toBe(200);
};

describe('deliveries across a restart', () => {
  test('a pending retry survives SIGTERM and the restarted server plays the rest: 11 attempts, one event_id', async () => {
    const r = await receiver(() => 500);
    const { data, server, key, hookId } = await setup(r.url);
    await createJob(server, key, 'retried');
    await r.waitFor(1);
    await until(async () => (await log(server, hookId))[0]?.attempts.length === 1);

    expect((await server.stop('SIGTERM')).code).toBe(0);
    const restarted = await startServe(data, FLAGS);
    const [d] = await log(restarted, hookId);
    expect(d.state).toBe('retrying');
    expect(d.attempts).toHaveLength(1);
    expect(d.attempts[0].status_code).toBe(500);
    expect(Date.parse(d.next_attempt_at) - Date.parse(d.attempts[0].at)).toBe(60_000);
    expect(r.received).toHaveLength(1);

    await advance(restarted, HOURS_15);
    expect(r.received).toHaveLength(11);
    expect(r.received.map((g) => g.headers['x-service-attempt'])).toEqual(
      Array.from({ length: 11 }, (_, i) => String(i + 1)),
    );
    expect(new Set(r.received.map((g) => g.headers['x-service-delivery'])).size).toBe(1);
    expect(new Set(r.received.map((g) => g.body)).size).toBe(1);
    const [after] = await log(restarted, hookId);
    expect(after.id).toBe(d.id);
    expect(after.state).toBe('failed');
    expect(after.attempts).toHaveLength(11);
    expect((await restarted.stop()).code).toBe(0);
  });

  test('a send in flight at SIGTERM is not waited for, and goes again after the restart as the same attempt', async () => {
    const r = await receiver((_, n) => (n === 1 ? { status: 200, delayMs: 8000 } : 200));
    const { data, server, key, hookId } = await setup(r.url);
    await createJob(server, key, 'cut short');
    await r.waitFor(1);

    const stopping = Date.now();
    expect((await server.stop('SIGTERM')).code).toBe(0);
    expect(Date.now() - stopping).toBeLessThan(5000); // not the receiver's 8 s

    const restarted = await startServe(data, FLAGS);
    await advance(restarted, 0);
    await r.waitFor(2);
    const [first, again] = r.received;
    expect(again?.headers['x-service-delivery']).toBe(first?.headers['x-service-delivery']);
    expect(again?.body).toBe(first?.body);
    expect(again?.headers['x-service-attempt']).toBe('1');
    const [d] = await log(restarted, hookId);
    expect(d.state).toBe('succeeded');
    expect(d.attempts).toHaveLength(1); // the cut-short send was never logged
    expect((await restarted.stop()).code).toBe(0);
  });

  test('kill -9 right after a burst of acknowledged job creations loses no delivery', async () => {
    let restartedYet = false;
    // before the kill the receiver sits on every request, so nothing is settled before it
    const r = await receiver(() => (restartedYet ? 200 : { status: 200, delayMs: 20_000 }));
    const { data, server, key, hookId } = await setup(r.url);

    const acknowledged: string[] = [];
    await Promise.all(
      Array.from({ length: 5 }, async (_, w) => {
        for (let i = 0; i < 8; i++) {
          acknowledged.push(await createJob(server, key, `burst ${w}.${i}`));
        }
      }),
    );
    expect((await server.stop('SIGKILL')).signal).toBe('SIGKILL');
    const before = r.received.length;

    restartedYet = true;
    const restarted = await startServe(data, FLAGS);
    await advance(restarted, 0);
    const after = r.received.slice(before);
    const delivered = new Set(after.map((g) => g.json.id));
    expect(acknowledged.filter((id) => !delivered.has(id))).toEqual([]);
    expect(after.every((g) => g.json.event_type === 'job.created')).toBe(true);

    const entries = await log(restarted, hookId);
    expect(entries).toHaveLength(acknowledged.length);
    expect(entries.every((d) => d.state === 'succeeded' && d.attempts.length === 1)).toBe(true);
    expect((await restarted.stop()).code).toBe(0);
  });
});
