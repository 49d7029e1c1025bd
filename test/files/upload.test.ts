import { describe, expect, test } from 'vitest';
import {
  binary,
  CAP,
  download,
  expectError,
  fresh,
  incomingOf,
  newJob,
  ok,
  PHOTO_TAKEN_AT,
  photo,
  sameBytes,
  storedFor,
  upload,
} from './setup';

// POST /files as multipart/form-data: spec, File and Files (25 MB, 413 payload_too_large);
// decisions.md, Files (the form's fields, the defaults, what is read from the bytes).

/** An instant as wall-clock time in a zone, `YYYY-MM-DDTHH:MM:SS`. */
function wallClockIn(zone: string, ms: number): string {
  return new Date(ms).toLocaleString('sv-SE', { timeZone: zone }).replace(' ', 'T');
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('a multipart upload', () => {
  test('201 with the File: type, size, position and time read from the photo, the form as sent', async () => {
    const { h, ws } = await fresh();
    const job = await newJob(ws);
    const bytes = photo();
    const res = await upload(
      ws,
      { job_id: job.id, description: 'North slope', tags: ['hail', 'north'] },
      { bytes, filename: 'roof-north.jpg', type: 'image/jpeg' },
    );
    const file = await ok(res, 201);
    expect(file).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      object: 'file',
      job_id: job.id,
      name: 'roof-north.jpg',
      category: 'photo',
      mime_type: 'image/jpeg',
      is_photo: true,
      is_video: false,
      size_bytes: bytes.length,
      description: 'North slope',
      tags: ['hail', 'north'],
      latitude: 32.776664,
      longitude: -96.796988,
      taken_at: PHOTO_TAKEN_AT,
      uploaded_by_id: null,
      uploaded_by_name: null,
      download_url: expect.stringMatching(
        new RegExp(`^http://localhost/files/${file.id}/download\\?expires=\\d+&signature=[\\w-]+$`),
      ),
      created_at: expect.stringMatching(ISO),
      url: `http://localhost/files/${file.id}`,
    });
    expect(await ok(ws.api.get(`/files/${file.id}`))).toEqual(file);
    expect(storedFor(h, ws)).toEqual([file.id]);
    expect(incomingOf(h)).toEqual([]);
  });

  test('download_url answers the same bytes, typed, without any credential', async () => {
    const { h, ws } = await fresh();
    const bytes = photo();
    const file = await ok(upload(ws, {}, { bytes, filename: 'roof.jpg' }), 201);
    const res = await download(h, file.download_url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('content-length')).toBe(String(bytes.length));
    expect(res.headers.get('content-disposition')).toBe(
      `inline; filename="roof.jpg"; filename*=UTF-8''roof.jpg`,
    );
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(sameBytes(new Uint8Array(await res.arrayBuffer()), bytes)).toBe(true);
  });

  test('a file on no job: job_id null, listed by GET /files', async () => {
    const { ws } = await fresh();
    const file = await ok(upload(ws, {}, { bytes: photo() }), 201);
    expect(file.job_id).toBeNull();
    const listed = await ok(ws.api.get('/files'));
    expect(listed.data.map((f: { id: string }) => f.id)).toEqual([file.id]);
  });

  test('0 bytes is a file: size 0, no type, a document', async () => {
    const { h, ws } = await fresh();
    const file = await ok(upload(ws, {}, { bytes: new Uint8Array(0), filename: 'empty.txt' }), 201);
    expect(file).toMatchObject({
      name: 'empty.txt',
      size_bytes: 0,
      mime_type: null,
      is_photo: false,
      category: 'document',
    });
    const res = await download(h, file.download_url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('content-length')).toBe('0');
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });

  test('exactly 25 MB (25 × 2^20 bytes) is taken whole', async () => {
    const { h, ws } = await fresh();
    const bytes = binary(CAP);
    const file = await ok(upload(ws, {}, { bytes, filename: 'big.bin' }), 201);
    expect(file.size_bytes).toBe(CAP);
    const res = await download(h, file.download_url);
    expect(res.headers.get('content-length')).toBe(String(CAP));
    expect(sameBytes(new Uint8Array(await res.arrayBuffer()), bytes)).toBe(true);
  });

  test('25 MB and one byte is 413 payload_too_large, and nothing of it is kept', async () => {
    const { h, ws } = await fresh();
    const res = await upload(ws, {}, { bytes: binary(CAP + 1), filename: 'big.bin' });
    expectError(res, 413, 'payload_too_large');
    expect(await ok(ws.api.get('/files'))).toMatchObject({ data: [] });
    expect(storedFor(h, ws)).toEqual([]);
    expect(incomingOf(h)).toEqual([]);
  });
});

