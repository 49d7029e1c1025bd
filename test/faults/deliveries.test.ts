import { describe, expect, test } from 'vitest';
import type { Harness, Json } from '../support/harness';
import { advance, createJob, hookHarness, log, receiver, subscribeUrl } from '../webhooks/setup';

// decisions.md, Faults: `match.target` makes svc's own deliveries fail as if the receiver had; the
// attempts are logged and retried per the retry policy (spec, Receiver responses and retries).

const TIMEOUT_MS = 300;
let h: Harness;

async function faulted(action: Record<string, unknown>, times?: number) {
  h = hookHarness({ webhookTimeoutMs: TIMEOUT_MS });
  const ws = await h.workspace({ profile: 'empty' });
  const rx = await receiver(() => 200);
  const hook = await subscribeUrl(ws, rx.url);
  const f = await h.admin.post('/faults', {
    match: { target: rx.url.slice(0, rx.url.lastIndexOf('/')) },
    action,
    ...(times === undefined ? {} : { times }),
  });
  expect(f.status).toBe(201);
  await createJob(ws);
  await advance(h, 0);
  await advance(h, 2); // past the coalescing window: the first attempt goes
  return { ws, rx, hook, fault: f.body as Json };
}

describe('delivery faults', () => {
  test('drop: a connection reset, retried a minute later, then delivered for real', async () => {
    const { rx, hook, fault } = await faulted({ drop: true }, 1);
    let [d] = await log(h, hook.id);
    expect(d.state).toBe('retrying');
    expect(d.attempts).toHaveLength(1);
    expect(d.attempts[0]).toMatchObject({
      status_code: null,
      error: 'connection reset',
      fault: fault.id,
    });
    expect(rx.received).toHaveLength(0);
    await advance(h, 61);
    [d] = await log(h, hook.id);
    expect(d.state).toBe('succeeded');
    expect(d.attempts[1]).toMatchObject({ status_code: 200, error: null });
    expect(d.attempts[1].fault).toBeUndefined();
    expect(rx.received).toHaveLength(1);
    expect((await h.admin.get(`/faults/${fault.id}`)).body).toMatchObject({
      fired: 1,
      state: 'spent',
    });
  });

  test('status: answered as the receiver would have; a 500 is retried, a 400 is not', async () => {
    const { rx, hook } = await faulted({ status: 503 }, 2);
    let [d] = await log(h, hook.id);
    expect(d.attempts[0]).toMatchObject({ status_code: 503, error: null });
    await advance(h, 61);
    [d] = await log(h, hook.id);
    expect(d.attempts[1]).toMatchObject({ status_code: 503 });
    await advance(h, 121);
    [d] = await log(h, hook.id);
    expect(d.state).toBe('succeeded');
    expect(d.attempts).toHaveLength(3);
    expect(rx.received).toHaveLength(1);

    const stop = await faulted({ status: 400 });
    const [s] = await log(h, stop.hook.id);
    expect(s.state).toBe('failed');
    expect(s.attempts).toEqual([expect.objectContaining({ status_code: 400 })]);
    expect(stop.rx.received).toHaveLength(0);
  });

  test('a delay past the time-out is a time-out, retried; a shorter one delivers', async () => {
    const { rx, hook } = await faulted({ delay_ms: 5_000 }, 1);
    const [d] = await log(h, hook.id);
    expect(d.state).toBe('retrying');
    expect(d.attempts[0]).toMatchObject({ status_code: null, error: 'timed out after 0.3 s' });
    expect(d.attempts[0].duration_ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
    expect(d.attempts[0].duration_ms).toBeLessThan(2_000);
    expect(rx.received).toHaveLength(0);

    const short = await faulted({ delay_ms: 50 });
    const [s] = await log(h, short.hook.id);
    expect(s.state).toBe('succeeded');
    expect(s.attempts[0].duration_ms).toBeGreaterThanOrEqual(45);
    expect(short.rx.received).toHaveLength(1);
  });

  test('a target of another address leaves deliveries alone', async () => {
    h = hookHarness({ webhookTimeoutMs: TIMEOUT_MS });
    const ws = await h.workspace({ profile: 'empty' });
    const rx = await receiver(() => 200);
    const hook = await subscribeUrl(ws, rx.url);
    await h.admin.post('/faults', {
      match: { target: 'http://127.0.0.2' },
      action: { drop: true },
    });
    await createJob(ws);
    await advance(h, 0);
    await advance(h, 2);
    const [d] = await log(h, hook.id);
    expect(d.state).toBe('succeeded');
    expect(rx.received).toHaveLength(1);
  });
});
