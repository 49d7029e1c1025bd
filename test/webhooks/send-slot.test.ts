// decisions.md, Concurrency: at most 8 sends at once per subscription; the rest wait for a slot.
// What waits is read again when its slot comes: spec, Webhooks (DELETE), Receiver responses (a
// 410 deletes the subscription) and Authentication 4 (a revoked key switches its webhooks off)
// all stop deliveries still waiting, and a rotated secret signs the ones that go after it.
// These run on the real-time scheduler against a receiver that holds every request until it
// closes at the test's end; the 1 s send timeout is what frees the slots.
import { describe, expect, test, vi } from 'vitest';
import type { Harness, TestWorkspace } from '../support/harness';
import type { Receiver } from '../support/receiver';
import { v1Values, verify } from '../support/receiver';
import {
  createJob,
  hookHarness,
  log,
  ok,
  receiver,
  sending,
  startSchedulers,
  type Webhook,
} from './setup';

const PER_SUBSCRIPTION = 8;
const QUEUED = 4;
const TIMEOUT_MS = 1000;
/** Longer than any test here: the request is let go when the receiver closes. */
const HELD = { status: 200, delayMs: 30_000 };

interface Rig {
  h: Harness;
  ws: TestWorkspace;
  rx: Receiver;
  sub: Webhook;
}

/**
 * A subscription (made with the read key, so revoking that key switches it off; with the write
 * key, which may delete it) with 8 sends in flight to a holding receiver and 4 more waiting.
 */
async function backlog(
  answer: Parameters<Receiver['answer']>[0] = () => HELD,
  by: 'read' | 'api' = 'read',
): Promise<Rig> {
  const h = hookHarness({ webhookTimeoutMs: TIMEOUT_MS });
  const ws = await h.workspace({ profile: 'empty' });
  const rx = await receiver(answer);
  const sub: Webhook = await ok(
    ws[by].post('/webhooks', { event: 'job.created', target_url: rx.url }),
    201,
  );
  for (let i = 0; i < PER_SUBSCRIPTION + QUEUED; i++) {
    await createJob(ws, `job ${i}`);
  }
  startSchedulers(h);
  await rx.waitFor(PER_SUBSCRIPTION, 2000);
  return { h, ws, rx, sub };
}

/** Until every send has come back (held ones by the timeout) and nothing waits for a slot. */
async function idle(h: Harness): Promise<void> {
  await vi.waitFor(() => expect(sending(h)).toBe(0), {
    timeout: TIMEOUT_MS * 4,
    interval: 20,
  });
}

/** The receiver got the 8 that were in flight, nothing after; the log shows the 4 never went. */
async function onlyInFlightWent({ h, rx, sub }: Rig): Promise<void> {
  await idle(h);
  expect(rx.received).toHaveLength(PER_SUBSCRIPTION);
  const deliveries = await log(h, sub.id);
  expect(deliveries).toHaveLength(PER_SUBSCRIPTION + QUEUED);
  const unsent = deliveries.filter((d) => d.attempts.length === 0);
  expect(unsent).toHaveLength(QUEUED);
  expect(unsent.every((d) => d.state === 'cancelled')).toBe(true);
}

describe('deliveries waiting for a send slot', () => {
  test('never go out once the subscription is deleted (DELETE /webhooks/{id})', async () => {
    const rig = await backlog(undefined, 'api');
    expect((await rig.ws.api.delete(`/webhooks/${rig.sub.id}`)).status).toBe(200);
    await onlyInFlightWent(rig);
  });

  test('never go out once the subscription is switched off (its key revoked)', async () => {
    const rig = await backlog();
    await ok(rig.h.admin.delete(`/keys/${rig.ws.keys.read.id}`));
    await onlyInFlightWent(rig);
  });

  test('never go out once a 410 deleted the subscription', async () => {
    // The first answer is 410, a moment after all 8 are in; the other 7 are held.
    const rig = await backlog((_req, n) => (n === 1 ? { status: 410, delayMs: 200 } : HELD));
    await onlyInFlightWent(rig);
    expect((await rig.ws.read.get(`/webhooks/${rig.sub.id}`)).status).toBe(404);
  });

  test('are signed with the secrets valid when they go, a rotation while they waited included', async () => {
    const { h, rx, sub } = await backlog();
    const rotated = await ok(h.admin.post(`/webhooks/${sub.id}/rotate_secret`));
    const fresh = String(rotated.secret);
    await rx.waitFor(PER_SUBSCRIPTION + QUEUED, TIMEOUT_MS * 4);
    const signatures = rx.received.map((r) => r.headers['x-service-signature']?.toString());
    for (const header of signatures.slice(0, PER_SUBSCRIPTION)) {
      expect(v1Values(header)).toHaveLength(1);
    }
    for (const [i, r] of rx.received.slice(PER_SUBSCRIPTION).entries()) {
      const header = signatures[PER_SUBSCRIPTION + i];
      expect(v1Values(header)).toHaveLength(2);
      expect(verify(fresh, header, r.body)).toBe(true);
      expect(verify(sub.secret, header, r.body)).toBe(true);
    }
  });
});
