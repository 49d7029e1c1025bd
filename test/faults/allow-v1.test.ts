import { describe, expect, test } from 'vitest';
import { harness, type Json } from '../support/harness';

// decisions.md, Faults: a faulted 405 on /v1 says Allow with the path's methods but the one
// refused, as a real 405 says the path's methods (needs src/v1.ts to pass routeMethods(v1, '/v1')).

const h = harness({ rateLimit: null });

describe('a faulted 405 on /v1', () => {
  test.each([
    ['GET', '/jobs', 'POST'],
    ['POST', '/jobs', 'GET, HEAD'],
    ['POST', '/jobs/search', 'GET, HEAD'],
  ])('%s %s says Allow: %s', async (method, path, allow) => {
    const ws = await h.workspace({ profile: 'empty' });
    await h.admin.post('/faults', { match: { workspace_id: ws.id }, action: { status: 405 } });
    const res = await h.app.request(`/v1${path}`, {
      method,
      headers: { Authorization: `Bearer ${ws.keys.write.key}` },
    });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe(allow);
    expect(((await res.json()) as Json).error.code).toBe('method_not_allowed');
    await h.admin.delete('/faults');
  });

  test('a real 405 of the same path lists the same methods the fault leaves', async () => {
    const ws = await h.workspace({ profile: 'empty' });
    const real = await h.app.request('/v1/jobs', {
      method: 'PUT',
      headers: { Authorization: `Bearer ${ws.keys.write.key}` },
    });
    expect(real.status).toBe(405);
    expect(real.headers.get('allow')).toBe('GET, HEAD, POST');
  });
});
