import { randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import type { Harness, Json } from '../support/harness';
import { verify } from '../support/receiver';
import {
  type Answerer,
  advance,
  createJob,
  setup as hookSetup,
  jobCreatedHook,
  log,
  newJob,
  signatureOf as sig,
  subscribe,
} from './setup';

// DESIGN, /__admin: resend a delivery and send a signed test; spec, Receiver responses (the
// settings' support actions).

let h: Harness;

async function setup(answer?: Answerer) {
  const made = await jobCreatedHook(answer);
  h = made.h;
  return made;
}

describe('resend', () => {
  test('makes a new delivery of the same event and bytes, sent once and answered after its attempt', async () => {
    const { ws, r, hook } = await setup();
    await createJob(ws);
    await advance(h, 0);
    const [original] = await log(h, hook.id);
    expect(original.state).toBe('succeeded');

    const res = await h.admin.post(`/deliveries/${original.id}/resend`);
    expect(res.status).toBe(200);
    // answered after the attempt: the receiver already has it, and the outcome is logged
    expect(r.received).toHaveLength(2);
    expect(res.body).toMatchObject({
      kind: 'resend',
      resend_of: original.id,
      event_id: original.event_id,
      event: 'job.created',
      state: 'succeeded',
      next_attempt_at: null,
    });
    expect(res.body.id).not.toBe(original.id);
    expect(res.body.attempts).toHaveLength(1);
    expect(res.body.attempts[0]).toMatchObject({ n: 1, status_code: 200 });

    const [first, again] = r.received;
    expect(again?.body).toBe(first?.body); // byte-identical
    expect(again?.headers['x-service-delivery']).toBe(original.event_id);
    expect(again?.headers['x-service-attempt']).toBe('1');
    expect(verify(hook.secret, sig(again), String(again?.body))).toBe(true);

    const data = await log(h, hook.id);
    expect(data.map((d) => d.id)).toEqual([res.body.id, original.id]);
    expect(data[1].state).toBe('succeeded');
    expect(data[1].attempts).toHaveLength(1);
  });

  test('a failed resend is not retried', async () => {
    const { ws, r, hook } = await setup((_, n) => (n === 1 ? 200 : 500));
    await createJob(ws);
    await advance(h, 0);
    const [original] = await log(h, hook.id);
    const res = await h.admin.post(`/deliveries/${original.id}/resend`);
    expect(res.status).toBe(200);
    expect(res.body.state).toBe('failed');
    expect(res.body.attempts.map((a: Json) => a.status_code)).toEqual([500]);
    await advance(h, 15 * 3600);
    expect(r.received).toHaveLength(2);
  });

  test('resend of a stopped delivery goes again', async () => {
    const { ws, r, hook } = await setup((_, n) => (n === 1 ? 400 : 200));
    await createJob(ws);
    await advance(h, 0);
    const [original] = await log(h, hook.id);
    expect(original.state).toBe('failed');
    const res = await h.admin.post(`/deliveries/${original.id}/resend`);
    expect(res.status).toBe(200);
    expect(res.body.state).toBe('succeeded');
    expect(r.received).toHaveLength(2);
    expect(r.received[1]?.body).toBe(r.received[0]?.body);
  });

  test('resend works on a switched-off subscription', async () => {
    const { ws, r, hook } = await setup();
    await createJob(ws);
    await advance(h, 0);
    const [original] = await log(h, hook.id);
    expect((await h.admin.delete(`/keys/${ws.keys.write.id}`)).status).toBe(200);
    const res = await h.admin.post(`/deliveries/${original.id}/resend`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ kind: 'resend', state: 'succeeded' });
    expect(r.received).toHaveLength(2);
  });

  test('resend of a delivery whose subscription was deleted is 404', async () => {
    const { ws, r, hook } = await setup();
    await createJob(ws);
    await advance(h, 0);
    const [original] = await log(h, hook.id);
    expect((await ws.api.delete(`/webhooks/${hook.id}`)).status).toBe(200);
    const res = await h.admin.post(`/deliveries/${original.id}/resend`);
    expect(res.status).toBe(404);
    expect(r.received).toHaveLength(1);
  });

  test('resend of an unknown delivery is 404', async () => {
    await setup();
    const res = await h.admin.post(`/deliveries/${randomUUID()}/resend`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });
});

describe('test send', () => {
  test('carries event_test: true and the newest real job, signed, and is logged as kind test', async () => {
    const { ws, r, hook } = await setup();
    await createJob(ws, 'Older job');
    await advance(h, 1);
    const newest = await createJob(ws, 'Newest job');
    await advance(h, 0);
    expect(r.received).toHaveLength(2);

    const res = await h.admin.post(`/webhooks/${hook.id}/test`);
    expect(res.status).toBe(200);
    expect(r.received).toHaveLength(3);
    expect(res.body).toMatchObject({ kind: 'test', state: 'succeeded', event: 'job.created' });
    expect(res.body.attempts).toHaveLength(1);

    const got = r.received[2];
    expect(verify(hook.secret, sig(got), String(got?.body))).toBe(true);
    expect(got?.headers['x-service-event']).toBe('job.created');
    expect(got?.headers['x-service-delivery']).toBe(res.body.event_id);
    expect(got?.headers['x-service-attempt']).toBe('1');
    expect(got?.json).toMatchObject({
      event_test: true,
      event_type: 'job.created',
      event_id: res.body.event_id,
      event_workspace_id: ws.id,
      id: newest,
      object: 'job',
      name: 'Newest job',
    });
    const job = await ws.api.get(`/jobs/${newest}`);
    expect(got?.json.job_number).toBe(job.body.job_number);
    expect(got?.json.address).toEqual(job.body.address);

    const [logged] = await log(h, hook.id);
    expect(logged).toMatchObject({ id: res.body.id, kind: 'test', state: 'succeeded' });
  });

  test('a filtered subscription is tested with the newest record its filters let through', async () => {
    const c = await hookSetup();
    h = c.h;
    const hook = await subscribe(c, 'job.created', { job_type: 'insurance' });
    const wanted = await newJob(c.ws, { name: 'Insured roof', job_type: 'insurance' });
    await advance(h, 1);
    await newJob(c.ws, { name: 'Cash roof, newer', job_type: 'retail' });
    await advance(h, 0);
    const res = await h.admin.post(`/webhooks/${hook.id}/test`);
    expect(res.status).toBe(200);
    expect(c.rx.received.at(-1)?.json).toMatchObject({
      event_test: true,
      id: wanted.id,
      job_type: 'insurance',
    });
  });

  test('a filtered subscription nothing matches is tested with the newest record', async () => {
    const c = await hookSetup();
    h = c.h;
    const hook = await subscribe(c, 'job.created', { job_type: 'insurance' });
    const only = await newJob(c.ws, { name: 'Cash roof', job_type: 'retail' });
    const res = await h.admin.post(`/webhooks/${hook.id}/test`);
    expect(res.status).toBe(200);
    expect(c.rx.received.at(-1)?.json).toMatchObject({ event_test: true, id: only.id });
  });

  test('a failed test send is logged as failed and not retried', async () => {
    const { ws, r, hook } = await setup(() => 503);
    await createJob(ws);
    const res = await h.admin.post(`/webhooks/${hook.id}/test`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ kind: 'test', state: 'failed' });
    const tests = r.received.filter((g) => g.json.event_test === true);
    expect(tests).toHaveLength(1);
    await advance(h, 15 * 3600);
    expect(r.received.filter((g) => g.json.event_test === true)).toHaveLength(1);
  });

  test('a `*` subscription tests job.created unless the body names another event', async () => {
    const { ws, r } = await setup();
    const res = await ws.api.post('/webhooks', { event: '*', target_url: r.url });
    expect(res.status).toBe(201);
    const star = res.body as { id: string; secret: string };
    const plain = await h.admin.post(`/webhooks/${star.id}/test`);
    expect(plain.status).toBe(200);
    expect(r.received.at(-1)?.json).toMatchObject({ event_test: true, event_type: 'job.created' });
    expect(r.received.at(-1)?.headers['x-service-event']).toBe('job.created');
    const named = await h.admin.post(`/webhooks/${star.id}/test`, { event: 'contact.created' });
    expect(named.status).toBe(200);
    expect(named.body.event).toBe('contact.created');
    const got = r.received.at(-1);
    expect(got?.json).toMatchObject({ event_test: true, event_type: 'contact.created' });
    expect(verify(star.secret, sig(got), String(got?.body))).toBe(true);
  });

  // decisions.md, Test send: the body has the event's full shape even with nothing to show
  test.each([
    ['contact.created', 'contact'],
    ['job.deleted', 'job'],
  ])(
    'in a workspace with no records, %s is tested with a record of its shape that knows nothing',
    async (event, object) => {
      const { ws, r } = await setup();
      const res = await ws.api.post('/webhooks', { event, target_url: r.url });
      const sent = await h.admin.post(`/webhooks/${res.body.id}/test`);
      expect(sent.status, sent.text).toBe(200);
      const body = r.received.at(-1)?.json;
      expect(body).toMatchObject({ object, event_type: event, event_test: true });
      if (event === 'contact.created') {
        expect(body).toMatchObject({ first_name: null, email: null, trades: [], full_name: null });
      } else {
        expect(body).toMatchObject({ deleted: true, job_number: null, name: null });
      }
      // and the afterEach checks it against the delivery's description in the document
    },
  );

  test('in a workspace with no records, no event is tested with an empty string, and each with its own state', async () => {
    const { ws, r } = await setup();
    const star = (await ws.api.post('/webhooks', { event: '*', target_url: r.url })).body;
    const events: string[] = (await ws.api.get('/events')).body.data.map(
      (e: { event: string }) => e.event,
    );
    for (const event of events) {
      expect((await h.admin.post(`/webhooks/${star.id}/test`, { event })).status).toBe(200);
    }
    const bodies = r.received.map((got) => got.json);
    expect(bodies).toHaveLength(events.length);
    for (const body of bodies) {
      const blanks = Object.entries(body).filter(([, v]) => v === '');
      expect(blanks, String(body.event_type)).toEqual([]);
    }
    const of = (event: string) => bodies.find((b) => b.event_type === event);
    expect(of('task.completed')).toMatchObject({ completed: true });
    expect(of('appointment.created')).toMatchObject({ is_appointment: true });
    expect(of('invoice.paid')).toMatchObject({ status: 'paid' });
    expect(of('job.created')).toMatchObject({ job_type: 'insurance' });
  });

  test('a JSON content type with no body is no body: the test send goes', async () => {
    const { ws, r, hook } = await setup();
    await createJob(ws, 'Roof');
    await advance(h, 0);
    const res = await h.admin.raw('POST', `/webhooks/${hook.id}/test`, {
      headers: { 'Content-Type': 'application/json' },
      body: '',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ kind: 'test', event: 'job.created' });
    expect(r.received.at(-1)?.json.event_test).toBe(true);
  });

  test('test send to an unknown webhook is 404', async () => {
    await setup();
    const res = await h.admin.post(`/webhooks/${randomUUID()}/test`);
    expect(res.status).toBe(404);
  });
});
