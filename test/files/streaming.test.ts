// Uploads over a real connection to a real `svc serve` (spec, Limits: 25 MB, 413
// payload_too_large; decisions.md, Files): the cap is enforced while the body streams, a refusal
// is an answer the client reads (never a reset), and nothing of a refused or interrupted upload
// is kept, neither a record nor bytes.
import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { cleanup, http, type Server, startServe, tempDir } from '../support/spawn';
import { CAP, eventually, filesUnder, photo } from './setup';

afterEach(cleanup);

interface Up {
  server: Server;
  data: string;
  key: string;
  wsId: string;
}

async function serve(): Promise<Up> {
  const data = join(await tempDir(), 'data.json');
  const server = await startServe(data, ['--no-seed', '--rate-limit', 'off']);
  const made = await http(`${server.url}/__admin/workspaces`, { method: 'POST', body: {} });
  return { server, data, key: made.body.keys.write.key, wsId: made.body.id };
}

const BOUNDARY = 'svc-streaming-test';

/** A multipart body with one file part of `size` bytes, made as it is sent (never whole). */
function multipart(
  size: number,
  filename = 'big.bin',
): { length: number; chunks: () => Generator<Buffer> } {
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  const chunk = Buffer.alloc(256 * 1024, 7);
  return {
    length: head.length + size + tail.length,
    *chunks() {
      yield head;
      for (let left = size; left > 0; left -= chunk.length) {
        yield left >= chunk.length ? chunk : chunk.subarray(0, left);
      }
      yield tail;
    },
  };
}

interface Answer {
  status: number;
  body: { error?: { code: string }; id?: string; size_bytes?: number };
  /** Whether the client had sent its whole body when the answer came. */
  sentAll: boolean;
}

/**
 * POSTs a body chunk by chunk with Node's own client, as an SDK would: it stops sending once
 * answered, unless told to `keepSending` (as a naive client does); after `stopAfter` bytes the
 * socket is destroyed (a client that goes away). Answers what the client read.
 */
function post(
  up: Up,
  body: { length: number; chunks: () => Generator<Buffer> },
  opts: { chunked?: boolean; stopAfter?: number; keepSending?: boolean } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${up.server.url}/v1/files`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${up.key}`,
        'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`,
        ...(opts.chunked ? { 'Transfer-Encoding': 'chunked' } : { 'Content-Length': body.length }),
      },
    });
    let answered = false;
    // Settles once the client is done sending: all of it written and flushed, or not.
    const sending = new Promise<boolean>((done) => {
      req.once('finish', () => done(true));
      req.once('close', () => done(false));
    });
    req.on('response', (res) => {
      answered = true;
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => {
        const text = Buffer.concat(parts).toString();
        void sending.then((sentAll) =>
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(text), sentAll }),
        );
      });
    });
    // After the answer a refused body may be cut off: that is the server's right, not a failure.
    req.on('error', (err) => (answered ? undefined : reject(err)));
    (async () => {
      let sent = 0;
      for (const chunk of body.chunks()) {
        if ((answered && !opts.keepSending) || req.destroyed) {
          req.destroy();
          return;
        }
        if (opts.stopAfter !== undefined && sent >= opts.stopAfter) {
          req.destroy();
          resolve({ status: 0, body: {}, sentAll: false });
          return;
        }
        sent += chunk.length;
        if (!req.write(chunk)) {
          await new Promise((r) => req.once('drain', r));
        }
      }
      req.end();
    })().catch(reject);
  });
}

const filesDir = (up: Up) => `${up.data}.files`;
const kept = (up: Up) => filesUnder(join(filesDir(up), up.wsId));
const incoming = (up: Up) => filesUnder(join(filesDir(up), '.incoming'));

async function listed(up: Up): Promise<unknown[]> {
  const res = await http(`${up.server.url}/v1/files`, { key: up.key });
  expect(res.status).toBe(200);
  return res.body.data;
}

/** Nothing of a refused upload is left: no record, no bytes, no temp file. */
async function nothingKept(up: Up): Promise<void> {
  await eventually(() => incoming(up).length === 0);
  expect(kept(up)).toEqual([]);
  expect(await listed(up)).toEqual([]);
}

