import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { afterEach, describe, expect, test } from 'vitest';
import { FileStorage } from '../../src/platform/files/storage';
import { fetchUrl } from '../../src/resources/files/fetch-url';
import type { TestWorkspace } from '../support/harness';
import { type Origin, serve, startOrigin } from './origin';
import {
  binary,
  CAP,
  download,
  expectError,
  filesUnder,
  fresh,
  incomingOf,
  newJob,
  ok,
  PHOTO_TAKEN_AT,
  photo,
  sameBytes,
  storedFor,
  UNKNOWN,
} from './setup';

// POST /files with JSON `{url}`: decisions.md, Files. The URL follows the webhook target rules
// (spec, POST /webhooks: https, publicly reachable); --allow-local-targets lifts them, as it does
// for webhooks, which is how these tests reach an origin on 127.0.0.1.

const origins: Origin[] = [];
afterEach(async () => {
  await Promise.all(origins.splice(0).map((o) => o.close()));
});

async function origin(): Promise<Origin> {
  const o = await startOrigin();
  origins.push(o);
  return o;
}

const LOCAL = { allowLocalTargets: true, fileFetchTimeoutMs: 300 };

const fromUrl = (ws: TestWorkspace, body: Record<string, unknown>) => ws.api.post('/files', body);

describe('the faithful default refuses what a webhook target may not be', () => {
  test.each([
    ['a loopback address', 'https://127.0.0.1/roof.jpg'],
    ['localhost, a name that resolves to it', 'https://localhost/roof.jpg'],
    ['a name under localhost', 'https://files.localhost/roof.jpg'],
    ['a private address', 'https://10.1.2.3/roof.jpg'],
    ['a link-local address', 'https://169.254.169.254/latest/meta-data'],
    ['an IPv4 address inside IPv6', 'https://[::ffff:127.0.0.1]/roof.jpg'],
  ])('%s is 400 naming url', async (_name, url) => {
    const { h, ws } = await fresh();
    const res = await fromUrl(ws, { url });
    expectError(res, 400, 'invalid_request', 'url');
    expect(res.body.error.message).toContain('publicly reachable');
    expect(incomingOf(h)).toEqual([]);
  });

  test('a host name that resolves to a loopback address is 400 naming url', async () => {
    const name = hostname();
    const resolved = await lookup(name, { all: true }).catch(() => []);
    if (!resolved.some((a) => a.address.startsWith('127.') || a.address === '::1')) {
      return; // this machine's name resolves elsewhere: localhost above covers the rule
    }
    const { ws } = await fresh();
    expectError(
      await fromUrl(ws, { url: `https://${name}/roof.jpg` }),
      400,
      'invalid_request',
      'url',
    );
  });

  test('http is 400 naming url: https only', async () => {
    const { ws } = await fresh();
    const res = await fromUrl(ws, { url: 'http://93.184.216.34/roof.jpg' });
    expectError(res, 400, 'invalid_request', 'url');
    expect(res.body.error.message).toContain('https');
  });

  test.each([
    ['no url', {}],
    ['a url that is no URL', { url: 'roof.jpg' }],
    ['a url that is no string', { url: 42 }],
    ['another scheme', { url: 'ftp://93.184.216.34/roof.jpg' }],
  ])('%s is 400 naming url', async (_name, body) => {
    const { ws } = await fresh();
    expectError(
      await ws.api.post('/files', body, { invalid: true }),
      400,
      'invalid_request',
      'url',
    );
  });

  test('a JSON body that is no object, or no JSON at all, is 400', async () => {
    const { ws } = await fresh();
    expectError(await ws.api.post('/files', ['x'], { invalid: true }), 400, 'invalid_request');
    const res = await ws.api.raw('POST', '/files', {
      body: '{"url":',
      headers: { 'Content-Type': 'application/json' },
    });
    expectError(res, 400, 'invalid_request');
  });
});

