import { describe, expect, test } from 'vitest';
import type { Config } from '../../src/platform/config';
import type { Harness, Json, TestWorkspace } from '../support/harness';
import { Receiver } from '../support/receiver';
import { advance, createJob, hookHarness, log, receiver, subscribeUrl } from './setup';

// spec, Events, Receiver responses and retries; Limits (ten retries, 50 consecutive failures);
// decisions.md, Deliveries (retry timing from the attempt start, outcomes, states, counting).

const MINUTE = 60_000;
const HOURS_15 = 15 * 3600;

let h: Harness;

async function setup(config: Partial<Config> = {}, wsBody: Record<string, unknown> = {}) {
  h = hookHarness(config);
  return h.workspace(wsBody);
}

async function only(hookId: string): Promise<Json> {
  const data = await log(h, hookId);
  expect(data).toHaveLength(1);
  return data[0];
}

describe('the retry schedule', () => {
  test('a receiver that always fails gets eleven attempts, 1, 2, 4 ... minutes apart, capped at six hours', async () => {
    const ws = await setup();
    const r = await receiver(() => 500);
    const hook = await subscribeUrl(ws, r.url);
    await createJob(ws);
    await advance(h, 0);
    await advance(h, HOURS_15);

    expect(r.received).toHaveLength(11);
    expect(r.received.map((g) => g.headers['x-service-attempt'])).toEqual(
      Array.from({ length: 11 }, (_, i) => String(i + 1)),
    );
    const eventIds = new Set(r.received.map((g) => g.headers['x-service-delivery']));
    expect(eventIds.size).toBe(1);
    const first = r.received[0]?.body;
    for (const got of r.received) {
      expect(got.body).toBe(first); // byte-identical on every attempt
      expect(got.json.event_id).toBe(r.received[0]?.headers['x-service-delivery']);
    }

    const d = await only(hook.id);
    expect(d.state).toBe('failed');
    expect(d.next_attempt_at).toBeNull();
    expect(d.attempts).toHaveLength(11);
    expect(d.attempts.map((a: Json) => a.n)).toEqual(Array.from({ length: 11 }, (_, i) => i + 1));
    expect(d.attempts.every((a: Json) => a.status_code === 500)).toBe(true);
    const at = d.attempts.map((a: Json) => Date.parse(a.at));
    // Each wait counts from when the failed attempt went out; an attempt goes out within moments
    // of falling due (the clock runs on while the scheduler starts it), never before.
    const gaps = at.slice(1).map((t: number, i: number) => t - at[i]);
    [1, 2, 4, 8, 16, 32, 64, 128, 256, 360].forEach((minutes, i) => {
      expect(gaps[i]).toBeGreaterThanOrEqual(minutes * MINUTE);
      expect(gaps[i]).toBeLessThan(minutes * MINUTE + 1000);
    });
    // about 14.5 hours after the first try
    expect(Math.round((at[10] - at[0]) / MINUTE)).toBe(871);
  });

  test('the second attempt waits one full minute: 59 s later still one attempt, 60 s later two', async () => {
    const ws = await setup();
    const r = await receiver(() => 500);
    const hook = await subscribeUrl(ws, r.url);
    await createJob(ws);
    await advance(h, 0);
    expect(r.received).toHaveLength(1);
    const d = await only(hook.id);
    expect(d.state).toBe('retrying');
    expect(Date.parse(d.next_attempt_at) - Date.parse(d.attempts[0].at)).toBe(MINUTE);

    await advance(h, 59);
    expect(r.received).toHaveLength(1);
    await advance(h, 1);
    expect(r.received).toHaveLength(2);
    expect(r.received[1]?.headers['x-service-attempt']).toBe('2');
  });

  test('500 twice then 200: three attempts and the delivery succeeds', async () => {
    const ws = await setup();
    const r = await receiver((_, n) => (n <= 2 ? 500 : 200));
    const hook = await subscribeUrl(ws, r.url);
    await createJob(ws);
    await advance(h, 0);
    await advance(h, HOURS_15);
    expect(r.received).toHaveLength(3);
    const d = await only(hook.id);
    expect(d.state).toBe('succeeded');
    expect(d.next_attempt_at).toBeNull();
    expect(d.attempts.map((a: Json) => a.status_code)).toEqual([500, 500, 200]);
  });
});

