import { describe, expect, test } from 'vitest';
import { download, fresh, photo, upload } from '../files/setup';
import { ok } from '../support/expect';
import { put, snapshotOf } from './setup';

describe('uploaded bytes travel with a snapshot', () => {
  test('a workspace made from a snapshot downloads the same bytes', async () => {
    const { h, ws } = await fresh();
    const bytes = photo();
    const file = await ok(upload(ws, {}, { bytes, filename: 'roof.jpg', type: 'image/jpeg' }), 201);
    const snap = await snapshotOf(h, ws.id);
    expect(Buffer.from(snap.file_bytes[file.id], 'base64')).toEqual(Buffer.from(bytes));
    const made = await ok(h.admin.post('/workspaces', { snapshot: snap }), 201);
    const copies = (await h.as(made.keys.write.key).get('/files')).body.data;
    expect(copies).toHaveLength(1);
    expect(copies[0].id).not.toBe(file.id);
    const res = await download(h, copies[0].download_url);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(Buffer.from(bytes));
  });

  test('file_bytes naming no file of the snapshot is 400, field file_bytes.<id>', async () => {
    const { h, ws } = await fresh();
    const snap = await snapshotOf(h, ws.id);
    const stray = '7b0c5b2e-5d2a-4b43-9d59-6a1f0b7f5a11';
    const res = await put(h, `/workspaces/${ws.id}/snapshot`, {
      ...snap,
      file_bytes: { [stray]: 'AAAA' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: `file_bytes.${stray}` });
  });
});