describe('a real server', () => {
  test('takes exactly 25 MB, streamed to a file beside the data file, and serves it back', async () => {
    const up = await serve();
    const res = await post(up, multipart(CAP));
    expect(res.status).toBe(201);
    expect(res.body.size_bytes).toBe(CAP);
    expect(kept(up)).toEqual([res.body.id]);
    const file = await http(`${up.server.url}/v1/files/${res.body.id}`, { key: up.key });
    const got = await fetch(file.body.download_url);
    expect(got.headers.get('content-length')).toBe(String(CAP));
    const digest = createHash('sha256');
    for await (const chunk of got.body ?? []) {
      digest.update(chunk);
    }
    const expected = createHash('sha256').update(Buffer.alloc(CAP, 7)).digest('hex');
    expect(digest.digest('hex')).toBe(expected);
  });

  test('a file of 25 MB and one byte is 413, read by the client; nothing is kept', async () => {
    const up = await serve();
    const res = await post(up, multipart(CAP + 1), { keepSending: true });
    expect(res.status).toBe(413);
    expect(res.body.error?.code).toBe('payload_too_large');
    await nothingKept(up);
  });

  test('a Content-Length over the cap is 413 before a byte of the body is read', async () => {
    const up = await serve();
    const body = multipart(CAP + 200 * 1024);
    const res = await post(up, { length: body.length, chunks: function* () {} });
    // Nothing was sent but the headers: the answer could only come from the declared length.
    expect(res.status).toBe(413);
    expect(res.body.error?.code).toBe('payload_too_large');
    await nothingKept(up);
  });

  test('Expect: 100-continue with a Content-Length over the cap: 413 and no 100, so no byte of the body is sent', async () => {
    const up = await serve();
    const first = await expectContinue(up, 30 * 1024 * 1024);
    expect(first).toMatch(/^HTTP\/1\.1 413 /);
  });

  test('Expect: 100-continue with a Content-Length within the cap: a 100, then the upload goes on', async () => {
    const up = await serve();
    const first = await expectContinue(up, 1024);
    expect(first).toMatch(/^HTTP\/1\.1 100 /);
  });

  test('a client that keeps sending a body over the cap still reads the 413', async () => {
    const up = await serve();
    const res = await post(up, multipart(CAP + 200 * 1024), { keepSending: true });
    expect(res.status).toBe(413);
    expect(res.body.error?.code).toBe('payload_too_large');
    await nothingKept(up);
    expect((await http(`${up.server.url}/v1/ping`, { key: up.key })).status).toBe(200);
  });

  test('a chunked upload with no Content-Length over the cap is 413, read by the client; nothing is kept', async () => {
    const up = await serve();
    // Far more than any socket buffers hold: the answer must come while it is still sending.
    const res = await post(up, multipart(2 * CAP), { chunked: true });
    expect(res.status).toBe(413);
    expect(res.body.error?.code).toBe('payload_too_large');
    expect(res.sentAll).toBe(false); // refused while it streamed, not after
    await nothingKept(up);
  });

  test('a chunked upload over the cap, sent on regardless, is answered 413 and read away', async () => {
    const up = await serve();
    const res = await post(up, multipart(CAP + 1024 * 1024), { chunked: true, keepSending: true });
    expect(res.status).toBe(413);
    expect(res.body.error?.code).toBe('payload_too_large');
    await nothingKept(up);
    expect((await http(`${up.server.url}/v1/ping`, { key: up.key })).status).toBe(200);
  });

  test('a chunked upload within the cap is taken', async () => {
    const up = await serve();
    const res = await post(up, multipart(3 * 1024 * 1024), { chunked: true });
    expect(res.status).toBe(201);
    expect(res.body.size_bytes).toBe(3 * 1024 * 1024);
  });

  test('an upload cut off mid-stream leaves nothing: no record, no bytes', async () => {
    const up = await serve();
    const res = await post(up, multipart(20 * 1024 * 1024), { stopAfter: 8 * 1024 * 1024 });
    expect(res.status).toBe(0); // the client went away; there is no answer to read
    await nothingKept(up);
    // The server carries on.
    const next = await post(up, multipart(1024));
    expect(next.status).toBe(201);
  });

  test('a photo uploaded over HTTP is read as on the harness', async () => {
    const up = await serve();
    const bytes = Buffer.from(photo());
    const head = Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="roof.jpg"\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
    const res = await post(up, {
      length: head.length + bytes.length + tail.length,
      *chunks() {
        yield head;
        yield bytes;
        yield tail;
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ mime_type: 'image/jpeg', latitude: 32.776664 });
  });
});

/** The first status line a client sending `Expect: 100-continue` reads, before sending a body. */
function expectContinue(up: Up, length: number): Promise<string> {
  const { port } = new URL(up.server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () =>
      socket.write(
        `POST /v1/files HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${up.key}\r\n` +
          `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\n` +
          `Content-Length: ${length}\r\nExpect: 100-continue\r\n\r\n`,
      ),
    );
    socket.once('data', (chunk) => {
      resolve(chunk.toString().split('\r\n')[0] ?? '');
      socket.destroy();
    });
    socket.on('error', reject);
    setTimeout(() => {
      socket.destroy();
      reject(new Error('no answer within 5 s'));
    }, 5000).unref();
  });
}