describe('answers that retry', () => {
  /** After the first attempt the delivery is retrying, and a minute later it goes again. */
  async function expectRetry(hookId: string, r: Receiver) {
    await advance(h, 0);
    expect(r.received).toHaveLength(1);
    const d = await only(hookId);
    expect(d.state).toBe('retrying');
    expect(d.attempts).toHaveLength(1);
    expect(Date.parse(d.next_attempt_at) - Date.parse(d.attempts[0].at)).toBe(MINUTE);
    await advance(h, 60);
    expect(r.received).toHaveLength(2);
    expect(r.received[1]?.headers['x-service-attempt']).toBe('2');
    const again = await only(hookId);
    expect(again.attempts).toHaveLength(2);
    expect(again.state).toBe('retrying');
    return again;
  }

  test.each([500, 502, 503, 408, 429])('%i is retried', async (status) => {
    const ws = await setup();
    const r = await receiver(() => status);
    const hook = await subscribeUrl(ws, r.url);
    await createJob(ws);
    const d = await expectRetry(hook.id, r);
    expect(d.attempts[0].status_code).toBe(status);
  });

  test.each([302, 301, 307, 308])('a %i redirect is retried and never followed', async (status) => {
    const ws = await setup();
    const elsewhere = await receiver(() => 200);
    const r = await receiver(() => ({ status, headers: { Location: elsewhere.url } }));
    const hook = await subscribeUrl(ws, r.url);
    await createJob(ws);
    const d = await expectRetry(hook.id, r);
    expect(d.attempts[0].status_code).toBe(status);
    expect(d.attempts[0].error).toEqual(expect.any(String));
    expect(elsewhere.received).toHaveLength(0);
  });

  test('connection refused (a closed port) is retried', async () => {
    const ws = await setup();
    const closed = await Receiver.start();
    const url = closed.url;
    await closed.close();
    const hook = await subscribeUrl(ws, url);
    await createJob(ws);
    await advance(h, 0);
    const d = await only(hook.id);
    expect(d.state).toBe('retrying');
    expect(d.attempts).toHaveLength(1);
    expect(d.attempts[0].status_code).toBeNull();
    expect(d.attempts[0].error).toEqual(expect.any(String));
    await advance(h, 60);
    const again = await only(hook.id);
    expect(again.attempts).toHaveLength(2);
    expect(again.state).toBe('retrying');
  });

  test('a receiver slower than the time-out is retried', async () => {
    const ws = await setup({ webhookTimeoutMs: 300 });
    const r = await receiver(() => ({ status: 200, delayMs: 1500 }));
    const hook = await subscribeUrl(ws, r.url);
    await createJob(ws);
    const started = Date.now();
    const d = await expectRetry(hook.id, r);
    expect(Date.now() - started).toBeLessThan(1500); // neither attempt waited for the answer
    expect(d.attempts[0].error).toMatch(/time/i);
    expect(d.attempts[0].duration_ms).toBeGreaterThanOrEqual(250);
    expect(d.attempts[0].duration_ms).toBeLessThan(1500);
  });
});

describe('answers that settle or stop', () => {
  test.each([200, 201, 202, 204])('%i settles the delivery', async (status) => {
    const ws = await setup();
    const r = await receiver(() => status);
    const hook = await subscribeUrl(ws, r.url);
    await createJob(ws);
    await advance(h, 0);
    await advance(h, HOURS_15);
    expect(r.received).toHaveLength(1);
    const d = await only(hook.id);
    expect(d.state).toBe('succeeded');
    expect(d.attempts).toHaveLength(1);
    expect(d.attempts[0].status_code).toBe(status);
  });

  test.each([400, 401, 404, 422])('%i stops the delivery after one attempt', async (status) => {
    const ws = await setup();
    const r = await receiver(() => status);
    const hook = await subscribeUrl(ws, r.url);
    await createJob(ws);
    await advance(h, 0);
    const d = await only(hook.id);
    expect(d.state).toBe('failed');
    expect(d.next_attempt_at).toBeNull();
    await advance(h, HOURS_15);
    expect(r.received).toHaveLength(1);
    const later = await only(hook.id);
    expect(later.state).toBe('failed');
    expect(later.attempts).toHaveLength(1);
    expect(later.attempts[0].status_code).toBe(status);
  });

  test('410 settles the delivery, deletes the subscription and cancels its other open deliveries', async () => {
    const ws = await setup();
    const r = await receiver((_, n) => (n === 1 ? 500 : 410));
    const hook = await subscribeUrl(ws, r.url);
    await createJob(ws, 'retried');
    await advance(h, 0);
    await createJob(ws, 'gone');
    await advance(h, 0);
    expect(r.received).toHaveLength(2);

    expect((await ws.api.get(`/webhooks/${hook.id}`)).status).toBe(404);
    const data = await log(h, hook.id);
    expect(data).toHaveLength(2);
    const byName = new Map(data.map((d: Json) => [d.event_id, d]));
    const retried = byName.get(r.received[0]?.headers['x-service-delivery']);
    const gone = byName.get(r.received[1]?.headers['x-service-delivery']);
    expect(gone).toMatchObject({ state: 'succeeded', next_attempt_at: null });
    expect(gone.attempts.map((a: Json) => a.status_code)).toEqual([410]);
    expect(retried).toMatchObject({ state: 'cancelled', next_attempt_at: null });

    await advance(h, HOURS_15);
    expect(r.received).toHaveLength(2);
    await createJob(ws, 'after');
    await advance(h, 0);
    expect(r.received).toHaveLength(2);
  });
});

