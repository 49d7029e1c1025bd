import { afterEach, describe, expect, test } from 'vitest';
import { type Harness, harness, type Json, type TestWorkspace } from '../support/harness';
import { Receiver } from '../support/receiver';

// spec, Events: one slow receiver never holds up another subscription; decisions.md,
// Concurrency: at most 8 sends at once per subscription. These run on the real-time scheduler.

const HANG_MS = 3000;

let h: Harness;
const receivers: Receiver[] = [];

afterEach(async () => {
  h?.services.scheduler.stop();
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function start(r: Receiver) {
  receivers.push(r);
  return r;
}

async function subscribe(ws: TestWorkspace, url: string): Promise<string> {
  const res = await ws.api.post('/webhooks', { event: 'job.created', target_url: url });
  expect(res.status).toBe(201);
  return res.body.id;
}

async function createJob(ws: TestWorkspace, name: string): Promise<void> {
  const res = await ws.api.post('/jobs', { name, address: '1 Main St' });
  expect(res.status).toBe(201);
}

async function log(hookId: string): Promise<Json[]> {
  return (await h.admin.get(`/webhooks/${hookId}/deliveries`)).body.data;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function setup() {
  h = harness({ allowLocalTargets: true, rateLimit: null });
  const ws = await h.workspace();
  const slow = await start(
    (await Receiver.start()).answer(() => ({ status: 200, delayMs: HANG_MS })),
  );
  const fast = await start(await Receiver.start());
  const slowHook = await subscribe(ws, slow.url);
  const fastHook = await subscribe(ws, fast.url);
  h.services.scheduler.start();
  return { ws, slow, fast, slowHook, fastHook };
}

describe('a slow receiver holds up no other subscription', () => {
  test('the fast receiver has its delivery within 500 ms while the slow one still hangs', async () => {
    const { ws, slow, fast, slowHook, fastHook } = await setup();
    const started = Date.now();
    await createJob(ws, 'one');
    await fast.waitFor(1, 500);
    expect(Date.now() - started).toBeLessThan(500);
    await slow.waitFor(1, 500); // it has the request, and is sitting on it
    const [hanging] = await log(slowHook);
    expect(hanging.state).toBe('pending');
    expect(hanging.attempts).toHaveLength(0);
    await sleep(50);
    const [done] = await log(fastHook);
    expect(done.state).toBe('succeeded');
  });

  test('ten deliveries to a hanging receiver do not hold up the other subscription', async () => {
    const { ws, slow, fast, slowHook } = await setup();
    const started = Date.now();
    for (let i = 0; i < 10; i++) {
      await createJob(ws, `job ${i}`);
    }
    // well inside the 3 s the hanging receiver sits on its requests
    await fast.waitFor(10, 1500);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(new Set(fast.received.map((g) => g.json.name)).size).toBe(10);
    expect(slow.received.length).toBeGreaterThan(0); // it is sitting on what it has
    expect(slow.received.length).toBeLessThanOrEqual(8);
    const data = await log(slowHook);
    expect(data).toHaveLength(10);
    expect(data.every((d) => d.state === 'pending')).toBe(true);
  });

  test('a hanging receiver is sent at most 8 deliveries at once', async () => {
    const { ws, slow, fast } = await setup();
    for (let i = 0; i < 10; i++) {
      await createJob(ws, `job ${i}`);
    }
    await fast.waitFor(10, 1000);
    await slow.waitFor(8, 1000);
    await sleep(300);
    expect(slow.received).toHaveLength(8);
    // as the first answers come back, the two waiting deliveries go
    await slow.waitFor(10, HANG_MS + 2000);
  });
});
