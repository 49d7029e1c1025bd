import { request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cleanup, type Server, startServe, tempDir } from '../support/spawn';

// Over the Node adapter the request log learns whether a call has a body from its headers, not
// by asking for the body stream (src/platform/http/has-body.ts, issue 21): what it logs must be
// what was sent, however it was framed.

let server: Server;
let key: string;

beforeAll(async () => {
  server = await startServe(join(await tempDir(), 'data.json'));
  const made = await fetch(`${server.url}/__admin/workspaces`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  key = ((await made.json()) as { keys: { write: { key: string } } }).keys.write.key;
});

afterAll(async () => {
  await server.stop();
  await cleanup();
});

/** A POST framed as asked: with a Content-Length, or chunked. */
function post(path: string, framing: 'length' | 'chunked', body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
    };
    if (framing === 'length') {
      headers['content-length'] = String(Buffer.byteLength(body));
    }
    const req = request(`${server.url}${path}`, { method: 'POST', headers }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    });
    req.once('error', reject);
    if (framing === 'chunked') {
      req.write(body.slice(0, 5));
      req.write(body.slice(5));
    }
    req.end(framing === 'length' ? body : undefined);
  });
}

/** A POST with neither a Content-Length nor a Transfer-Encoding: no body at all (Node's client would add one). */
function postNothing(path: string): Promise<string> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.end(
        `POST ${path} HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`,
      );
    });
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk;
    });
    socket.once('end', () => resolve(answer.slice(0, answer.indexOf('\r\n'))));
    socket.once('error', reject);
  });
}

async function loggedBodies(): Promise<(string | null)[]> {
  const res = await fetch(`${server.url}/__admin/requests?method=POST&path=/v1/contacts`);
  const page = (await res.json()) as { data: { request_body: string | null }[] };
  return page.data.map((entry) => entry.request_body).reverse();
}

describe('the request log over the Node adapter', () => {
  test('logs a body sent with a Content-Length, one sent chunked, an empty one, and none when none was sent', async () => {
    const sized = JSON.stringify({ first_name: 'Sized', last_name: 'Body' });
    const chunked = JSON.stringify({ first_name: 'Chunked', last_name: 'Body' });
    expect(await post('/v1/contacts', 'length', sized)).toBe(201);
    expect(await post('/v1/contacts', 'chunked', chunked)).toBe(201);
    expect(await post('/v1/contacts', 'length', '')).toBe(400);
    expect(await postNothing('/v1/contacts')).toBe('HTTP/1.1 400 Bad Request');
    expect(await loggedBodies()).toEqual([sized, chunked, '', null]);
  });

  test('a JSON body that is not UTF-8 is refused 400 and logged as decoded, replacement characters and all', async () => {
    const body = Buffer.concat([
      Buffer.from('{"first_name":"'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('","last_name":"Bytes"}'),
    ]);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        `${server.url}/v1/contacts`,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${key}`,
            'content-type': 'application/json',
            'content-length': String(body.length),
          },
        },
        (res) => {
          res.resume();
          res.once('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.once('error', reject);
      req.end(body);
    });
    expect(status).toBe(400);
    expect((await loggedBodies()).at(-1)).toBe('{"first_name":"\uFFFD\uFFFD","last_name":"Bytes"}');
    const listed = await fetch(`${server.url}/v1/contacts?limit=100`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const names = ((await listed.json()) as { data: { last_name: string | null }[] }).data;
    expect(names.map((c) => c.last_name)).not.toContain('Bytes');
  });

  test('a body cut short by a chunk framed wrong is the client’s fault: a 400, and no trace in svc’s log', async () => {
    const { hostname, port } = new URL(server.url);
    const status = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => {
        socket.write(
          `POST /v1/contacts HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${key}\r\n` +
            'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n',
        );
      });
      let answer = '';
      socket.on('data', (chunk) => {
        answer += chunk;
      });
      socket.once('close', () => resolve(answer.slice(0, answer.indexOf('\r\n'))));
      socket.once('error', reject);
    });
    expect(status).toBe('HTTP/1.1 400 Bad Request');
    await new Promise((resolve) => setTimeout(resolve, 200)); // the route's read fails after
    expect(server.stderr()).not.toContain('failed');
    expect(server.stderr()).not.toContain('    at ');
  });

  test('the answer of a read by id is logged exactly as the client read it, non-ASCII included', async () => {
    const made = await fetch(`${server.url}/v1/contacts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ first_name: 'Zoë', last_name: 'Ångström' }),
    });
    const { id } = (await made.json()) as { id: string };
    const read = await fetch(`${server.url}/v1/contacts/${id}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const text = await read.text();
    expect(text).toContain('Zoë');
    const res = await fetch(`${server.url}/__admin/requests?method=GET&path=/v1/contacts/${id}`);
    const page = (await res.json()) as { data: { response_body: string | null }[] };
    expect(page.data.map((entry) => entry.response_body)).toEqual([text]);
  });
});
