import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { filesDirOf } from '../../src/platform/files/storage';
import { requestLogFiles } from '../../src/platform/request-log';
import { LINK_WINDOW_MS } from '../../src/resources/files/links';
import { Store } from '../../src/store';
import { harness } from '../support/harness';
import {
  download,
  eventually,
  expectError,
  filesUnder,
  fresh,
  newJob,
  ok,
  photo,
  sameBytes,
  upload,
} from './setup';

// decisions.md, Files: download_url is a signed link on the web app's origin, valid one to two
// hours on the clock; an expired or forged link is 403 forbidden, an unknown file 404.

const HOUR = LINK_WINDOW_MS / 1000;

async function errorOf(res: Response): Promise<{ code: string; message: string }> {
  const body = (await res.json()) as { error: { code: string; message: string } };
  return body.error;
}

describe('a download link', () => {
  test('is refused, 403 forbidden, once the clock passes its expiry (one to two hours)', async () => {
    const { h, ws } = await fresh();
    const file = await ok(upload(ws, {}, { bytes: photo() }), 201);
    const expires = Number(new URL(file.download_url).searchParams.get('expires')) * 1000;
    const now = Date.parse((await ok(h.admin.get('/clock'))).now);
    expect(expires - now).toBeGreaterThan(LINK_WINDOW_MS - 1000);
    expect(expires - now).toBeLessThanOrEqual(2 * LINK_WINDOW_MS);
    await ok(h.admin.post('/clock', { set: new Date(expires - 1000).toISOString() }));
    expect((await download(h, file.download_url)).status).toBe(200);
    await ok(h.admin.post('/clock', { advance_seconds: 1 }));
    const late = await download(h, file.download_url);
    expect(late.status).toBe(403);
    expect(await errorOf(late)).toMatchObject({
      code: 'forbidden',
      message: expect.stringContaining('expired'),
    });
  });

  test('a GET after the clock moves answers a fresh link that works', async () => {
    const { h, ws } = await fresh();
    const file = await ok(upload(ws, {}, { bytes: photo() }), 201);
    // Read it (its JSON text kept), then move the clock past every link made so far.
    expect((await ok(ws.api.get(`/files/${file.id}`))).download_url).toBe(file.download_url);
    await ok(h.admin.post('/clock', { advance_seconds: 3 * HOUR }));
    expect((await download(h, file.download_url)).status).toBe(403);
    for (const read of [
      await ok(ws.api.get(`/files/${file.id}`)),
      (await ok(ws.api.get('/files'))).data[0],
    ]) {
      expect(read.download_url).not.toBe(file.download_url);
      expect((await download(h, read.download_url)).status).toBe(200);
    }
  });

  test('works without any credential, and a key sent along changes nothing', async () => {
    const { h, ws } = await fresh();
    const file = await ok(upload(ws, {}, { bytes: photo() }), 201);
    const res = await h.app.request(file.download_url, {
      headers: { Authorization: `Bearer ${ws.keys.read.key}` },
    });
    expect(res.status).toBe(200);
  });

  test.each([
    ['an altered signature', (u: URL) => u.searchParams.set('signature', 'A'.repeat(43))],
    [
      'an expiry moved later',
      (u: URL) =>
        u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + HOUR)),
    ],
    ['no signature', (u: URL) => u.searchParams.delete('signature')],
    ['no expiry', (u: URL) => u.searchParams.delete('expires')],
    ['an expiry that is no number', (u: URL) => u.searchParams.set('expires', 'soon')],
  ])('is 403 forbidden with %s', async (_name, alter) => {
    const { h, ws } = await fresh();
    const file = await ok(upload(ws, {}, { bytes: photo() }), 201);
    const url = new URL(file.download_url);
    alter(url);
    const res = await download(h, url.href);
    expect(res.status).toBe(403);
    expect((await errorOf(res)).code).toBe('forbidden');
  });

  test("one file's signature opens no other file", async () => {
    const { h, ws } = await fresh();
    const a = await ok(upload(ws, {}, { bytes: photo() }), 201);
    const b = await ok(upload(ws, {}, { bytes: photo({}) }), 201);
    const borrowed = new URL(b.download_url);
    const forged = new URL(a.download_url);
    forged.pathname = borrowed.pathname;
    expect((await download(h, forged.href)).status).toBe(403);
  });

  test('of an unknown file is 404 not_found', async () => {
    const { h } = await fresh();
    const res = await download(
      h,
      '/files/7b0c5b2e-5d2a-4b43-9d59-6a1f0b7f5a11/download?expires=1&signature=x',
    );
    expect(res.status).toBe(404);
    expect((await errorOf(res)).code).toBe('not_found');
    expect((await download(h, '/files/not-an-id/download')).status).toBe(404);
  });

  test('HEAD answers the headers alone', async () => {
    const { h, ws } = await fresh();
    const bytes = photo();
    const file = await ok(upload(ws, {}, { bytes }), 201);
    const res = await download(h, file.download_url, 'HEAD');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String(bytes.length));
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });

  test('another verb is 405 with Allow', async () => {
    const { h, ws } = await fresh();
    const file = await ok(upload(ws, {}, { bytes: photo() }), 201);
    const res = await download(h, file.download_url, 'POST');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
  });

  test('a type a browser could run as a page comes as an attachment, never sniffed', async () => {
    const { h, ws } = await fresh();
    const html = new TextEncoder().encode('<html><script>alert(1)</script></html>');
    const file = await ok(
      upload(ws, {}, { bytes: html, filename: 'x.html', type: 'text/html' }),
      201,
    );
    expect(file.mime_type).toBe('text/html');
    const res = await download(h, file.download_url);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; /);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBe('sandbox');
  });

  test('of a file on a deleted job is 404 until the job is restored', async () => {
    const { h, ws } = await fresh();
    const job = await newJob(ws);
    const file = await ok(upload(ws, { job_id: job.id }, { bytes: photo() }), 201);
    await ok(ws.api.delete(`/jobs/${job.id}`));
    expect((await download(h, file.download_url)).status).toBe(404);
    expectError(await ws.api.get(`/files/${file.id}`), 404, 'not_found');
    await ok(h.admin.post(`/jobs/${job.id}/restore`));
    expect((await download(h, file.download_url)).status).toBe(200);
  });
});

