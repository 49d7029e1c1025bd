import { describe, expect, test } from 'vitest';
import {
  expectError,
  form,
  fresh,
  incomingOf,
  newJob,
  ok,
  photo,
  storedFor,
  UNKNOWN,
  upload,
} from './setup';

// POST /files as multipart/form-data, the form's own rules: decisions.md, Files (its fields, one
// file a request, the defaults of category and name, what is refused and that nothing refused is
// kept).

describe('the form', () => {
  test('category defaults to photo for an image and document otherwise; one sent is kept', async () => {
    const { ws } = await fresh();
    const scope = await ok(upload(ws, { category: 'scope' }, { bytes: photo() }), 201);
    expect(scope.category).toBe('scope');
    const doc = await ok(upload(ws, {}, { bytes: new TextEncoder().encode('hi') }), 201);
    expect(doc.category).toBe('document');
  });

  test('a category outside the six is 400 naming category, and nothing is kept', async () => {
    const { h, ws } = await fresh();
    expectError(
      await upload(ws, { category: 'selfie' }, { bytes: photo() }),
      400,
      'invalid_request',
      'category',
    );
    expect(storedFor(h, ws)).toEqual([]);
    expect(incomingOf(h)).toEqual([]);
  });

  test('a job_id of no job of the workspace is 400 naming job_id, and nothing is kept', async () => {
    const { h, ws } = await fresh();
    const other = await fresh();
    const theirs = await newJob(other.ws);
    for (const jobId of [UNKNOWN, theirs.id]) {
      const res = await upload(ws, { job_id: jobId }, { bytes: photo() });
      expectError(res, 400, 'invalid_request', 'job_id');
    }
    expectError(
      await upload(ws, { job_id: 'nope' }, { bytes: photo() }),
      400,
      'invalid_request',
      'job_id',
    );
    expect(storedFor(h, ws)).toEqual([]);
    expect(incomingOf(h)).toEqual([]);
  });

  test('a deleted job takes no files', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    await ok(ws.api.delete(`/jobs/${job.id}`));
    expectError(
      await upload(ws, { job_id: job.id }, { bytes: photo() }),
      400,
      'invalid_request',
      'job_id',
    );
  });

  test('fields may come after the file', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    const boundary = 'svc-test-boundary';
    const parts = [
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="late.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="job_id"\r\n\r\n${job.id}\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="category"\r\n\r\nscope\r\n`,
      `--${boundary}--\r\n`,
    ];
    const res = await ws.api.raw('POST', '/files', {
      body: parts.join(''),
      headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(await ok(res, 201)).toMatchObject({
      job_id: job.id,
      category: 'scope',
      name: 'late.txt',
    });
  });

  test.each([
    ['repeated fields', { tags: ['hail', 'north'] }, ['hail', 'north']],
    ['one comma-separated field', { tags: 'hail, north,,hail' }, ['hail', 'north']],
    ['a JSON array', { tags: '["hail","north"]' }, ['hail', 'north']],
    ['tags[] fields', { 'tags[]': ['hail', 'north'] }, ['hail', 'north']],
  ])('tags as %s', async (_name, fields, tags) => {
    const { ws } = await fresh();
    expect((await ok(upload(ws, fields, { bytes: photo() }), 201)).tags).toEqual(tags);
  });

  test('tags that start as JSON but are no array of strings are 400 naming tags', async () => {
    const { ws } = await fresh();
    expectError(
      await upload(ws, { tags: '["a", 1]' }, { bytes: photo() }),
      400,
      'invalid_request',
      'tags',
    );
  });

  test("the name is the part's filename (its last path segment), unless a name field says otherwise", async () => {
    const { ws } = await fresh();
    const fromPath = await ok(
      upload(ws, {}, { bytes: photo(), filename: 'C:\\photos\\roof.jpg' }),
      201,
    );
    expect(fromPath.name).toBe('roof.jpg');
    const named = await ok(
      upload(ws, { name: 'Front elevation' }, { bytes: photo(), filename: 'x.jpg' }),
      201,
    );
    expect(named.name).toBe('Front elevation');
    const utf8 = await ok(upload(ws, {}, { bytes: photo(), filename: 'façade ☂.jpg' }), 201);
    expect(utf8.name).toBe('façade ☂.jpg');
  });

  test('empty fields of an HTML form say nothing', async () => {
    const { ws } = await fresh();
    const file = await ok(
      upload(
        ws,
        { job_id: '', category: '', description: '', name: '' },
        { bytes: photo(), filename: 'a.jpg' },
      ),
      201,
    );
    expect(file).toMatchObject({
      job_id: null,
      category: 'photo',
      description: null,
      name: 'a.jpg',
    });
  });

  test('a field sent twice is 400 naming it', async () => {
    const { ws } = await fresh();
    expectError(
      await upload(ws, { category: ['photo', 'scope'] }, { bytes: photo() }),
      400,
      'invalid_request',
      'category',
    );
  });

  test('a description over 1,000 characters is 400 naming description', async () => {
    const { ws } = await fresh();
    const res = await upload(ws, { description: 'x'.repeat(1001) }, { bytes: photo() });
    expectError(res, 400, 'invalid_request', 'description');
  });

  test('no file part is 400 naming file; so is an empty file input (no filename, no bytes)', async () => {
    const { h, ws } = await fresh();
    expectError(await upload(ws, { category: 'photo' }), 400, 'invalid_request', 'file');
    const boundary = 'b0';
    const empty = [
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename=""\r\nContent-Type: application/octet-stream\r\n\r\n\r\n`,
      `--${boundary}--\r\n`,
    ].join('');
    const res = await ws.api.raw('POST', '/files', {
      body: empty,
      headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
    });
    expectError(res, 400, 'invalid_request', 'file');
    expect(incomingOf(h)).toEqual([]);
  });

  test('a second file, or a file in another part, is 400 naming the part; nothing is kept', async () => {
    const { h, ws } = await fresh();
    const twice = await upload(ws, {}, { bytes: photo() }, { bytes: photo() });
    expectError(twice, 400, 'invalid_request', 'file');
    const elsewhere = await upload(ws, {}, { bytes: photo(), field: 'photo' });
    expectError(elsewhere, 400, 'invalid_request', 'photo');
    expect(storedFor(h, ws)).toEqual([]);
    expect(incomingOf(h)).toEqual([]);
  });

  test('a malformed body (cut before its closing boundary) is 400, and nothing is kept', async () => {
    const { h, ws } = await fresh();
    const body = `--b1\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhello`;
    const res = await ws.api.raw('POST', '/files', {
      body,
      headers: { 'Content-Type': 'multipart/form-data; boundary=b1' },
    });
    expectError(res, 400, 'invalid_request');
    expect(storedFor(h, ws)).toEqual([]);
    expect(incomingOf(h)).toEqual([]);
  });

  test('multipart without a boundary is 400 naming Content-Type', async () => {
    const { ws } = await fresh();
    const res = await ws.api.raw('POST', '/files', {
      body: 'x',
      headers: { 'Content-Type': 'multipart/form-data' },
    });
    expectError(res, 400, 'invalid_request', 'Content-Type');
  });

  test('a body that is neither multipart nor JSON is 400, not 415', async () => {
    const { ws } = await fresh();
    const res = await ws.api.raw('POST', '/files', {
      body: 'hello',
      headers: { 'Content-Type': 'text/plain' },
    });
    expectError(res, 400, 'invalid_request');
  });

  test('a read-only key is 403 forbidden, and nothing is kept', async () => {
    const { h, ws } = await fresh();
    const { body, type } = await form({}, { bytes: photo() });
    const res = await ws.read.raw('POST', '/files', { body, headers: { 'Content-Type': type } });
    expectError(res, 403, 'forbidden');
    expect(storedFor(h, ws)).toEqual([]);
    expect(incomingOf(h)).toEqual([]);
  });

  test('the media type is case-insensitive: Multipart/Form-Data is an upload like any', async () => {
    const { ws } = await fresh();
    const { body, type } = await form({}, { bytes: photo(), filename: 'roof.jpg' });
    for (const shout of [
      type.replace('multipart/form-data', 'Multipart/Form-Data'),
      type.toUpperCase().replace(/BOUNDARY=.*/, type.slice(type.indexOf('boundary='))),
    ]) {
      const res = await ws.api.raw('POST', '/files', { body, headers: { 'Content-Type': shout } });
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({ name: 'roof.jpg', mime_type: 'image/jpeg' });
    }
  });

  test('a file part with no filename and no type (curl -F file=<notes.txt) is the file, named file', async () => {
    const { ws } = await fresh();
    const boundary = 'no-filename';
    const body = new TextEncoder().encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"\r\n\r\nhello roof\r\n--${boundary}--\r\n`,
    );
    const res = await ws.api.raw('POST', '/files', {
      body,
      headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ name: 'file', size_bytes: 10, mime_type: 'text/plain' });
  });

  test('a name sent keeps no control characters', async () => {
    const { ws } = await fresh();
    const made = await ok(
      upload(ws, { name: 'evil\r\nX-Evil: 1\u0000.txt' }, { bytes: photo() }),
      201,
    );
    expect(made.name).toBe('evilX-Evil: 1.txt');
  });

  test('a tags value that is JSON but no array of strings is 400 naming tags', async () => {
    const { ws } = await fresh();
    for (const tags of ['{"a":1}', '[1,2]']) {
      expectError(await upload(ws, { tags }, { bytes: photo() }), 400, 'invalid_request', 'tags');
    }
  });
});
