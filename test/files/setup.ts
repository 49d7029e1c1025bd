// Shared by the file tests: one app per test file, a workspace of the test's own, multipart bodies
// built as a client library builds them (FormData), and a fixture photo made by svc's own JPEG
// writer with the EXIF a phone camera writes.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../../src/platform/config';
import { type ExifFields, writeJpeg } from '../../src/resources/files/jpeg';
import { expectError, ok } from '../support/expect';
import {
  type Harness,
  harness,
  type Json,
  type Reply,
  type TestWorkspace,
} from '../support/harness';

export { expectError, ok };

export const MB = 1024 * 1024;
/** decisions.md, Files: 25 MB is 25 × 2^20 bytes. */
export const CAP = 25 * MB;

/** A uuid no workspace holds. */
export const UNKNOWN = '7b0c5b2e-5d2a-4b43-9d59-6a1f0b7f5a11';

const apps = new Map<string, Harness>();

/** The file's shared app for `config` (no rate limit); every test makes its own workspace. */
export function app(config: Partial<Config> = {}): Harness {
  const key = JSON.stringify(config);
  let h = apps.get(key);
  if (!h) {
    h = harness({ rateLimit: null, ...config });
    apps.set(key, h);
  }
  return h;
}

export async function fresh(
  config: Partial<Config> = {},
): Promise<{ h: Harness; ws: TestWorkspace }> {
  const h = app(config);
  return { h, ws: await h.workspace() };
}

export const newJob = (ws: TestWorkspace, body: Record<string, unknown> = {}): Promise<Json> =>
  ok(ws.api.post('/jobs', { name: 'Hale roof', address: '418 Elm Street', ...body }), 201);

/** A file part of a form. */
export interface FilePart {
  bytes: Uint8Array;
  filename?: string;
  type?: string;
  /** The part's name: `file` unless told. */
  field?: string;
}

/** A multipart/form-data body as fetch would send it: its bytes and its Content-Type. */
export async function form(
  fields: Record<string, string | string[]>,
  ...files: FilePart[]
): Promise<{ body: Uint8Array; type: string }> {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    for (const v of Array.isArray(value) ? value : [value]) {
      data.append(name, v);
    }
  }
  for (const f of files) {
    const blob = new Blob([f.bytes], { type: f.type ?? 'application/octet-stream' });
    data.append(f.field ?? 'file', blob, f.filename ?? 'upload.bin');
  }
  const req = new Request('http://localhost/', { method: 'POST', body: data });
  return {
    body: new Uint8Array(await req.arrayBuffer()),
    type: req.headers.get('content-type') ?? '',
  };
}

/** POST /files of a multipart body (not checked against the document: Prism reads no form). */
export async function upload(
  ws: TestWorkspace,
  fields: Record<string, string | string[]>,
  ...files: FilePart[]
): Promise<Reply> {
  const { body, type } = await form(fields, ...files);
  return ws.api.raw('POST', '/files', { body, headers: { 'Content-Type': type } });
}

/** The fixture photo: 64 × 48, with the EXIF given (a position and a time by default). */
export function photo(exif: ExifFields = PHOTO_EXIF): Uint8Array {
  return new Uint8Array(
    writeJpeg({
      width: 64,
      height: 48,
      block: (bx, by) => [100 + bx * 10, 120 + by * 10, 200],
      exif,
    }),
  );
}

/** Where the fixture photo says it was taken: Dallas, on 14 May 2026 at 16:20:05 UTC. */
export const PHOTO_EXIF: ExifFields = {
  latitude: 32.776664,
  longitude: -96.796988,
  dateTimeOriginal: '2026:05:14 11:20:05',
  offsetTimeOriginal: '-05:00',
};
export const PHOTO_TAKEN_AT = '2026-05-14T16:20:05.000Z';

/** GETs a download link without any credential; answers the raw response. */
export function download(h: Harness, url: string, method = 'GET'): Promise<Response> {
  return Promise.resolve(h.app.request(url, { method }));
}

/** Every file under a directory (the storage's temp files included), relative to it. */
export function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name).slice(dir.length + 1));
  } catch {
    return [];
  }
}

/** The bytes kept for workspace `ws` in a harness's storage. */
export const storedFor = (h: Harness, ws: TestWorkspace): string[] =>
  filesUnder(join(h.rt.files.root, ws.id));

/** What an upload left in the storage's temp area (nothing, once it has answered). */
export const incomingOf = (h: Harness): string[] => filesUnder(join(h.rt.files.root, '.incoming'));

/** `n` bytes that no sniffer recognises and that are no text. */
export function binary(n: number, fill = 0x01): Uint8Array {
  const bytes = new Uint8Array(n).fill(fill);
  if (n > 0) {
    bytes[0] = 0x00;
  }
  return bytes;
}

/** Waits until `check` holds (real I/O finishing in the background), at most `ms`. */
export async function eventually(check: () => boolean, ms = 2000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) {
      throw new Error(`still not so after ${ms} ms`);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Whether two byte arrays hold the same bytes (vitest's deep equality crawls 25 MB). */
export const sameBytes = (a: Uint8Array, b: Uint8Array): boolean =>
  Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(
    Buffer.from(b.buffer, b.byteOffset, b.byteLength),
  );
