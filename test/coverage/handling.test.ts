// What the traffic never exercised (issue 19): a 429 never handled or retried too soon, faults
// marked as such, a webhook never retried, and the hints that go when the traffic did exercise it.
import { describe, expect, test } from 'vitest';
import { ok } from '../support/expect';
import { advance, hookHarness, receiver } from '../webhooks/setup';
import { coverageOf, rawCall } from './session';

const checks = (hints: { check: string; message: string }[]) => hints.map((h) => h.check);

describe('429 handling', () => {
  test('each 429 is honoured, retried too soon or never retried, by the next same call and Retry-After', async () => {
    const h = hookHarness({ rateLimit: 2 });
    const ws = await h.workspace();
    const key = ws.keys.write.key;
    const ping = () => rawCall(h, 'GET', '/ping', key);
    expect([await ping(), await ping(), await ping(), await ping()]).toEqual([200, 200, 429, 429]);
    await advance(h, 60); // the window is over: the retry waited its Retry-After
    expect(await ping()).toBe(200);
    expect(await ping()).toBe(200);
    expect(await rawCall(h, 'GET', '/me', key)).toBe(429); // and nothing after it
    const c = await coverageOf(h, ws.id);
    expect(c.rate_limits).toEqual({ met: 3, honoured: 1, too_soon: 1, never_retried: 1 });
    expect(c.error_codes).toEqual({ rate_limited: 3 });
    const messages = c.never_exercised.filter((x) => x.check === 'rate_limited');
    expect(messages.map((x) => x.message)).toEqual([
      '1 of 3 429 answers never retried',
      '1 of 3 429 answers retried before Retry-After',
    ]);
  });

  test('a 429 met and honoured leaves no rate_limited hint', async () => {
    const h = hookHarness({ rateLimit: 1 });
    const ws = await h.workspace();
    const key = ws.keys.write.key;
    expect(await rawCall(h, 'GET', '/ping', key)).toBe(200);
    expect(await rawCall(h, 'GET', '/ping', key)).toBe(429);
    await advance(h, 60);
    expect(await rawCall(h, 'GET', '/ping', key)).toBe(200);
    const c = await coverageOf(h, ws.id);
    expect(c.rate_limits).toEqual({ met: 1, honoured: 1, too_soon: 0, never_retried: 0 });
    expect(checks(c.never_exercised)).not.toContain('rate_limited');
  });

  test('no 429 at all is "a 429 never handled"', async () => {
    const h = hookHarness();
    const ws = await h.workspace();
    expect(await rawCall(h, 'GET', '/ping', ws.keys.write.key)).toBe(200);
    const c = await coverageOf(h, ws.id);
    expect(c.rate_limits.met).toBe(0);
    expect(c.never_exercised.find((x) => x.check === 'rate_limited')?.message).toMatch(
      /^a 429 never handled/,
    );
  });
});

describe('faulted calls', () => {
  test('a faulted call counts in its operation and error codes, and is marked faulted', async () => {
    const h = hookHarness();
    const ws = await h.workspace();
    const key = ws.keys.write.key;
    await ok(
      h.admin.post('/faults', {
        match: { method: 'GET', path: '/v1/contacts', workspace_id: ws.id },
        action: { status: 503 },
        times: 1,
      }),
      201,
    );
    expect(await rawCall(h, 'GET', '/contacts', key)).toBe(503);
    expect(await rawCall(h, 'GET', '/contacts', key)).toBe(200);
    const c = await coverageOf(h, ws.id);
    expect(c.operations).toEqual([
      {
        method: 'GET',
        path: '/contacts',
        calls: 2,
        statuses: { '200': 1, '503': 1 },
        operation_id: 'listContacts',
        faulted: 1,
      },
    ]);
    expect(c.error_codes).toEqual({ server_error: 1 });
    expect(c.faulted).toEqual({ calls: 1, error_codes: { server_error: 1 } });
    expect(checks(c.never_exercised)).not.toContain('server_error');
  });

  test('a dropped call is status "0": no answer', async () => {
    const h = hookHarness();
    const ws = await h.workspace();
    await ok(h.admin.post('/faults', { match: { path: '/v1/ping' }, action: { drop: true } }), 201);
    await h.app.request('/v1/ping', { headers: { Authorization: `Bearer ${ws.keys.write.key}` } });
    const c = await coverageOf(h, ws.id);
    expect(c.operations.map((o) => [o.path, o.statuses, o.faulted])).toEqual([
      ['/ping', { '0': 1 }, 1],
    ]);
    expect(checks(c.never_exercised)).not.toContain('server_error');
  });

  test('no 5xx and no dropped call is a server_error hint', async () => {
    const h = hookHarness();
    const ws = await h.workspace();
    expect(await rawCall(h, 'GET', '/ping', ws.keys.write.key)).toBe(200);
    const c = await coverageOf(h, ws.id);
    expect(c.faulted).toEqual({ calls: 0, error_codes: {} });
    expect(checks(c.never_exercised)).toContain('server_error');
  });
});

