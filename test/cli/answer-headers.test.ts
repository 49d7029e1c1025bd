// spec, Errors and Limits: every answer carries X-Request-Id (equal to an error's request_id) and
// the three X-RateLimit headers. Served over HTTP they go on Node's response directly
// (src/platform/http/headers.ts), not through the app as in the in-process tests: this checks
// that path on a real server, for answers made by a route, by the error handler, and by the
// limiter itself.
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { headOf, jsonBodyOf, rawExchange } from '../support/raw-http';
import { cleanup, type HttpReply, http, startServe, tempDir } from '../support/spawn';

afterEach(cleanup);

function expectAnswerHeaders(reply: HttpReply, limit: number): void {
  expect(reply.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{24}$/);
  expect(reply.headers.get('x-ratelimit-limit')).toBe(String(limit));
  expect(Number(reply.headers.get('x-ratelimit-remaining'))).toBeGreaterThanOrEqual(0);
  expect(Number(reply.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0);
  expect(reply.headers.get('content-type')).toBe('application/json');
}

test('a real server sends X-Request-Id and X-RateLimit-* on successes, errors and 429s', async () => {
  const server = await startServe(join(await tempDir(), 'data.json'), [
    '--no-seed',
    '--rate-limit',
    '5',
  ]);
  const made = await http(`${server.url}/__admin/workspaces`, { method: 'POST', body: {} });
  const key: string = made.body.keys.write.key;

  const job = await http(`${server.url}/v1/jobs`, {
    method: 'POST',
    key,
    body: { name: 'Roof', address: '1 Main St' },
  });
  expect(job.status).toBe(201);
  expectAnswerHeaders(job, 5);

  const got = await http(`${server.url}/v1/jobs/${job.body.id}`, { key });
  expect(got.status).toBe(200);
  expectAnswerHeaders(got, 5);
  expect(got.headers.get('x-request-id')).not.toBe(job.headers.get('x-request-id'));

  const missing = await http(`${server.url}/v1/jobs/not-a-job`, { key });
  expect(missing.status).toBe(404);
  expectAnswerHeaders(missing, 5);
  expect(missing.body.error.request_id).toBe(missing.headers.get('x-request-id'));

  const anonymous = await http(`${server.url}/v1/jobs`);
  expect(anonymous.status).toBe(401);
  expectAnswerHeaders(anonymous, 5);

  let limited: HttpReply | undefined;
  for (let i = 0; i < 6 && limited === undefined; i++) {
    const reply = await http(`${server.url}/v1/ping`, { key });
    if (reply.status === 429) {
      limited = reply;
    }
  }
  expect(limited?.status).toBe(429);
  expectAnswerHeaders(limited as HttpReply, 5);
  expect(limited?.headers.get('x-ratelimit-remaining')).toBe('0');
  expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(limited?.body.error.request_id).toBe(limited?.headers.get('x-request-id'));
});

test('a request Node cannot parse (a URL over 16 KB, bytes that are no HTTP) gets the error envelope and its X-Request-Id, not a bare 431', async () => {
  const server = await startServe(join(await tempDir(), 'data.json'), ['--no-seed']);
  const long = await http(`${server.url}/v1/pins?x=${'a'.repeat(20_000)}`);
  expect(long.status).toBe(400);
  expect(long.headers.get('content-type')).toBe('application/json');
  expect(long.body.error).toMatchObject({ code: 'invalid_request' });
  expect(long.body.error.request_id).toBe(long.headers.get('x-request-id'));
  expect(long.body.error.doc_url).toBe(`${server.url}/docs/errors#invalid_request`);

  const raw = await rawExchange(new URL(server.url).port, 'NOT HTTP AT ALL\r\n\r\n');
  expect(raw).toMatch(/^HTTP\/1\.1 400 /);
  expect(raw).toMatch(/\r\nX-Request-Id: req_[0-9a-f]{24}\r\n/);
  expect(jsonBodyOf(raw)).toMatchObject({ error: { code: 'invalid_request' } });
});

/** The raw head of one request to the server, one `Name: value` a line: fetch would join twins. */
const rawHead = async (url: string, request: string) =>
  headOf(await rawExchange(new URL(url).port, request));

const once = (head: string[], name: string) =>
  expect(
    head.filter((line) => line.toLowerCase().startsWith(`${name}:`)),
    `${name} in ${head.join(' | ')}`,
  ).toHaveLength(1);

test('over HTTP a preflight, a CORS read and a HEAD carry each answer header exactly once', async () => {
  const server = await startServe(join(await tempDir(), 'data.json'), [
    '--no-seed',
    '--cors',
    'http://localhost:3000',
  ]);
  const made = await http(`${server.url}/__admin/workspaces`, { method: 'POST', body: {} });
  const key: string = made.body.keys.write.key;
  const host = `Host: ${new URL(server.url).host}\r\nConnection: close\r\n`;
  const origin = 'Origin: http://localhost:3000\r\n';

  const preflight = await rawHead(
    server.url,
    `OPTIONS /v1/jobs HTTP/1.1\r\n${host}${origin}Access-Control-Request-Method: POST\r\n\r\n`,
  );
  expect(preflight[0]).toBe('HTTP/1.1 204 No Content');
  for (const name of [
    'x-request-id',
    'x-ratelimit-limit',
    'x-ratelimit-remaining',
    'x-ratelimit-reset',
    'access-control-allow-origin',
    'vary',
  ]) {
    once(preflight, name);
  }

  const read = await rawHead(
    server.url,
    `GET /v1/ping HTTP/1.1\r\n${host}${origin}Authorization: Bearer ${key}\r\n\r\n`,
  );
  expect(read[0]).toBe('HTTP/1.1 200 OK');
  for (const name of [
    'x-request-id',
    'x-ratelimit-limit',
    'x-ratelimit-remaining',
    'x-ratelimit-reset',
    'access-control-allow-origin',
    'access-control-expose-headers',
    'vary',
    'content-type',
    'content-length',
  ]) {
    once(read, name);
  }

  const head = await rawHead(
    server.url,
    `HEAD /v1/ping HTTP/1.1\r\n${host}Authorization: Bearer ${key}\r\n\r\n`,
  );
  expect(head[0]).toBe('HTTP/1.1 200 OK');
  for (const name of ['x-request-id', 'x-ratelimit-remaining', 'content-type']) {
    once(head, name);
  }
});

test("an error's doc_url is a page on the server that answered, whatever Host the caller sent", async () => {
  const server = await startServe(join(await tempDir(), 'data.json'), ['--no-seed']);
  const made = await http(`${server.url}/__admin/workspaces`, { method: 'POST', body: {} });
  const key: string = made.body.keys.write.key;
  const bodyOf = async (request: string) =>
    jsonBodyOf(await rawExchange(new URL(server.url).port, request)) as {
      error: { code: string; doc_url: string };
    };
  for (const host of ['evil.example:9999', '127.0.0.1']) {
    const head = `Host: ${host}\r\nConnection: close\r\n`;
    const missing = await bodyOf(
      `GET /v1/invoices/00000000-0000-4000-8000-000000000000 HTTP/1.1\r\n${head}Authorization: Bearer ${key}\r\n\r\n`,
    );
    expect(missing.error.code).toBe('not_found');
    expect(missing.error.doc_url).toBe(`${server.url}/docs/errors#not_found`);
    const anonymous = await bodyOf(`GET /v1/jobs HTTP/1.1\r\n${head}\r\n`);
    expect(anonymous.error.doc_url).toBe(`${server.url}/docs/errors#unauthorized`);
    const admin = await bodyOf(`GET /__admin/nothing-here HTTP/1.1\r\n${head}\r\n`);
    expect(admin.error.doc_url).toBe(`${server.url}/docs/errors#not_found`);
  }
});

test('a request with no usable Host gets the 400 envelope with its X-Request-Id; HTTP/1.0 may leave Host out', async () => {
  const server = await startServe(join(await tempDir(), 'data.json'), ['--no-seed']);
  const raw = (request: string) => rawExchange(new URL(server.url).port, request);
  for (const host of [
    'Host: garbage host!!\r\n',
    'Host: [::1\r\n',
    'Host: localhost:99999\r\n',
    '',
  ]) {
    const got = await raw(`GET /v1/ping HTTP/1.1\r\n${host}Connection: close\r\n\r\n`);
    expect(got, host).toMatch(/^HTTP\/1\.1 400 /);
    const id = /\r\nX-Request-Id: (req_[0-9a-f]{24})\r\n/.exec(got)?.[1];
    expect(id, host).toBeDefined();
    expect(jsonBodyOf(got)).toEqual({
      error: {
        code: 'invalid_request',
        message: 'the request has no Host header, or one that names no host',
        request_id: id,
        doc_url: `${server.url}/docs/errors#invalid_request`,
      },
    });
  }
  const old = await raw('GET /v1/ping HTTP/1.0\r\n\r\n');
  expect(old).toMatch(/^HTTP\/1\.1 401 /);
  expect(old).toContain(`"doc_url":"${server.url}/docs/errors#unauthorized"`);
});
