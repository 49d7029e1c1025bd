import { describe, expect, test } from 'vitest';
import { harness, type TestWorkspace } from '../support/harness';

const setup = async () => {
  const h = harness({ rateLimit: null });
  return { h, ws: await h.workspace(), other: await h.workspace() };
};

const contactIn = async (ws: TestWorkspace) => {
  const res = await ws.api.post('/contacts', { name: 'Pat Doe', email: 'pat@example.com' });
  expect(res.status).toBe(201);
  return res.body;
};

describe('a read-only key', () => {
  test('reads contacts: list, one, search, jobs', async () => {
    const { ws } = await setup();
    const c = await contactIn(ws);
    expect((await ws.read.get('/contacts')).body.data.map((x: { id: string }) => x.id)).toEqual([
      c.id,
    ]);
    expect((await ws.read.get(`/contacts/${c.id}`)).body).toEqual(c);
    expect((await ws.read.get('/contacts/search', { query: { name: 'pat doe' } })).status).toBe(
      200,
    );
    expect((await ws.read.get(`/contacts/${c.id}/jobs`)).status).toBe(200);
  });

  test('POST /contacts is 403 forbidden and writes nothing', async () => {
    const { ws } = await setup();
    const res = await ws.read.post('/contacts', { name: 'Pat Doe' });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('forbidden');
    expect((await ws.api.get('/contacts')).body.data).toEqual([]);
  });

  // decisions.md: read-only credentials are refused before the body is validated
  test('POST /contacts with a body that would be 400 is still 403', async () => {
    const { ws } = await setup();
    const res = await ws.read.post(
      '/contacts',
      { sms_consent: true, type: 'plumber' },
      { invalid: true },
    );
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('forbidden');
  });

  test('PATCH and DELETE of a contact are 403 forbidden, the contact untouched', async () => {
    const { ws } = await setup();
    const c = await contactIn(ws);
    for (const res of [
      await ws.read.patch(`/contacts/${c.id}`, { name: 'Changed' }),
      await ws.read.delete(`/contacts/${c.id}`),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('forbidden');
    }
    expect((await ws.api.get(`/contacts/${c.id}`)).body).toEqual(c);
  });
});

// spec, Scope rule 1: a credential only ever sees its own workspace's records
describe('a contact of another workspace', () => {
  test('GET, PATCH, DELETE and /jobs of it are 404 not_found', async () => {
    const { ws, other } = await setup();
    const theirs = await contactIn(other);
    for (const res of [
      await ws.api.get(`/contacts/${theirs.id}`),
      await ws.api.patch(`/contacts/${theirs.id}`, { city: 'Franklin' }),
      await ws.api.delete(`/contacts/${theirs.id}`),
      await ws.api.get(`/contacts/${theirs.id}/jobs`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
    expect((await other.api.get(`/contacts/${theirs.id}`)).body).toEqual(theirs);
  });

  test('it is not in the list', async () => {
    const { ws, other } = await setup();
    await contactIn(other);
    expect((await ws.api.get('/contacts')).body.data).toEqual([]);
  });

  test.each(['homeowner_id', 'adjuster_id'])(
    'naming it as %s of a new job is 400 with that field, no job made',
    async (field) => {
      const { ws, other } = await setup();
      const theirs = await contactIn(other);
      const res = await ws.api.post('/jobs', {
        name: 'Roof',
        address: '1 Main St',
        [field]: theirs.id,
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', field });
      expect((await ws.api.get('/jobs')).body.data).toEqual([]);
    },
  );

  test.each(['homeowner_id', 'adjuster_id'])(
    'naming it as %s on a job update is 400 with that field',
    async (field) => {
      const { ws, other } = await setup();
      const theirs = await contactIn(other);
      const job = (await ws.api.post('/jobs', { name: 'Roof', address: '1 Main St' })).body;
      const res = await ws.api.patch(`/jobs/${job.id}`, { [field]: theirs.id });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', field });
      expect((await ws.api.get(`/jobs/${job.id}`)).body[field]).toBeNull();
    },
  );

  test('naming it as contact_id of a task is 400 field contact_id', async () => {
    const { ws, other } = await setup();
    const theirs = await contactIn(other);
    const res = await ws.api.post('/tasks', { title: 'Call', contact_id: theirs.id });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'contact_id' });
  });

  test('a deleted contact of this workspace cannot be named as a homeowner either', async () => {
    const { ws } = await setup();
    const mine = await contactIn(ws);
    await ws.api.delete(`/contacts/${mine.id}`);
    const res = await ws.api.post('/jobs', {
      name: 'Roof',
      address: '1 Main St',
      homeowner_id: mine.id,
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'homeowner_id' });
  });
});