describe('bytes kept beside the data file', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
  });

  test('a link made before a restart of the same data file still opens the same bytes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-files-'));
    dirs.push(dir);
    const data = join(dir, 'data.json');
    const [log] = requestLogFiles(data);
    const bytes = photo();
    const first = harness(
      { rateLimit: null },
      { store: (await Store.open(data)).store, requestLogFile: log },
    );
    const ws = await first.workspace();
    const file = await ok(upload(ws, {}, { bytes, filename: 'kept.jpg' }), 201);
    expect(filesUnder(filesDirOf(data))).toEqual([join(ws.id, file.id)]);
    first.rt.scheduler.stop();
    await first.rt.store.close();

    const second = harness(
      { rateLimit: null },
      { store: (await Store.open(data)).store, requestLogFile: log },
    );
    const res = await download(second, file.download_url);
    expect(res.status).toBe(200);
    expect(sameBytes(new Uint8Array(await res.arrayBuffer()), bytes)).toBe(true);
    second.rt.scheduler.stop();
    await second.rt.store.close();
  });

  test("a job's purge after its 30 days removes its files' bytes", async () => {
    const { h, ws } = await fresh();
    const job = await newJob(ws);
    const file = await ok(upload(ws, { job_id: job.id }, { bytes: photo() }), 201);
    const kept = filesUnder(join(h.rt.files.root, ws.id));
    expect(kept).toEqual([file.id]);
    await ok(ws.api.delete(`/jobs/${job.id}`));
    await ok(h.admin.post('/clock', { advance_seconds: 29 * 24 * HOUR }));
    expect(filesUnder(join(h.rt.files.root, ws.id))).toEqual([file.id]); // still recoverable
    await ok(h.admin.post('/clock', { advance_seconds: 2 * 24 * HOUR }));
    expect(h.rt.store.workspace(ws.id).get('files', file.id)).toBeUndefined();
    await eventually(() => filesUnder(join(h.rt.files.root, ws.id)).length === 0);
  });
});
