import { describe, expect, test } from 'vitest';
import { widgetRoutes } from '../support/fixture-routes';
import { harness, type Reply } from '../support/harness';

const setup = async (rateLimit: number | null = 5) => {
  const h = harness({ rateLimit }, { extend: widgetRoutes });
  return { h, ws: await h.workspace() };
};
const figures = (res: Reply) => ({
  limit: res.headers.get('X-RateLimit-Limit'),
  remaining: res.headers.get('X-RateLimit-Remaining'),
  reset: res.headers.get('X-RateLimit-Reset'),
});

describe('rate limits', () => {
  test('120 requests a minute per key by default; the 121st is 429 rate_limited with Retry-After', async () => {
    const { ws } = await setup(120);
    for (let i = 0; i < 120; i++) {
      expect((await ws.read.get('/ping')).status).toBe(200);
    }
    const res = await ws.read.get('/ping');
    expect(res.status).toBe(429);
    expect(res.body.error.code).toBe('rate_limited');
    expect(Number(res.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(Number(res.headers.get('Retry-After'))).toBeLessThanOrEqual(60);
    expect(figures(res)).toMatchObject({ limit: '120', remaining: '0' });
  });

  test('the three headers are on every response, errors included', async () => {
    const { h, ws } = await setup(20);
    const off = await h.workspace({ subscription_active: false });
    const idem = (k: string) => ({ headers: { 'Idempotency-Key': k } });
    await ws.api.post('/widgets', { name: 'first' }, idem('k'));
    const answers = [
      await ws.api.get('/ping'),
      await ws.api.get('/nowhere'),
      await ws.api.post('/widgets', { name: 1 }, { invalid: true }),
      await ws.api.raw('PUT', '/ping'),
      await h.anonymous.get('/ping', { invalid: true }),
      await off.api.get('/ping'),
      await ws.read.post('/widgets', { name: 'x' }),
      await ws.api.post('/widgets', { name: 'second' }, idem('k')),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 404, 400, 405, 401, 402, 403, 409]);
    for (const res of answers) {
      expect(res.headers.get('X-RateLimit-Limit')).toBe('20');
      expect(Number(res.headers.get('X-RateLimit-Remaining'))).toBeGreaterThanOrEqual(0);
      expect(Number(res.headers.get('X-RateLimit-Reset'))).toBeGreaterThan(0);
    }
  });

  test('every request made with a key counts, a 402 included: the limit then answers 429', async () => {
    const { h } = await setup(3);
    const off = await h.workspace({ subscription_active: false });
    const answers = [];
    for (let i = 0; i < 4; i++) {
      answers.push(await off.api.get('/ping'));
    }
    expect(answers.map((a) => a.status)).toEqual([402, 402, 402, 429]);
    expect(answers.map((a) => a.headers.get('X-RateLimit-Remaining'))).toEqual([
      '2',
      '1',
      '0',
      '0',
    ]);
    expect(answers[3]?.body.error.code).toBe('rate_limited');
  });

  test('the public OpenAPI document carries them too', async () => {
    const { h } = await setup();
    const res = await h.app.request('/v1/openapi.json');
    expect(res.headers.get('X-RateLimit-Limit')).toBe('5');
    expect(res.headers.get('X-RateLimit-Reset')).not.toBeNull();
  });

  test('remaining counts down per key, and another key has its own window', async () => {
    const { h, ws } = await setup();
    expect(figures(await ws.api.get('/ping')).remaining).toBe('4');
    expect(figures(await ws.api.get('/ping')).remaining).toBe('3');
    expect(figures(await ws.read.get('/ping')).remaining).toBe('4');
    const another = await h.workspace();
    expect(figures(await another.api.get('/ping')).remaining).toBe('4');
  });

  test('the window resets on the clock; X-RateLimit-Reset counts the seconds to it', async () => {
    const { h, ws } = await setup(2);
    await ws.api.get('/ping');
    await ws.api.get('/ping');
    expect((await ws.api.get('/ping')).status).toBe(429);
    await h.admin.post('/clock', { advance_seconds: 45 });
    const waiting = await ws.api.get('/ping');
    expect(waiting.status).toBe(429);
    expect(Number(waiting.headers.get('X-RateLimit-Reset'))).toBeLessThanOrEqual(15);
    await h.admin.post('/clock', { advance_seconds: 16 });
    const fresh = await ws.api.get('/ping');
    expect(fresh.status).toBe(200);
    expect(figures(fresh)).toMatchObject({ remaining: '1', reset: '60' });
  });

  test('a request refused with 429 does not run', async () => {
    const { h, ws } = await setup(1);
    await ws.api.get('/ping');
    expect((await ws.api.post('/widgets', { name: 'late' })).status).toBe(429);
    await h.admin.post('/clock', { advance_seconds: 61 });
    expect((await ws.api.get('/widgets')).body.data).toEqual([]);
  });

  test('--rate-limit off sends no limit headers and never refuses', async () => {
    const { ws } = await setup(null);
    for (let i = 0; i < 150; i++) {
      await ws.read.get('/ping');
    }
    const res = await ws.read.get('/ping');
    expect(res.status).toBe(200);
    expect(res.headers.get('X-RateLimit-Limit')).toBeNull();
  });

  test('a per-operation sub-limit applies inside the general limit, its headers describe it, and its refusals do not count', async () => {
    const { ws } = await setup(10);
    for (let i = 0; i < 3; i++) {
      const ok = await ws.api.get('/limited');
      expect(ok.status).toBe(200);
      expect(figures(ok).limit).toBe('3');
    }
    const refused = await ws.api.get('/limited');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).not.toBeNull();
    const other = await ws.api.get('/ping');
    expect(other.status).toBe(200);
    // 3 allowed lookups and this ping count; the refused lookup does not
    expect(figures(other)).toMatchObject({ limit: '10', remaining: '6' });
  });
});
