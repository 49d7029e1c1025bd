import { describe, expect, test } from 'vitest';
import type { Harness } from '../support/harness';
import { createJob, hookHarness, log, receiver, startSchedulers, subscribeUrl } from './setup';

// spec, Events: one slow receiver never holds up another subscription; decisions.md,
// Concurrency: at most 8 sends at once per subscription. These run on the real-time scheduler.

const HANG_MS = 3000;

let h: Harness;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A hanging and a fast receiver, each subscribed, on the real-time scheduler. */
async function setup() {
  h = hookHarness();
  const ws = await h.workspace();
  const slow = await receiver(() => ({ status: 200, delayMs: HANG_MS }));
  const fast = await receiver();
  const slowHook = (await subscribeUrl(ws, slow.url)).id;
  const fastHook = (await subscribeUrl(ws, fast.url)).id;
  startSchedulers(h);
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
    const [hanging] = await log(h, slowHook);
    expect(hanging.state).toBe('pending');
    expect(hanging.attempts).toHaveLength(0);
    await sleep(50);
    const [done] = await log(h, fastHook);
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
    const data = await log(h, slowHook);
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
