import { expect, test } from 'vitest';
import { Store } from '../../src/store';
import type { Durability } from '../../src/store/persistence';
import { emptyContents } from '../../src/store/types';
import { harness } from '../support/harness';

// DESIGN.md, Shared servers: GET /__health, with no credential, is 200 {"ok": true} when this node
// can serve, else 503: what a load balancer probes.

test('GET /__health answers 200 {ok: true} with no credential, even behind an admin token', async () => {
  for (const h of [harness(), harness({ adminToken: 'secret-token' })]) {
    const res = await h.app.request('/__health');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    expect(res.headers.get('cache-control')).toBe('no-store');
  }
});

test('GET /__health answers 503 {ok: false} with Retry-After while the store cannot take writes', async () => {
  const down: Durability = {
    journalBytes: 0,
    available: false,
    enqueue: () => {},
    waitFor: () => Promise.resolve(),
    foldSoon: () => {},
    compact: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
  const h = harness({}, { store: Store.over(emptyContents(), down) });
  const res = await h.app.request('/__health');
  expect(res.status).toBe(503);
  expect(await res.json()).toEqual({ ok: false });
  expect(res.headers.get('retry-after')).toBe('1');
  const other = await h.app.request('/v1/ping');
  expect(other.status).toBe(500);
  // spec, Limits: rate-limit headers on every response, this refusal's too.
  expect(other.headers.get('x-ratelimit-limit')).toBe('120');
  expect(other.headers.get('retry-after')).toBe('1');
});
