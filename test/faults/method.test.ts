import { describe, expect, test } from 'vitest';
import { expectError } from '../support/expect';
import { harness } from '../support/harness';

describe('POST /__admin/faults match.method', () => {
  test('a method no route serves is 400 match.method: the fault could never fire', async () => {
    const h = harness();
    const res = await h.admin.post(
      '/faults',
      { match: { method: 'FETCH' }, action: { status: 503 } },
      { invalid: true },
    );
    expectError(res, 400, 'invalid_request', 'match.method');
    expect((await h.admin.get('/faults')).body.data).toEqual([]);
  });

  test('a method the API serves is taken in any case', async () => {
    const h = harness();
    const res = await h.admin.post('/faults', {
      match: { method: 'patch' },
      action: { status: 503 },
    });
    expect(res.status).toBe(201);
  });
});