describe('webhooks', () => {
  test('deliveries that all settled at once are "a webhook never retried"', async () => {
    const h = hookHarness();
    const ws = await h.workspace();
    const rx = await receiver();
    await ok(ws.api.post('/webhooks', { event: 'contact.created', target_url: rx.url }), 201);
    await ok(ws.api.post('/contacts', { first_name: 'Ada' }), 201);
    await advance(h, 1);
    expect(rx.received).toHaveLength(1);
    const c = await coverageOf(h, ws.id);
    expect(c.events.map((e) => [e.event, e.deliveries, e.statuses, e.retried])).toEqual([
      ['contact.created', 1, { '200': 1 }, 0],
    ]);
    expect(checks(c.never_exercised)).toContain('webhook_retry');
  });

  test('no delivery at all says so', async () => {
    const h = hookHarness();
    const ws = await h.workspace();
    expect(await rawCall(h, 'GET', '/ping', ws.keys.write.key)).toBe(200);
    const c = await coverageOf(h, ws.id);
    expect(c.events).toEqual([]);
    expect(checks(c.never_exercised)).toContain('webhook');
    expect(checks(c.never_exercised)).not.toContain('webhook_retry');
  });

  test('the deliveries of a subscription the traffic deleted still count', async () => {
    const h = hookHarness();
    const ws = await h.workspace();
    const rx = await receiver(() => 500);
    const hook = await ok(
      ws.api.post('/webhooks', { event: 'contact.created', target_url: rx.url }),
      201,
    );
    await ok(ws.api.post('/contacts', { first_name: 'Ada' }), 201);
    await advance(h, 1);
    await advance(h, 60);
    expect(rx.received).toHaveLength(2);
    await ok(ws.api.delete(`/webhooks/${hook.id}`));
    const c = await coverageOf(h, ws.id);
    expect(c.events.map((e) => [e.event, e.deliveries, e.statuses, e.states])).toEqual([
      ['contact.created', 1, { '500': 2 }, { cancelled: 1 }],
    ]);
    expect(checks(c.never_exercised)).not.toContain('webhook_retry');
  });

  test('a delivery fault standing in for the receiver is a no-answer attempt, marked faulted', async () => {
    const h = hookHarness();
    const ws = await h.workspace();
    const rx = await receiver();
    await ok(
      h.admin.post('/faults', { match: { target: rx.url }, action: { drop: true }, times: 1 }),
      201,
    );
    await ok(ws.api.post('/webhooks', { event: 'contact.created', target_url: rx.url }), 201);
    await ok(ws.api.post('/contacts', { first_name: 'Ada' }), 201);
    await advance(h, 1);
    await advance(h, 60);
    expect(rx.received).toHaveLength(1);
    const c = await coverageOf(h, ws.id);
    expect(c.events).toEqual([
      {
        event: 'contact.created',
        deliveries: 1,
        statuses: { '0': 1, '200': 1 },
        states: { succeeded: 1 },
        retried: 1,
        faulted: 1,
      },
    ]);
  });
});

describe('idempotency and paging', () => {
  test('a POST with an Idempotency-Key and a list read with a cursor clear their hints', async () => {
    const h = hookHarness();
    const ws = await h.workspace();
    for (const name of ['Ada', 'Bob']) {
      await ok(ws.api.post('/contacts', { first_name: name }), 201);
    }
    const before = checks((await coverageOf(h, ws.id)).never_exercised);
    expect(before).toContain('idempotency');
    expect(before).toContain('pagination');
    await ok(
      ws.api.post('/contacts', { first_name: 'Cy' }, { headers: { 'Idempotency-Key': 'k1' } }),
      201,
    );
    const first = await ok(ws.api.get('/contacts', { query: { limit: 1 } }));
    await ok(ws.api.get('/contacts', { query: { limit: 1, cursor: first.next_cursor } }));
    const after = checks((await coverageOf(h, ws.id)).never_exercised);
    expect(after).not.toContain('idempotency');
    expect(after).not.toContain('pagination');
  });
});
