import { randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import type { Harness, Json } from '../support/harness';
import { v1Values, verify } from '../support/receiver';
import {
  type Answerer,
  advance,
  createJob,
  jobCreatedHook,
  log,
  signatureOf as sig,
} from './setup';

// DESIGN, /__admin: rotate_secret, enable, the delivery log and revoking a key; spec, Receiver
// responses (the settings' support actions) and Signature verification 2.

const DAY = 24 * 3600;

let h: Harness;

async function setup(answer?: Answerer) {
  const made = await jobCreatedHook(answer);
  h = made.h;
  return made;
}

const tOf = (header: string) => /(?:^|,)t=(\d+)/.exec(header)?.[1];

describe('rotate_secret', () => {
  /** The header with only one of its v1 values. */
  const single = (header: string, v1: string) => `t=${tOf(header)},v1=${v1}`;

  test('the old and the new secret both sign for 24 hours, then only the new one', async () => {
    const { ws, r, hook } = await setup();
    const res = await h.admin.post(`/webhooks/${hook.id}/rotate_secret`);
    expect(res.status).toBe(200);
    const fresh = res.body.secret as string;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(hook.secret);

    await createJob(ws, 'during overlap');
    await advance(h, 0);
    const during = r.received[0];
    const header = sig(during);
    const values = v1Values(header);
    expect(values).toHaveLength(2);
    const body = String(during?.body);
    const byOld = values.filter((v) => verify(hook.secret, single(header, v), body));
    const byNew = values.filter((v) => verify(fresh, single(header, v), body));
    expect(byOld).toHaveLength(1);
    expect(byNew).toHaveLength(1);
    expect(byOld[0]).not.toBe(byNew[0]);

    await advance(h, DAY - 60);
    await createJob(ws, 'just before the end');
    await advance(h, 0);
    expect(v1Values(sig(r.received[1]))).toHaveLength(2);

    await advance(h, 61);
    await createJob(ws, 'after overlap');
    await advance(h, 0);
    const after = r.received[2];
    expect(after?.json.name).toBe('after overlap');
    expect(v1Values(sig(after))).toHaveLength(1);
    expect(verify(fresh, sig(after), String(after?.body))).toBe(true);
    expect(verify(hook.secret, sig(after), String(after?.body))).toBe(false);
  });

  test('the rotation overlap ends 24 h + 1 s after the rotation', async () => {
    const { ws, r, hook } = await setup();
    const res = await h.admin.post(`/webhooks/${hook.id}/rotate_secret`);
    const fresh = res.body.secret as string;
    await advance(h, DAY + 1);
    await createJob(ws);
    await advance(h, 0);
    const got = r.received[0];
    expect(v1Values(sig(got))).toHaveLength(1);
    expect(verify(fresh, sig(got), String(got?.body))).toBe(true);
    expect(verify(hook.secret, sig(got), String(got?.body))).toBe(false);
  });

  test('a retry after the rotation is signed with the secrets valid when it goes', async () => {
    const { ws, r, hook } = await setup((_, n) => (n === 1 ? 500 : 200));
    await createJob(ws);
    await advance(h, 0);
    expect(v1Values(sig(r.received[0]))).toHaveLength(1);
    const fresh = (await h.admin.post(`/webhooks/${hook.id}/rotate_secret`)).body.secret as string;
    await advance(h, 60);
    const retry = r.received[1];
    expect(retry?.body).toBe(r.received[0]?.body);
    expect(v1Values(sig(retry))).toHaveLength(2);
    expect(verify(fresh, sig(retry), String(retry?.body))).toBe(true);
    expect(verify(hook.secret, sig(retry), String(retry?.body))).toBe(true);
  });

  test('answers the new secret and when the old one stops signing', async () => {
    const { hook } = await setup();
    const now = Date.parse((await h.admin.get('/clock')).body.now);
    const res = await h.admin.post(`/webhooks/${hook.id}/rotate_secret`);
    expect(res.status).toBe(200);
    expect(res.body.webhook_ids).toEqual([hook.id]);
    const expires = Date.parse(res.body.previous_expires_at);
    expect(Math.abs(expires - (now + DAY * 1000))).toBeLessThan(5000);
  });

  test('subscriptions made by one events request share the secret and rotate together', async () => {
    const { ws, r } = await setup();
    const res = await ws.api.post('/webhooks', {
      events: ['contact.created', 'task.created'],
      target_url: r.url,
    });
    expect(res.status).toBe(201);
    const ids = res.body.data.map((w: Json) => w.id);
    const rotated = await h.admin.post(`/webhooks/${ids[0]}/rotate_secret`);
    expect(rotated.status).toBe(200);
    expect([...rotated.body.webhook_ids].sort()).toEqual([...ids].sort());
  });

  test('rotate_secret of an unknown webhook is 404', async () => {
    await setup();
    expect((await h.admin.post(`/webhooks/${randomUUID()}/rotate_secret`)).status).toBe(404);
  });
});

describe('enable', () => {
  test('a subscription switched off by 50 failures is switched back on, its count at zero', async () => {
    let answer = 400;
    const { ws, r, hook } = await setup(() => answer);
    for (let i = 0; i < 50; i++) {
      await createJob(ws, `job ${i}`);
    }
    await advance(h, 0);
    expect((await ws.api.get(`/webhooks/${hook.id}`)).body.disabled_at).toEqual(expect.any(String));

    const res = await h.admin.post(`/webhooks/${hook.id}/enable`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: hook.id, disabled_at: null, consecutive_failures: 0 });
    expect((await ws.api.get(`/webhooks/${hook.id}`)).body.disabled_at).toBeNull();

    answer = 200;
    await createJob(ws, 'flows again');
    await advance(h, 0);
    expect(r.received).toHaveLength(51);
    expect(r.received[50]?.json.name).toBe('flows again');
  });

  test('enable of an unknown webhook is 404', async () => {
    await setup();
    expect((await h.admin.post(`/webhooks/${randomUUID()}/enable`)).status).toBe(404);
  });
});

