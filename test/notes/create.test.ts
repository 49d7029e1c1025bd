import { describe, expect, test } from 'vitest';
import { harness, type TestWorkspace } from '../support/harness';

// The empty profile seeds no jobs or notes: /notes holds exactly what the test made.
const setup = async () => {
  const h = harness({ rateLimit: null });
  const ws = await h.workspace();
  return { h, ws, jobId: await job(ws) };
};

async function job(ws: TestWorkspace): Promise<string> {
  const res = await ws.api.post('/jobs', { name: 'Roof', address: '1 Main St' });
  expect(res.status).toBe(201);
  return res.body.id;
}

const noteIds = async (ws: TestWorkspace): Promise<string[]> =>
  (await ws.api.get('/notes')).body.data.map((n: { id: string }) => n.id);

describe('POST /notes', () => {
  test('answers 201 with the Note: no author through the API, url at the note on its job', async () => {
    const { h, ws, jobId } = await setup();
    const now = (await h.admin.get('/clock')).body.now;
    const res = await ws.api.post('/notes', { job_id: jobId, content: 'Shingles on order' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      object: 'note',
      job_id: jobId,
      content: 'Shingles on order',
      author_id: null,
      author_name: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updated_at: res.body.created_at,
      url: `http://localhost/jobs/${jobId}#note-${res.body.id}`,
    });
    expect(Date.parse(res.body.created_at)).toBeGreaterThanOrEqual(Date.parse(now));
    expect((await ws.api.get(`/notes/${res.body.id}`)).body).toEqual(res.body);
  });

  // decisions.md, Notes: content is stored as sent
  test.each([['  padded  '], ['line one\nline two\n'], ['émoji 🏠 and "quotes" <b>tags</b>']])(
    'content %j is stored exactly as sent',
    async (content) => {
      const { ws, jobId } = await setup();
      const res = await ws.api.post('/notes', { job_id: jobId, content });
      expect(res.status).toBe(201);
      expect(res.body.content).toBe(content);
    },
  );

  // spec, Limits: note content up to 10000 characters
  test('content of exactly 10,000 characters is accepted whole', async () => {
    const { ws, jobId } = await setup();
    const content = 'x'.repeat(10_000);
    const res = await ws.api.post('/notes', { job_id: jobId, content });
    expect(res.status).toBe(201);
    expect(res.body.content).toBe(content);
  });

  // Characters, as JSON Schema's maxLength counts them: an emoji is one, not two UTF-16 units.
  test('content of 10,000 emoji is 10,000 characters: accepted; 10,001 is not', async () => {
    const { ws, jobId } = await setup();
    const content = '🏠'.repeat(10_000);
    const res = await ws.api.post('/notes', { job_id: jobId, content });
    expect(res.status).toBe(201);
    expect(res.body.content).toBe(content);
    const over = await ws.api.post(
      '/notes',
      { job_id: jobId, content: `${content}🏠` },
      { invalid: true },
    );
    expect(over.status).toBe(400);
    expect(over.body.error).toMatchObject({ code: 'invalid_request', field: 'content' });
  });

  test('a read-only key is 403 forbidden and writes nothing', async () => {
    const { ws, jobId } = await setup();
    const res = await ws.read.post('/notes', { job_id: jobId, content: 'hello' });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('forbidden');
    expect(await noteIds(ws)).toEqual([]);
  });
});

describe('POST /notes: 400 invalid_request naming the field, nothing written', () => {
  // 'JOB' stands for the test's own job, made after the table is read.
  test.each<[Record<string, unknown>, string]>([
    [{ content: 'hello' }, 'job_id'],
    [{ job_id: 'JOB' }, 'content'],
    [{ job_id: 'JOB', content: 'x'.repeat(10_001) }, 'content'],
    [{ job_id: 'JOB', content: '' }, 'content'],
    [{ job_id: 'JOB', content: '   ' }, 'content'],
    [{ job_id: 'JOB', content: '\n\t \r\n' }, 'content'],
    [{ job_id: 'JOB', content: 42 }, 'content'],
    [{ job_id: 'JOB', content: null }, 'content'],
    [{ job_id: 'not-a-uuid', content: 'hello' }, 'job_id'],
    [{ job_id: null, content: 'hello' }, 'job_id'],
  ])('%j is 400 field %s', async (body, field) => {
    const { ws, jobId } = await setup();
    const sent = { ...body, ...(body.job_id === 'JOB' ? { job_id: jobId } : {}) };
    const res = await ws.api.post('/notes', sent, { invalid: true });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field });
    expect(await noteIds(ws)).toEqual([]);
  });

  test('a job_id naming no job is 400 field job_id', async () => {
    const { ws } = await setup();
    const res = await ws.api.post('/notes', { job_id: crypto.randomUUID(), content: 'hello' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'job_id' });
    expect(await noteIds(ws)).toEqual([]);
  });

  test('a job_id naming a deleted job is 400 field job_id', async () => {
    const { ws, jobId } = await setup();
    await ws.api.delete(`/jobs/${jobId}`);
    const res = await ws.api.post('/notes', { job_id: jobId, content: 'hello' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'job_id' });
  });

  test("a job_id naming another workspace's job is 400 field job_id, and it gets no note", async () => {
    const { h, ws } = await setup();
    const other = await h.workspace();
    const theirs = await job(other);
    const res = await ws.api.post('/notes', { job_id: theirs, content: 'hello' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'job_id' });
    expect(await noteIds(other)).toEqual([]);
  });
});
