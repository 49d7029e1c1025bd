import { describe, expect, test } from 'vitest';
import type { Json } from '../support/harness';
import { idsIn, walkPages } from '../support/pages';
import { expectError, fresh, newJob, ok, photo, UNKNOWN, upload } from './setup';

// GET /files (spec, Files: limit, cursor, created_after, created_before; decisions.md, Files:
// job_id and category narrow it, as do the time filters every paged list takes) and
// GET /files/{id}.

const text = (t: string) => new TextEncoder().encode(t);

describe('GET /files', () => {
  test('newest first, paged by cursor to the last page', async () => {
    const { ws } = await fresh();
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      made.push((await ok(upload(ws, {}, { bytes: text(`f${i}`) }), 201)).id);
    }
    const walked = await walkPages(ws.api, '/files', { limit: 2 });
    expect(walked.pages).toBe(3);
    expect(idsIn(walked.data)).toEqual(made.reverse());
  });

  test('job_id and category narrow the list, and combine', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    const photoOnJob = (await ok(upload(ws, { job_id: job.id }, { bytes: photo() }), 201)).id;
    const scopeOnJob = (
      await ok(upload(ws, { job_id: job.id, category: 'scope' }, { bytes: text('s') }), 201)
    ).id;
    const loose = (await ok(upload(ws, {}, { bytes: photo() }), 201)).id;
    const ids = async (query: Record<string, string>) =>
      (await ok(ws.api.get('/files', { query }))).data.map((f: Json) => f.id);
    expect(await ids({ job_id: job.id })).toEqual([scopeOnJob, photoOnJob]);
    expect(await ids({ category: 'photo' })).toEqual([loose, photoOnJob]);
    expect(await ids({ job_id: job.id, category: 'photo' })).toEqual([photoOnJob]);
    expect(await ids({ job_id: UNKNOWN })).toEqual([]);
    expect(idsIn((await ok(ws.api.get(`/jobs/${job.id}/photos`))).data)).toEqual([photoOnJob]);
  });

  test('a category outside the six, or a job_id that is no id, is 400 naming it', async () => {
    const { ws } = await fresh();
    expectError(
      await ws.api.get('/files', { query: { category: 'selfie' }, invalid: true }),
      400,
      'invalid_request',
      'category',
    );
    expectError(
      await ws.api.get('/files', { query: { job_id: 'x' }, invalid: true }),
      400,
      'invalid_request',
      'job_id',
    );
  });

  test('created_after and created_before narrow by when the file was added', async () => {
    const { h, ws } = await fresh();
    const first = await ok(upload(ws, {}, { bytes: text('a') }), 201);
    await ok(h.admin.post('/clock', { advance_seconds: 60 }));
    const second = await ok(upload(ws, {}, { bytes: text('b') }), 201);
    const ids = async (query: Record<string, string>) =>
      (await ok(ws.api.get('/files', { query }))).data.map((f: Json) => f.id);
    expect(await ids({ created_after: second.created_at })).toEqual([second.id]);
    expect(await ids({ created_before: second.created_at })).toEqual([first.id]);
    expect(await ids({ updated_since: second.created_at })).toEqual([second.id]);
  });

  test("the files of a deleted job leave the list; another workspace's never show", async () => {
    const { ws } = await fresh();
    const other = await fresh();
    const job = await newJob(ws);
    await ok(upload(ws, { job_id: job.id }, { bytes: photo() }), 201);
    const theirs = await ok(upload(other.ws, {}, { bytes: photo() }), 201);
    await ok(ws.api.delete(`/jobs/${job.id}`));
    expect((await ok(ws.api.get('/files'))).data).toEqual([]);
    expectError(await ws.api.get(`/files/${theirs.id}`), 404, 'not_found');
  });

  test('a read-only key lists and reads files', async () => {
    const { ws } = await fresh();
    const file = await ok(upload(ws, {}, { bytes: photo() }), 201);
    expect((await ok(ws.read.get('/files'))).data).toHaveLength(1);
    expect((await ok(ws.read.get(`/files/${file.id}`))).id).toBe(file.id);
  });
});

describe('GET /files/{id}', () => {
  test('an id in upper case names the same file; an unknown or malformed id is 404', async () => {
    const { ws } = await fresh();
    const file = await ok(upload(ws, {}, { bytes: photo() }), 201);
    expect((await ok(ws.api.get(`/files/${file.id.toUpperCase()}`))).id).toBe(file.id);
    expectError(await ws.api.get(`/files/${UNKNOWN}`), 404, 'not_found');
    expectError(await ws.api.get('/files/not-an-id'), 404, 'not_found');
  });

  test('PATCH and DELETE are 405 with Allow', async () => {
    const { ws } = await fresh();
    const file = await ok(upload(ws, {}, { bytes: photo() }), 201);
    const res = await ws.api.delete(`/files/${file.id}`);
    expectError(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')).toBe('GET, HEAD');
  });

  test('without a credential it is 401', async () => {
    const { h, ws } = await fresh();
    const file = await ok(upload(ws, {}, { bytes: photo() }), 201);
    expectError(await h.anonymous.get(`/files/${file.id}`), 401, 'unauthorized');
    expectError(await h.anonymous.get('/files'), 401, 'unauthorized');
  });
});
