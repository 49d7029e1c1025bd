import { describe, expect, test } from 'vitest';
import { widgetRoutes } from '../support/fixture-routes';
import { harness } from '../support/harness';

const setup = async () => {
  const logged: string[] = [];
  const h = harness({ log: (line) => logged.push(line) }, { extend: widgetRoutes });
  const ws = await h.workspace();
  return { h, ws, logged };
};

describe('the error envelope', () => {
  test('carries code, message, request_id equal to X-Request-Id, and a doc_url for the code', async () => {
    const { ws } = await setup();
    const res = await ws.api.get('/widgets/7b0c5b2e-5d2a-4b43-9d59-6a1f0b7f5a11/nope');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
    expect(typeof res.body.error.message).toBe('string');
    expect(res.body.error.request_id).toBe(res.headers.get('X-Request-Id'));
    expect(res.body.error.doc_url).toBe('http://localhost/docs/errors#not_found');
  });

  test('every response carries an X-Request-Id, successes included, each one new', async () => {
    const { ws } = await setup();
    const a = await ws.api.get('/ping');
    const b = await ws.api.get('/ping');
    expect(a.headers.get('X-Request-Id')).toMatch(/^req_[0-9a-f]{24}$/);
    expect(a.headers.get('X-Request-Id')).not.toBe(b.headers.get('X-Request-Id'));
  });

  test('the doc_url page documents every code', async () => {
    const { h } = await setup();
    const page = await (await h.app.request('/docs/errors')).text();
    for (const code of [
      'invalid_request',
      'unauthorized',
      'plan_required',
      'forbidden',
      'not_found',
      'method_not_allowed',
      'conflict',
      'payload_too_large',
      'rate_limited',
      'server_error',
    ]) {
      expect(page).toContain(`id="${code}"`);
    }
  });
});

describe('routes', () => {
  test('an unknown route is 404 not_found', async () => {
    const { ws } = await setup();
    const res = await ws.api.get('/no/such/route');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });

  test('a known path with the wrong verb is 405 method_not_allowed with Allow', async () => {
    const { ws } = await setup();
    const res = await ws.api.raw('PUT', '/ping');
    expect(res.status).toBe(405);
    expect(res.body.error.code).toBe('method_not_allowed');
    expect(res.headers.get('Allow')).toBe('GET, HEAD');
    const templated = await ws.api.raw('POST', '/widgets/7b0c5b2e-5d2a-4b43-9d59-6a1f0b7f5a11');
    expect(templated.status).toBe(405);
    expect(templated.headers.get('Allow')).toBe('DELETE, PATCH');
  });

  test('a path id of any form names no record: 404 not_found, never a 400', async () => {
    const { ws } = await setup();
    for (const id of ['not-a-uuid', '11111111-1111-1111-1111-111111111111', '123']) {
      const res = await ws.api.get(`/jobs/${id}`, { invalid: true });
      expect(res.status, id).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
  });

  test('an id in upper case names the same record, in the path and in a body', async () => {
    const { ws } = await setup();
    const job = await ws.api.post('/jobs', { name: 'Roof', address: '1 Main St' });
    const upper = String(job.body.id).toUpperCase();
    const got = await ws.api.get(`/jobs/${upper}`);
    expect(got.status, got.text).toBe(200);
    expect(got.body.id).toBe(job.body.id);
    const note = await ws.api.post('/notes', { job_id: upper, content: 'Shingles ordered' });
    expect(note.status, note.text).toBe(201);
    expect(note.body.job_id).toBe(job.body.id);
  });

  test('an unknown record is 404 not_found', async () => {
    const { ws } = await setup();
    const res = await ws.api.patch('/widgets/7b0c5b2e-5d2a-4b43-9d59-6a1f0b7f5a11', { name: 'x' });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });
});

describe('bad input', () => {
  test('malformed JSON is 400 invalid_request', async () => {
    const { ws } = await setup();
    const res = await ws.api.raw('POST', '/widgets', {
      body: '{"name": "x",',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
  });

  test.each([
    ['text/plain', 'name=x'],
    ['application/xml', '<name>x</name>'],
    ['application/x-www-form-urlencoded', 'name=x'],
  ])('a body sent as %s is 400 invalid_request', async (type, body) => {
    const { ws } = await setup();
    const res = await ws.api.raw('POST', '/widgets', { body, headers: { 'Content-Type': type } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
  });

  test.each([
    [{ name: 42 }, 'name'],
    [{ name: 'x', count: 'three' }, 'count'],
    [{ name: 'x', count: 1.5 }, 'count'],
    [{ name: 'x', color: 'purple' }, 'color'],
    [{ name: 'x'.repeat(51) }, 'name'],
    [{}, 'name'],
  ])('a wrong value (%j) is 400 with field %s', async (body, field) => {
    const { ws } = await setup();
    const res = await ws.api.post('/widgets', body, { invalid: true });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field });
  });

  test('a body that is not an object is 400 invalid_request', async () => {
    const { ws } = await setup();
    const res = await ws.api.post('/widgets', [1, 2], { invalid: true });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
  });

  test('unknown fields are ignored', async () => {
    const { ws } = await setup();
    const res = await ws.api.post('/widgets', { name: 'kept', surprise: true, nested: { a: 1 } });
    expect(res.status).toBe(201);
    expect(res.body.name).toBe('kept');
    expect(res.body).not.toHaveProperty('surprise');
  });

  test('a failed write writes nothing', async () => {
    const { ws } = await setup();
    await ws.api.post('/widgets', { name: 'x', count: -1 }, { invalid: true });
    const list = await ws.api.get('/widgets');
    expect(list.body.data).toEqual([]);
  });

  test('a body over 25 MB to the control API is 413 payload_too_large too', async () => {
    const h = harness();
    const res = await h.admin.raw('POST', '/workspaces', {
      body: JSON.stringify({ name: 'x'.repeat(26 * 1024 * 1024) }),
      headers: { 'Content-Type': 'application/json' },
      invalid: true,
    });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('payload_too_large');
  });

  test('a body over 25 MB is 413 payload_too_large', async () => {
    const { ws } = await setup();
    const res = await ws.api.raw('POST', '/widgets', {
      body: JSON.stringify({ name: 'x'.repeat(26 * 1024 * 1024) }),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('payload_too_large');
  });
});

describe('faults', () => {
  test('an unexpected fault is 500 server_error with no internals, and the detail goes to the log', async () => {
    const { ws, logged } = await setup();
    const res = await ws.api.get('/boom');
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe('server_error');
    expect(res.text).not.toMatch(/secret|internals|passwd|\.ts/);
    expect(logged.join('\n')).toContain('secret internals');
    expect(logged.join('\n')).toContain(res.body.error.request_id);
  });
});