describe('delivery log', () => {
  test('lists the deliveries newest first, each with its attempts', async () => {
    const { ws, r, hook } = await setup();
    for (const name of ['first', 'second', 'third']) {
      await createJob(ws, name);
      await advance(h, 1);
    }
    expect(r.received).toHaveLength(3);
    const data = await log(h, hook.id);
    const eventIdOf = (name: string) =>
      r.received.find((g) => g.json.name === name)?.headers['x-service-delivery'];
    expect(data.map((d) => d.event_id)).toEqual([
      eventIdOf('third'),
      eventIdOf('second'),
      eventIdOf('first'),
    ]);
    for (const d of data) {
      expect(d).toMatchObject({ event: 'job.created', kind: 'event', state: 'succeeded' });
      expect(d.attempts).toHaveLength(1);
      expect(d.attempts[0]).toMatchObject({
        n: 1,
        status_code: 200,
        error: null,
        duration_ms: expect.any(Number),
        at: expect.any(String),
      });
    }
  });

  test('keeps the receiver answer as the response snippet', async () => {
    const { ws, hook } = await setup(() => ({ status: 500, body: 'database is on fire' }));
    await createJob(ws);
    await advance(h, 0);
    const [d] = await log(h, hook.id);
    expect(d.attempts[0].response_snippet).toBe('database is on fire');
  });

  test('the log of an unknown webhook is 404', async () => {
    await setup();
    const res = await h.admin.get(`/webhooks/${randomUUID()}/deliveries`);
    expect(res.status).toBe(404);
  });
});

describe('revoking the key', () => {
  test('switches its webhooks off and cancels their pending and retrying deliveries', async () => {
    const { ws, r, hook } = await setup(() => 500);
    await createJob(ws, 'retrying');
    await advance(h, 0);
    await createJob(ws, 'pending');
    const before = await log(h, hook.id);
    expect(before.map((d) => d.state).sort()).toEqual(['pending', 'retrying']);

    const res = await h.admin.delete(`/keys/${ws.keys.write.id}`);
    expect(res.status).toBe(200);

    const after = await log(h, hook.id);
    expect(after.map((d) => d.state)).toEqual(['cancelled', 'cancelled']);
    expect(after.every((d) => d.next_attempt_at === null)).toBe(true);
    await advance(h, 15 * 3600);
    expect(r.received).toHaveLength(1);
    const admin = (await h.admin.get('/webhooks', { query: { workspace_id: ws.id } })).body.data;
    expect(admin.find((w: Json) => w.id === hook.id).disabled_at).toEqual(expect.any(String));
  });
});
