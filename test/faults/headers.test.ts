import { OpenAPIHono } from '@hono/zod-openapi';
import { describe, expect, test } from 'vitest';
import type { AppEnv } from '../../src/platform/app-env';
import { Clock } from '../../src/platform/clock';
import { applyFault, Faults, routeMethods } from '../../src/platform/faults';
import { harness, type Json } from '../support/harness';

// decisions.md, Faults: a fault's answer carries the code and the headers the spec gives that
// status on a real answer (spec, Errors and Limits).

const bearer = (key: string) => ({ headers: { Authorization: `Bearer ${key}` } });

describe('the code a status takes when none is given', () => {
  const h = harness({ rateLimit: null });

  test.each([
    [404, 'not_found'],
    [402, 'plan_required'],
    [409, 'conflict'],
    [413, 'payload_too_large'],
    [500, 'server_error'],
    [503, 'server_error'],
  ])('%i answers code %s', async (status, code) => {
    const ws = await h.workspace({ profile: 'empty' });
    await h.admin.post('/faults', { match: { workspace_id: ws.id }, action: { status }, times: 1 });
    // straight to the app: a status the route's document does not list is the point here
    const res = await h.app.request('/v1/jobs', bearer(ws.keys.write.key));
    expect(res.status).toBe(status);
    expect(((await res.json()) as Json).error.code).toBe(code);
    await h.admin.delete('/faults');
  });
});

describe('a faulted 429', () => {
  test('says Retry-After and a spent window, as a refused call does: Remaining 0, Reset the wait', async () => {
    const h = harness({ rateLimit: 120 });
    const ws = await h.workspace({ profile: 'empty' });
    const before = await ws.api.get('/jobs');
    expect(before.headers.get('x-ratelimit-remaining')).toBe('119');
    await h.admin.post('/faults', {
      match: { workspace_id: ws.id },
      action: { status: 429 },
      times: 1,
    });
    const res = await ws.api.get('/jobs');
    expect(res.status).toBe(429);
    expect(res.body.error.code).toBe('rate_limited');
    expect(res.headers.get('retry-after')).toBe('1');
    expect(res.headers.get('x-ratelimit-limit')).toBe('120');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(res.headers.get('x-ratelimit-reset')).toBe('1');
    // the real window is the key's own again on the next call
    expect((await ws.api.get('/jobs')).headers.get('x-ratelimit-remaining')).toBe('117');
  });

  test('with rate limiting off, Retry-After only, as every answer then lacks X-RateLimit-*', async () => {
    const h = harness({ rateLimit: null });
    const ws = await h.workspace({ profile: 'empty' });
    await h.admin.post('/faults', { match: { workspace_id: ws.id }, action: { status: 429 } });
    const res = await ws.api.get('/jobs');
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(res.headers.get('x-ratelimit-remaining')).toBeNull();
  });
});

describe('a faulted 401', () => {
  test('carries no WWW-Authenticate, as a real 401 of the API does not', async () => {
    const h = harness({ rateLimit: null });
    const ws = await h.workspace({ profile: 'empty' });
    const real = await h.app.request('/v1/jobs', bearer('svc_live_nope'));
    expect(real.status).toBe(401);
    expect(real.headers.get('www-authenticate')).toBeNull();
    await h.admin.post('/faults', { match: { workspace_id: ws.id }, action: { status: 401 } });
    const res = await ws.api.get('/jobs');
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('unauthorized');
    expect(res.headers.get('www-authenticate')).toBeNull();
  });
});

describe('a faulted 405 (applyFault with the routes of an app)', () => {
  /** As src/v1.ts mounts it: a /v1 app whose routes are relative to /v1. */
  async function app(withRoutes: boolean) {
    const faults = new Faults(new Clock(0));
    const v1 = new OpenAPIHono<AppEnv>();
    const methodsAt = routeMethods(v1, '/v1');
    v1.use('*', async (c, next) => {
      c.set('credential', {
        kind: 'api_key',
        id: 'k1',
        workspaceId: 'w1',
        access: 'write',
        name: 'k',
      });
      c.set('requestId', 'req_1');
      const faulted = await applyFault(faults, c, withRoutes ? methodsAt : undefined);
      return faulted ?? next();
    });
    v1.get('/things', (c) => c.json([]));
    v1.post('/things', (c) => c.json({}, 201));
    v1.get('/things/:id', (c) => c.json({}));
    v1.delete('/things/:id', (c) => c.json({}));
    v1.get('/things/search', (c) => c.json([])); // fits /things/:id too
    v1.all('/things/search', (c) => c.json({}, 405));
    await faults.add({ match: {}, action: { status: 405 } });
    return new OpenAPIHono<AppEnv>().route('/v1', v1);
  }

  test.each([
    ['GET', '/v1/things', 'POST'],
    ['POST', '/v1/things', 'GET, HEAD'],
    ['HEAD', '/v1/things', 'POST'],
    ['DELETE', '/v1/things/t1', 'GET, HEAD'],
    ['PATCH', '/v1/things/t1', 'DELETE, GET, HEAD'],
    ['POST', '/v1/things/search', 'GET, HEAD'],
    ['GET', '/v1/nothing', ''],
  ])(
    "%s %s says Allow: %s (the path's methods but the one refused)",
    async (method, path, allow) => {
      const res = await (await app(true)).request(path, { method });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe(allow);
      if (method !== 'HEAD') {
        expect(((await res.json()) as Json).error.code).toBe('method_not_allowed');
      }
    },
  );

  test('without the routes, no Allow', async () => {
    const res = await (await app(false)).request('/v1/things');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBeNull();
  });
});