describe('what svc reads from the bytes', () => {
  test('mime_type comes from the bytes, not from the type the part declared', async () => {
    const { ws } = await fresh();
    const file = await ok(
      upload(ws, {}, { bytes: photo(), filename: 'scan.pdf', type: 'application/pdf' }),
      201,
    );
    expect(file).toMatchObject({ name: 'scan.pdf', mime_type: 'image/jpeg', is_photo: true });
  });

  test.each([
    [
      'text with no declared type is text/plain',
      'a,b\n1,2\n',
      'application/octet-stream',
      'text/plain',
    ],
    ['text declared as a text type keeps it', 'a,b\n1,2\n', 'text/csv', 'text/csv'],
    ['text declared as JSON keeps it', '{"a":1}', 'application/json', 'application/json'],
    [
      'text declared as a binary type is text/plain',
      'hello',
      'application/x-msdownload',
      'text/plain',
    ],
  ])('%s', async (_name, text, declared, expected) => {
    const { ws } = await fresh();
    const bytes = new TextEncoder().encode(text);
    const file = await ok(upload(ws, {}, { bytes, filename: 'data', type: declared }), 201);
    expect(file).toMatchObject({ mime_type: expected, is_photo: false, category: 'document' });
  });

  test('bytes no sniffer knows, and no text, have no type: a client is not taken at its word', async () => {
    const { ws } = await fresh();
    const file = await ok(
      upload(ws, {}, { bytes: binary(300), filename: 'x.png', type: 'image/png' }),
      201,
    );
    expect(file).toMatchObject({ mime_type: null, is_photo: false, category: 'document' });
  });

  test('a photo without EXIF has no position and no time', async () => {
    const { ws } = await fresh();
    const file = await ok(upload(ws, {}, { bytes: photo({}), filename: 'plain.jpg' }), 201);
    expect(file).toMatchObject({ latitude: null, longitude: null, taken_at: null, is_photo: true });
  });

  test('an EXIF time without an offset is read in the workspace time zone', async () => {
    const { h, ws } = await fresh();
    const zone = h.rt.store.global.get('workspaces', ws.id)?.timezone ?? '';
    expect(zone).toMatch(/^America\//); // behind UTC: a time read as UTC would show otherwise
    for (const wall of ['2026-01-15T09:30:00', '2026-07-15T09:30:00']) {
      const exif = { dateTimeOriginal: wall.replaceAll('-', ':').replace('T', ' ') };
      const file = await ok(upload(ws, {}, { bytes: photo(exif) }), 201);
      expect(wallClockIn(zone, Date.parse(file.taken_at))).toBe(wall);
    }
  });

  test('an EXIF position of 0, 0 (a camera without a fix) is no position', async () => {
    const { ws } = await fresh();
    const bytes = photo({ latitude: 0, longitude: 0 });
    const file = await ok(upload(ws, {}, { bytes }), 201);
    expect(file).toMatchObject({ latitude: null, longitude: null });
  });

  test('a southern, western position keeps its signs', async () => {
    const { ws } = await fresh();
    const bytes = photo({ latitude: -33.865143, longitude: -151.2099 });
    const file = await ok(upload(ws, {}, { bytes }), 201);
    expect(file).toMatchObject({ latitude: -33.865143, longitude: -151.2099 });
  });
});