describe('50 consecutive failures switch a subscription off', () => {
  /** `count` jobs, each answered `status` (one attempt each for a 4xx), run to the end. */
  async function jobs(ws: TestWorkspace, count: number) {
    for (let i = 0; i < count; i++) {
      await createJob(ws, `job ${i}`);
    }
    await advance(h, 0);
  }

  async function webhook(ws: TestWorkspace, id: string): Promise<Json> {
    const res = await ws.api.get(`/webhooks/${id}`);
    expect(res.status).toBe(200);
    return res.body;
  }

  test('the 50th failed attempt switches it off and tells the owners and admins, once', async () => {
    const ws = await setup({}, { profile: 'small' });
    const r = await receiver(() => 400);
    const hook = await subscribeUrl(ws, r.url);

    await jobs(ws, 49);
    expect(r.received).toHaveLength(49);
    expect((await webhook(ws, hook.id)).disabled_at).toBeNull();
    expect((await h.admin.get('/notifications')).body.data).toHaveLength(0);

    await jobs(ws, 1);
    expect(r.received).toHaveLength(50);
    const off = await webhook(ws, hook.id);
    expect(off.disabled_at).toEqual(expect.any(String));

    const users = await ws.api.get('/users', { query: { limit: 200 } });
    expect(users.status).toBe(200);
    const expected = users.body.data
      .filter((u: Json) => u.role === 'owner' || u.role === 'admin')
      .map((u: Json) => u.id)
      .sort();
    expect(expected.length).toBeGreaterThanOrEqual(2); // small: an owner and an admin
    const notes = (await h.admin.get('/notifications')).body.data;
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({
      kind: 'webhook_disabled',
      webhook_id: hook.id,
      workspace_id: ws.id,
    });
    expect([...notes[0].user_ids].sort()).toEqual(expected);

    // later changes are not delivered, and no second notification follows
    await jobs(ws, 3);
    await advance(h, HOURS_15);
    expect(r.received).toHaveLength(50);
    expect((await h.admin.get('/notifications')).body.data).toHaveLength(1);
  });

  test('retries count: five deliveries that always fail switch it off at the 50th attempt', async () => {
    const ws = await setup();
    const r = await receiver(() => 503);
    const hook = await subscribeUrl(ws, r.url);
    await jobs(ws, 5);
    await advance(h, HOURS_15);
    // 10 rounds of 5 attempts make 50; the open deliveries are then cancelled, not tried again
    expect(r.received).toHaveLength(50);
    expect((await webhook(ws, hook.id)).disabled_at).toEqual(expect.any(String));
    const data = await log(h, hook.id);
    expect(data).toHaveLength(5);
    for (const d of data) {
      expect(d.attempts).toHaveLength(10);
      expect(d.state).toBe('cancelled');
    }
  });

  test('a success before the 50th resets the count: 49 failures, 1 success, 49 failures stay on', async () => {
    const ws = await setup();
    const r = await receiver((req) => (req.json.name === 'ok' ? 200 : 400));
    const hook = await subscribeUrl(ws, r.url);
    await jobs(ws, 49);
    await createJob(ws, 'ok');
    await advance(h, 0);
    await jobs(ws, 49);
    expect(r.received).toHaveLength(99);
    expect((await webhook(ws, hook.id)).disabled_at).toBeNull();
    expect((await h.admin.get('/notifications')).body.data).toHaveLength(0);

    // and the count is really 49: one more failure switches it off
    await jobs(ws, 1);
    expect((await webhook(ws, hook.id)).disabled_at).toEqual(expect.any(String));
  });

  test('each stopping 4xx attempt counts as one failure (consecutive_failures 49)', async () => {
    const ws = await setup();
    const r = await receiver(() => 400);
    const hook = await subscribeUrl(ws, r.url);
    await jobs(ws, 49);
    const admin = (await h.admin.get('/webhooks', { query: { workspace_id: ws.id } })).body.data;
    expect(admin.find((w: Json) => w.id === hook.id).consecutive_failures).toBe(49);
  });

  test('POST /__admin/webhooks/{id}/enable switches it back on and deliveries flow again', async () => {
    const ws = await setup();
    let answer = 400;
    const r = await receiver(() => answer);
    const hook = await subscribeUrl(ws, r.url);
    await jobs(ws, 50);
    expect((await webhook(ws, hook.id)).disabled_at).toEqual(expect.any(String));
    await jobs(ws, 1);
    expect(r.received).toHaveLength(50);

    const res = await h.admin.post(`/webhooks/${hook.id}/enable`);
    expect(res.status).toBe(200);
    expect(res.body.disabled_at).toBeNull();
    expect(res.body.consecutive_failures).toBe(0);
    expect((await webhook(ws, hook.id)).disabled_at).toBeNull();

    answer = 200;
    await createJob(ws, 'after enable');
    await advance(h, 0);
    expect(r.received).toHaveLength(51);
    expect(r.received[50]?.json.name).toBe('after enable');
    const [newest] = await log(h, hook.id);
    expect(newest.state).toBe('succeeded');
  });
});