describe('with --allow-local-targets, from an origin on 127.0.0.1', () => {
  test('201: fetched, named by the URL, typed and placed from its bytes', async () => {
    const o = await origin();
    const bytes = photo();
    o.route('/photos/roof%20north.jpg', serve(bytes, 'image/jpeg'));
    const { h, ws } = await fresh(LOCAL);
    const job = await newJob(ws);
    const file = await ok(
      fromUrl(ws, {
        url: `${o.url}/photos/roof%20north.jpg?size=full`,
        job_id: job.id,
        tags: ['hail'],
        description: 'From the drone',
      }),
      201,
    );
    expect(file).toMatchObject({
      job_id: job.id,
      name: 'roof north.jpg',
      category: 'photo',
      mime_type: 'image/jpeg',
      size_bytes: bytes.length,
      latitude: 32.776664,
      taken_at: PHOTO_TAKEN_AT,
      tags: ['hail'],
      description: 'From the drone',
    });
    const res = await download(h, file.download_url);
    expect(sameBytes(new Uint8Array(await res.arrayBuffer()), bytes)).toBe(true);
  });

  test('tags may be one comma-separated string; name and category may be sent', async () => {
    const o = await origin();
    o.route('/doc', serve(new TextEncoder().encode('scope of work'), 'text/plain; charset=utf-8'));
    const { ws } = await fresh(LOCAL);
    const file = await ok(
      fromUrl(ws, { url: `${o.url}/doc`, tags: 'a, b', name: 'Scope.txt', category: 'scope' }),
      201,
    );
    expect(file).toMatchObject({
      name: 'Scope.txt',
      category: 'scope',
      tags: ['a', 'b'],
      mime_type: 'text/plain',
    });
  });

  test('a URL with no path segment is named file', async () => {
    const o = await origin();
    o.route('/', serve(photo(), 'image/jpeg'));
    const { ws } = await fresh(LOCAL);
    expect((await ok(fromUrl(ws, { url: `${o.url}/` }), 201)).name).toBe('file');
  });

  test('an origin answering 404 is 400 naming url, saying so', async () => {
    const o = await origin();
    const { h, ws } = await fresh(LOCAL);
    const res = await fromUrl(ws, { url: `${o.url}/missing.jpg` });
    expectError(res, 400, 'invalid_request', 'url');
    expect(res.body.error.message).toContain('404');
    expect(incomingOf(h)).toEqual([]);
  });

  test('redirects are followed, up to five', async () => {
    const o = await origin();
    for (let i = 0; i < 5; i++) {
      o.route(`/r${i}`, (_req, res) => res.writeHead(302, { Location: `/r${i + 1}` }).end());
    }
    o.route('/r5', serve(photo(), 'image/jpeg'));
    const { ws } = await fresh(LOCAL);
    expect((await ok(fromUrl(ws, { url: `${o.url}/r0` }), 201)).name).toBe('r0');
  });

  test('a sixth redirect is 400 naming url', async () => {
    const o = await origin();
    for (let i = 0; i < 6; i++) {
      o.route(`/r${i}`, (_req, res) =>
        res.writeHead(301, { Location: `${o.url}/r${i + 1}` }).end(),
      );
    }
    o.route('/r6', serve(photo(), 'image/jpeg'));
    const { ws } = await fresh(LOCAL);
    const res = await fromUrl(ws, { url: `${o.url}/r0` });
    expectError(res, 400, 'invalid_request', 'url');
    expect(res.body.error.message).toContain('redirected more than 5 times');
  });

  test('each redirect is checked as the URL was: one to another scheme is 400 naming url', async () => {
    const o = await origin();
    o.route('/away', (_req, res) => res.writeHead(302, { Location: 'file:///etc/passwd' }).end());
    o.route('/bare', (_req, res) => res.writeHead(302).end());
    const { ws } = await fresh(LOCAL);
    const res = await fromUrl(ws, { url: `${o.url}/away` });
    expectError(res, 400, 'invalid_request', 'url');
    expect(res.body.error.message).toContain('file:///etc/passwd');
    expectError(await fromUrl(ws, { url: `${o.url}/bare` }), 400, 'invalid_request', 'url');
  });

  test('an origin that does not answer in time is 400 naming url, saying so', async () => {
    const o = await origin();
    o.route('/slow', () => undefined); // never answers
    const { h, ws } = await fresh(LOCAL);
    const res = await fromUrl(ws, { url: `${o.url}/slow` });
    expectError(res, 400, 'invalid_request', 'url');
    expect(res.body.error.message).toContain('did not answer within 0.3 seconds');
    expect(incomingOf(h)).toEqual([]);
  });

  test('an origin that stalls half-way is 400 naming url, and nothing is kept', async () => {
    const o = await origin();
    o.route('/stall', (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'image/jpeg', 'Content-Length': 1000 });
      res.write(Buffer.alloc(100));
    });
    const { h, ws } = await fresh(LOCAL);
    const res = await fromUrl(ws, { url: `${o.url}/stall` });
    expectError(res, 400, 'invalid_request', 'url');
    expect(res.body.error.message).toContain('stalled');
    expect(incomingOf(h)).toEqual([]);
    expect(storedFor(h, ws)).toEqual([]);
  });

  test('an origin that is not listening is 400 naming url', async () => {
    const o = await origin();
    const url = `${o.url}/gone`;
    await o.close();
    const { ws } = await fresh(LOCAL);
    const res = await fromUrl(ws, { url });
    expectError(res, 400, 'invalid_request', 'url');
    expect(res.body.error.message).toContain('ECONNREFUSED');
  });

  test('a file declared over 25 MB is 413 before a byte of it is read', async () => {
    const o = await origin();
    o.route('/huge', (_req, res) => {
      res.writeHead(200, { 'Content-Length': CAP + 1 });
      res.write(Buffer.alloc(10)); // and then nothing: svc must not wait for the rest
    });
    const { h, ws } = await fresh(LOCAL);
    expectError(await fromUrl(ws, { url: `${o.url}/huge` }), 413, 'payload_too_large');
    expect(incomingOf(h)).toEqual([]);
  });

  test('exactly 25 MB is taken; one byte more, sent without a length, is 413 and nothing is kept', async () => {
    const o = await origin();
    o.route('/cap', serve(binary(CAP)));
    o.route('/over', (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' }); // chunked
      res.write(binary(CAP));
      res.end(Buffer.from([1]));
    });
    const { h, ws } = await fresh(LOCAL);
    expect((await ok(fromUrl(ws, { url: `${o.url}/cap` }), 201)).size_bytes).toBe(CAP);
    const kept = storedFor(h, ws);
    expectError(await fromUrl(ws, { url: `${o.url}/over` }), 413, 'payload_too_large');
    expect(storedFor(h, ws)).toEqual(kept);
    expect(incomingOf(h)).toEqual([]);
  });

  test('a job_id of no job is 400 naming job_id, before the origin is asked', async () => {
    const o = await origin();
    o.route('/a.jpg', serve(photo(), 'image/jpeg'));
    const { ws } = await fresh(LOCAL);
    expectError(
      await fromUrl(ws, { url: `${o.url}/a.jpg`, job_id: UNKNOWN }),
      400,
      'invalid_request',
      'job_id',
    );
    expect(o.seen).toEqual([]);
  });

  test('a bad category is 400 naming category, before the origin is asked', async () => {
    const o = await origin();
    const { ws } = await fresh(LOCAL);
    const res = await ws.api.post(
      '/files',
      { url: `${o.url}/a.jpg`, category: 'selfie' },
      { invalid: true },
    );
    expectError(res, 400, 'invalid_request', 'category');
    expect(o.seen).toEqual([]);
  });
});

