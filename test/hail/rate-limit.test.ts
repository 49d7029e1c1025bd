import { describe, expect, test } from 'vitest';
import { harness, type Reply } from '../support/harness';
import { expectError, OKC, onToday } from './setup';

// spec, Limits: hail history lookups, 20 a minute per key, inside the general limit (120).

async function setup(rateLimit: number | null = 120) {
  const h = harness({ rateLimit });
  await onToday(h);
  return { h, ws: await h.workspace() };
}

const figures = (res: Reply) => ({
  limit: res.headers.get('X-RateLimit-Limit'),
  remaining: res.headers.get('X-RateLimit-Remaining'),
});

describe('hail history lookups are limited to 20 a minute per key', () => {
  test('the 21st lookup in a minute is 429 rate_limited with Retry-After, while other endpoints still answer', async () => {
    const { ws } = await setup();
    for (let i = 0; i < 20; i++) {
      const res = await ws.api.get('/hail_history', { query: OKC });
      expect(res.status).toBe(200);
      // The headers describe the binding limit: the lookups'.
      expect(figures(res)).toEqual({ limit: '20', remaining: String(19 - i) });
    }
    const refused = await ws.api.get('/hail_history', { query: OKC });
    expectError(refused, 429, 'rate_limited');
    const retry = Number(refused.headers.get('Retry-After'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(60);
    const ping = await ws.api.get('/ping');
    expect(ping.status).toBe(200);
    // 20 lookups and this ping count against the general 120; the refused lookup does not.
    expect(figures(ping)).toEqual({ limit: '120', remaining: '99' });
    expect((await ws.api.get('/jobs')).status).toBe(200);
  });

  test('a minute later on the clock, lookups are served again', async () => {
    const { h, ws } = await setup();
    for (let i = 0; i < 20; i++) {
      await ws.api.get('/hail_history', { query: OKC });
    }
    expect((await ws.api.get('/hail_history', { query: OKC })).status).toBe(429);
    await h.admin.post('/clock', { advance_seconds: 61 });
    const again = await ws.api.get('/hail_history', { query: OKC });
    expect(again.status).toBe(200);
    expect(figures(again)).toEqual({ limit: '20', remaining: '19' });
  });

  test('each key has its own 20: the read-only key of the same workspace still looks up', async () => {
    const { ws } = await setup();
    for (let i = 0; i < 20; i++) {
      await ws.api.get('/hail_history', { query: OKC });
    }
    expect((await ws.api.get('/hail_history', { query: OKC })).status).toBe(429);
    expect((await ws.read.get('/hail_history', { query: OKC })).status).toBe(200);
  });

  test('a malformed lookup (400) counts among the 20', async () => {
    const { ws } = await setup();
    for (let i = 0; i < 20; i++) {
      const res = await ws.api.get('/hail_history', { query: { latitude: 'x' }, invalid: true });
      expect(res.status).toBe(400);
    }
    expectError(await ws.api.get('/hail_history', { query: OKC }), 429, 'rate_limited');
  });

  test('the lookups count inside the general limit: with it spent, a lookup is 429 too', async () => {
    const { ws } = await setup(5);
    for (let i = 0; i < 5; i++) {
      await ws.api.get('/ping');
    }
    expectError(await ws.api.get('/hail_history', { query: OKC }), 429, 'rate_limited');
  });

  test('with --rate-limit off there is no sub-limit either', async () => {
    const { ws } = await setup(null);
    for (let i = 0; i < 25; i++) {
      const res = await ws.api.get('/hail_history', { query: OKC });
      expect(res.status).toBe(200);
      expect(res.headers.get('X-RateLimit-Limit')).toBeNull();
    }
  });
});
