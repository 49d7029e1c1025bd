import { describe, expect, test } from 'vitest';
import {
  advance,
  setup as hookSetup,
  newJob,
  ok,
  one,
  recordOf,
  subscribe,
  UUID,
} from '../webhooks/setup';
import { form, photo } from './setup';

// spec, Events: file.created carries the File as GET returns it, filtered by category; it is
// raised from the data change itself (decisions.md, Events), so an upload fires it once.

async function uploaded(
  c: Awaited<ReturnType<typeof hookSetup>>,
  fields: Record<string, string>,
  bytes = photo(),
) {
  const { body, type } = await form(fields, { bytes, filename: 'roof.jpg' });
  return ok(c.ws.api.raw('POST', '/files', { body, headers: { 'Content-Type': type } }), 201);
}

describe('file.created', () => {
  test('carries the file as GET /files/{id} shows it', async () => {
    const c = await hookSetup();
    const job = await newJob(c.ws);
    await subscribe(c, 'file.created');
    const file = await uploaded(c, { job_id: job.id, description: 'North slope' });
    await advance(c.h, 0);
    const body = one(c.rx, 'file.created').json;
    const got = await ok(c.ws.api.get(`/files/${file.id}`));
    // The link is signed afresh for each answer (the same within the hour it is made in).
    const { download_url: sentLink, ...sent } = recordOf(body);
    const { download_url: _link, ...shown } = got;
    expect(sent).toEqual(shown);
    expect(new URL(sentLink).pathname).toBe(`/files/${file.id}/download`);
    expect(body).toMatchObject({
      event_type: 'file.created',
      event_id: expect.stringMatching(UUID),
      event_workspace_id: c.ws.id,
      category: 'photo',
    });
  });

  test('a category filter lets through only files of that category', async () => {
    const c = await hookSetup();
    await subscribe(c, 'file.created', { category: 'scope' });
    await uploaded(c, {});
    const scope = await uploaded(c, { category: 'scope' }, new TextEncoder().encode('scope'));
    await advance(c.h, 0);
    expect(one(c.rx, 'file.created').json.id).toBe(scope.id);
  });

  test('an upload refused fires nothing', async () => {
    const c = await hookSetup();
    await subscribe(c, 'file.created');
    const { body, type } = await form({ category: 'selfie' }, { bytes: photo() });
    const res = await c.ws.api.raw('POST', '/files', { body, headers: { 'Content-Type': type } });
    expect(res.status).toBe(400);
    await advance(c.h, 0);
    expect(c.rx.received).toEqual([]);
  });

  test('samples are the newest files, as deliveries of file.created', async () => {
    const c = await hookSetup();
    const files = [];
    for (let i = 0; i < 4; i++) {
      files.push(await uploaded(c, {}));
    }
    const samples = await ok(c.ws.api.get('/webhooks/samples/file.created'));
    expect(samples.data.map((s: { id: string }) => s.id)).toEqual(
      files
        .slice(1)
        .reverse()
        .map((f) => f.id),
    );
    expect(samples.data[0]).toMatchObject({ event_type: 'file.created', object: 'file' });
  });
});