describe('the connection goes to the address that was checked', () => {
  const storage = () => new FileStorage();

  test('a name is connected to at the address its checked lookup gave, not looked up again', async () => {
    const o = await origin();
    o.route('/a.txt', serve(new TextEncoder().encode('hi'), 'text/plain'));
    const resolved: string[] = [];
    const fetched = await fetchUrl(`http://files.test:${o.port}/a.txt`, {
      allowLocal: true,
      idleMs: 1000,
      storage: storage(),
      resolve: async (host) => {
        resolved.push(host);
        return [{ address: '127.0.0.1', family: 4 }];
      },
    });
    expect(fetched.size).toBe(2);
    expect(resolved).toEqual(['files.test']);
    expect(o.seen).toEqual([{ path: '/a.txt', host: `files.test:${o.port}` }]);
    await fetched.incoming.discard();
  });

  test.each([
    ['every address loopback', ['127.0.0.1']],
    ['a public address beside a private one', ['93.184.216.34', '10.0.0.7']],
    ['a private IPv6 address', ['fd00::1']],
  ])(
    'a name that resolves to %s is refused at the lookup that connects',
    async (_name, addresses) => {
      const o = await origin();
      const dir = storage();
      const fetching = fetchUrl('https://files.test/a.jpg', {
        allowLocal: false,
        idleMs: 1000,
        storage: dir,
        resolve: async () =>
          addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
      });
      await expect(fetching).rejects.toMatchObject({ code: 'invalid_request', field: 'url' });
      expect(o.seen).toEqual([]);
      expect(filesUnder(dir.root)).toEqual([]);
    },
  );

  test('a name that resolves to nothing is 400 naming url', async () => {
    const fetching = fetchUrl('https://files.test/a.jpg', {
      allowLocal: false,
      idleMs: 1000,
      storage: storage(),
      resolve: async () => {
        throw Object.assign(new Error('nope'), { code: 'ENOTFOUND' });
      },
    });
    await expect(fetching).rejects.toMatchObject({
      code: 'invalid_request',
      field: 'url',
      message: expect.stringContaining('does not resolve'),
    });
  });
});
