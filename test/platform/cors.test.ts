// CORS on /v1, so that a browser app on another origin can call svc: preflights answered before
// any credential, every answer readable by the app (its headers exposed), --cors to narrow or
// switch it off. /__admin is the web app's own, same-origin.
import { describe, expect, test } from 'vitest';
import type { Config } from '../../src/platform/config';
import { harness } from '../support/harness';

const APP = 'http://localhost:3000';

async function setup(config: Partial<Config> = {}) {
  const h = harness({ rateLimit: 120, ...config });
  return { h, ws: await h.workspace() };
}

const preflight = (
  h: { app: { request: (p: string, i?: RequestInit) => Response | Promise<Response> } },
  origin = APP,
) =>
  h.app.request('/v1/jobs', {
    method: 'OPTIONS',
    headers: {
      Origin: origin,
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': 'authorization, content-type, idempotency-key',
    },
  });

describe('CORS, any origin (the default)', () => {
  test('a preflight is 204 with the methods and headers a client sends, no credential needed', async () => {
    const { h } = await setup();
    const res = await preflight(h);
    expect(res.status).toBe(204);
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe('*');
    // spec, Limits: rate-limit headers on every response; a preflight counts for its address.
    expect(res.headers.get('X-RateLimit-Limit')).toBe('120');
    expect(Number(res.headers.get('X-RateLimit-Remaining'))).toBeLessThan(120);
    expect(Number(res.headers.get('X-RateLimit-Reset'))).toBeGreaterThan(0);
    const methods = res.headers.get('Access-Control-Allow-Methods') ?? '';
    for (const m of ['GET', 'POST', 'PATCH', 'DELETE']) {
      expect(methods).toContain(m);
    }
    const headers = (res.headers.get('Access-Control-Allow-Headers') ?? '').toLowerCase();
    for (const name of ['authorization', 'x-api-key', 'content-type', 'idempotency-key']) {
      expect(headers).toContain(name);
    }
    expect(await res.text()).toBe('');
  });

  test.each([
    ['a success', '/v1/ping', true, 200],
    ['a 401', '/v1/ping', false, 401],
    ['a 404', '/v1/nowhere', true, 404],
  ])(
    '%s carries Access-Control-Allow-Origin and exposes svc headers',
    async (_what, path, withKey, status) => {
      const { h, ws } = await setup();
      const res = await h.app.request(path, {
        headers: {
          Origin: APP,
          ...(withKey ? { Authorization: `Bearer ${ws.keys.write.key}` } : {}),
        },
      });
      expect(res.status).toBe(status);
      expect(res.headers.get('Access-Control-Allow-Origin')).toBe('*');
      const exposed = res.headers.get('Access-Control-Expose-Headers') ?? '';
      for (const name of [
        'X-Request-Id',
        'X-RateLimit-Limit',
        'X-RateLimit-Remaining',
        'X-RateLimit-Reset',
        'Retry-After',
        'Idempotent-Replayed',
      ]) {
        expect(exposed).toContain(name);
      }
    },
  );

  test('a request without Origin (no browser) gets no CORS headers', async () => {
    const { h, ws } = await setup();
    const res = await h.app.request('/v1/ping', {
      headers: { Authorization: `Bearer ${ws.keys.write.key}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('Access-Control-Allow-Origin')).toBeNull();
  });

  test('an OPTIONS that is no preflight is routed as any request: 405 with Allow', async () => {
    const { h, ws } = await setup();
    const res = await h.app.request('/v1/jobs', {
      method: 'OPTIONS',
      headers: { Authorization: `Bearer ${ws.keys.write.key}` },
    });
    expect(res.status).toBe(405);
    expect(res.headers.get('Allow')).toContain('GET');
  });

  test('the control API answers no CORS: it is the web app’s own', async () => {
    const { h } = await setup();
    const res = await h.app.request('/__admin/clock', { headers: { Origin: APP } });
    expect(res.status).toBe(200);
    expect(res.headers.get('Access-Control-Allow-Origin')).toBeNull();
  });
});

describe('--cors', () => {
  test('a list of origins: a listed one is named back (Vary: Origin), another gets nothing', async () => {
    const { h, ws } = await setup({ cors: [APP, 'https://app.example.com'] });
    const auth = { Authorization: `Bearer ${ws.keys.write.key}` };
    const listed = await h.app.request('/v1/ping', { headers: { Origin: APP, ...auth } });
    expect(listed.headers.get('Access-Control-Allow-Origin')).toBe(APP);
    expect(listed.headers.get('Vary')).toContain('Origin');
    const other = await h.app.request('/v1/ping', {
      headers: { Origin: 'http://evil.example', ...auth },
    });
    expect(other.status).toBe(200);
    expect(other.headers.get('Access-Control-Allow-Origin')).toBeNull();
    expect((await preflight(h)).status).toBe(204);
    // a preflight from an origin not listed is no preflight svc answers: it needs a credential
    expect((await preflight(h, 'http://evil.example')).status).toBe(401);
  });

  test('off: no CORS headers, and a preflight is an unauthenticated request (401)', async () => {
    const { h, ws } = await setup({ cors: null });
    const res = await h.app.request('/v1/ping', {
      headers: { Origin: APP, Authorization: `Bearer ${ws.keys.write.key}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('Access-Control-Allow-Origin')).toBeNull();
    expect((await preflight(h)).status).toBe(401);
  });
});
