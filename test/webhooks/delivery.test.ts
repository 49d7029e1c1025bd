import { createHmac, timingSafeEqual } from 'node:crypto';
import { beforeEach, describe, expect, test } from 'vitest';
import type { Harness, TestWorkspace } from '../support/harness';
import { Receiver } from '../support/receiver';
import { createJob, setup, subscribeUrl, UUID } from './setup';

// spec, Events: Delivery headers, Delivery body, Signature verification. The signature is checked
// here with node:crypto alone, written from the spec, apart from svc's code and test/support.

let h: Harness;
let ws: TestWorkspace;
let r: Receiver;

beforeEach(async () => {
  ({ h, ws, rx: r } = await setup());
});

/** Subscribes the receiver to job.created; returns the 201 body (with `secret`). */
const subscribe = () => subscribeUrl(ws, r.url);

const runDue = () => h.admin.post('/clock', { advance_seconds: 0 });

/** The spec's verification: hex HMAC-SHA256 over `<t>.<raw body>`, any v1, constant time. */
function independentVerify(secret: string, header: string, rawBody: string): boolean {
  const parts = header.split(',');
  const t = parts.find((p) => p.startsWith('t='))?.slice(2);
  if (t === undefined) {
    return false;
  }
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`, 'utf8').digest();
  return parts
    .filter((p) => p.startsWith('v1='))
    .map((p) => Buffer.from(p.slice(3), 'hex'))
    .some((got) => got.length === expected.length && timingSafeEqual(got, expected));
}

const tOf = (header: string): number => Number(/(?:^|,)t=(\d+)(?:,|$)/.exec(header)?.[1]);

async function oneDelivery() {
  const hook = await subscribe();
  const jobId = await createJob(ws, 'Signed job');
  await runDue();
  const [got] = await r.waitFor(1);
  if (!got) {
    throw new Error('no delivery');
  }
  return { hook, jobId, got, header: String(got.headers['x-service-signature']) };
}

describe('delivery signature', () => {
  test('the signature verifies with the subscription secret over `<t>.<raw body>`', async () => {
    const { hook, got, header } = await oneDelivery();
    expect(header).toMatch(/^t=\d+(,v1=[0-9a-f]{64})+$/);
    expect(independentVerify(hook.secret, header, got.body)).toBe(true);
  });

  test('t is the real time, within five minutes of now', async () => {
    const { header } = await oneDelivery();
    const t = tOf(header);
    expect(Number.isInteger(t)).toBe(true);
    expect(Math.abs(t - Date.now() / 1000)).toBeLessThan(300);
  });

  test('t stays the real time when the virtual clock has been moved', async () => {
    await h.admin.post('/clock', { advance_seconds: 6 * 3600 });
    const { header } = await oneDelivery();
    expect(Math.abs(tOf(header) - Date.now() / 1000)).toBeLessThan(300);
  });

  test('a wrong secret does not verify', async () => {
    const { hook, got, header } = await oneDelivery();
    expect(independentVerify(`${hook.secret}x`, header, got.body)).toBe(false);
    expect(independentVerify('whsec_not_the_secret', header, got.body)).toBe(false);
  });

  test('a changed body or a changed t does not verify', async () => {
    const { hook, got, header } = await oneDelivery();
    expect(independentVerify(hook.secret, header, `${got.body} `)).toBe(false);
    const shifted = header.replace(/^t=(\d+)/, (_, t: string) => `t=${Number(t) + 1}`);
    expect(independentVerify(hook.secret, shifted, got.body)).toBe(false);
  });

  test('two subscriptions have separate secrets, each signing only its own deliveries', async () => {
    const other = await Receiver.start();
    try {
      const first = await subscribe();
      const res = await ws.api.post('/webhooks', { event: 'job.created', target_url: other.url });
      expect(res.status).toBe(201);
      const second = res.body as { secret: string };
      expect(second.secret).not.toBe(first.secret);
      await createJob(ws);
      await runDue();
      const [a] = await r.waitFor(1);
      const [b] = await other.waitFor(1);
      const ha = String(a?.headers['x-service-signature']);
      const hb = String(b?.headers['x-service-signature']);
      expect(independentVerify(first.secret, ha, String(a?.body))).toBe(true);
      expect(independentVerify(second.secret, hb, String(b?.body))).toBe(true);
      expect(independentVerify(second.secret, ha, String(a?.body))).toBe(false);
      expect(independentVerify(first.secret, hb, String(b?.body))).toBe(false);
    } finally {
      await other.close();
    }
  });
});

describe('delivery headers and body', () => {
  test('all seven headers carry the right values', async () => {
    const { hook, got } = await oneDelivery();
    const headers = got.headers;
    expect(headers['x-service-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(headers['x-service-event']).toBe('job.created');
    expect(headers['x-service-delivery']).toMatch(UUID);
    expect(headers['x-service-webhook-id']).toBe(hook.id);
    expect(headers['x-service-attempt']).toBe('1');
    expect(headers['content-type']).toMatch(/^application\/json\b/);
    expect(headers['user-agent']).toBe('Service-Webhooks/2.0');
  });

  test('the body is JSON whose event_id equals X-Service-Delivery', async () => {
    const { got, jobId } = await oneDelivery();
    const body = JSON.parse(got.body) as Record<string, unknown>;
    expect(body.event_id).toMatch(UUID);
    expect(body.event_id).toBe(got.headers['x-service-delivery']);
    expect(body.event_type).toBe('job.created');
    expect(body.event_workspace_id).toBe(ws.id);
    expect(typeof body.event_at).toBe('string');
    expect(Number.isNaN(Date.parse(String(body.event_at)))).toBe(false);
    // the record's own fields at the top level
    expect(body.id).toBe(jobId);
    expect(body.object).toBe('job');
    expect(body.name).toBe('Signed job');
    expect(body).not.toHaveProperty('event_test');
  });

  test('the delivery log records the attempt the receiver answered', async () => {
    const { hook, got } = await oneDelivery();
    const log = await h.admin.get(`/webhooks/${hook.id}/deliveries`);
    expect(log.status).toBe(200);
    expect(log.body.data).toHaveLength(1);
    const [d] = log.body.data;
    expect(d).toMatchObject({
      event_id: got.headers['x-service-delivery'],
      event: 'job.created',
      kind: 'event',
      resend_of: null,
      state: 'succeeded',
      next_attempt_at: null,
    });
    expect(d.attempts).toHaveLength(1);
    expect(d.attempts[0]).toMatchObject({ n: 1, status_code: 200, error: null });
  });

  test('nothing is sent to a subscription before the change that raises it', async () => {
    await createJob(ws, 'Before subscribing');
    await subscribe();
    await runDue();
    expect(r.received).toHaveLength(0);
  });
});
