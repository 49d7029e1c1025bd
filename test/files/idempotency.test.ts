import { describe, expect, test } from 'vitest';
import type { TestWorkspace } from '../support/harness';
import { binary, CAP, expectError, form, fresh, incomingOf, ok, photo, storedFor } from './setup';

// spec, Limits: Idempotency-Key on POST; decisions.md, Idempotency: a multipart upload is
// fingerprinted as it streams, by what it says (its fields, its file's name, type and bytes), so
// a retry that a client library encodes afresh, with a boundary of its own, is the same request.

async function keyed(
  ws: TestWorkspace,
  key: string,
  fields: Record<string, string>,
  bytes: Uint8Array,
  boundary?: string,
) {
  let { body, type } = await form(fields, { bytes, filename: 'roof.jpg', type: 'image/jpeg' });
  if (boundary !== undefined) {
    const old = type.split('boundary=')[1] ?? '';
    body = new Uint8Array(
      Buffer.from(Buffer.from(body).toString('latin1').replaceAll(old, boundary), 'latin1'),
    );
    type = `multipart/form-data; boundary=${boundary}`;
  }
  return ws.api.raw('POST', '/files', {
    body,
    headers: { 'Content-Type': type, 'Idempotency-Key': key },
  });
}

describe('Idempotency-Key on an upload', () => {
  test('a retry encoded afresh (another boundary) is replayed, and kept once', async () => {
    const { h, ws } = await fresh();
    const first = await keyed(ws, 'up-1', { tags: 'hail' }, photo(), 'first-boundary');
    expect(first.status).toBe(201);
    const again = await keyed(ws, 'up-1', { tags: 'hail' }, photo(), 'another-boundary-entirely');
    expect(again.status).toBe(201);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(storedFor(h, ws)).toEqual([first.body.id]);
    expect((await ok(ws.api.get('/files'))).data).toHaveLength(1);
  });

  test('the same key with other bytes, or another field, is 409 and keeps nothing', async () => {
    const { h, ws } = await fresh();
    await ok(keyed(ws, 'up-2', { tags: 'hail' }, photo()), 201);
    const otherBytes = await keyed(ws, 'up-2', { tags: 'hail' }, photo({}));
    expectError(otherBytes, 409, 'conflict', 'Idempotency-Key');
    const otherField = await keyed(ws, 'up-2', { tags: 'wind' }, photo());
    expectError(otherField, 409, 'conflict', 'Idempotency-Key');
    expect(storedFor(h, ws)).toHaveLength(1);
    expect(incomingOf(h)).toEqual([]);
  });

  test('an upload refused part-way (413) is not remembered: the key is free for the retry', async () => {
    const { ws } = await fresh();
    expectError(await keyed(ws, 'up-3', {}, binary(CAP + 1)), 413, 'payload_too_large');
    const retry = await keyed(ws, 'up-3', {}, photo());
    expect(retry.status).toBe(201);
    expect(retry.headers.get('Idempotent-Replayed')).toBeNull();
  });

  test('an upload refused after its body was read (400) is remembered and replayed', async () => {
    const { ws } = await fresh();
    const first = await keyed(ws, 'up-4', { category: 'selfie' }, photo());
    expectError(first, 400, 'invalid_request', 'category');
    const again = await keyed(ws, 'up-4', { category: 'selfie' }, photo());
    expectError(again, 400, 'invalid_request', 'category');
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
  });

  test('a keyed upload of exactly 25 MB is taken and replayed', async () => {
    const { ws } = await fresh();
    const bytes = binary(CAP);
    const first = await keyed(ws, 'up-5', {}, bytes);
    expect(first.status).toBe(201);
    const again = await keyed(ws, 'up-5', {}, bytes, 'b2');
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.body.id).toBe(first.body.id);
  });

  test('a JSON upload from a URL is keyed as any JSON body is', async () => {
    const { ws } = await fresh();
    const body = { url: 'https://127.0.0.1/x.jpg' };
    const first = await ws.api.post('/files', body, { headers: { 'Idempotency-Key': 'up-6' } });
    expectError(first, 400, 'invalid_request', 'url');
    const again = await ws.api.post('/files', body, { headers: { 'Idempotency-Key': 'up-6' } });
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
  });
});
