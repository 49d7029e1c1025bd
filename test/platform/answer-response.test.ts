// src/platform/http/headers.ts: over HTTP the headers every answer carries wait on Node's
// response and go out with the head, whichever way the head is written. Checked on a real Node
// server, byte for byte, since fetch would join a header sent twice.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterEach, expect, test } from 'vitest';
import { AnswerResponse } from '../../src/platform/http/headers';
import { headOf as headLines, rawExchange } from '../support/raw-http';

let server: Server | undefined;
afterEach(async () => {
  const closing = server;
  server = undefined;
  await new Promise<void>((resolve) => (closing ? closing.close(() => resolve()) : resolve()));
});

/** The raw head of the answer `handle` gives to one GET, one `Name: value` a line. */
async function headOf(handle: (res: AnswerResponse) => void): Promise<string[]> {
  server = createServer(
    { ServerResponse: AnswerResponse },
    (_req: IncomingMessage, res: ServerResponse) => handle(res as AnswerResponse),
  );
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return headLines(
    await rawExchange(port, 'GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
  );
}

const named = (head: string[], name: string) =>
  head.filter((line) => line.toLowerCase().startsWith(`${name.toLowerCase()}:`));

test('answer headers go out once each, before the headers the route gives as an object', async () => {
  const head = await headOf((res) => {
    res.answerHeader('X-Request-Id', 'req_1');
    res.answerHeader('X-RateLimit-Remaining', '9');
    res.answerHeader('X-RateLimit-Remaining', '8'); // set again: replaced, not repeated
    res.writeHead(201, { 'Content-Type': 'application/json', 'Set-Cookie': ['a=1', 'b=2'] });
    res.end('{}');
  });
  expect(head[0]).toBe('HTTP/1.1 201 Created');
  expect(head.slice(1, 5)).toEqual([
    'X-Request-Id: req_1',
    'X-RateLimit-Remaining: 8',
    'Content-Type: application/json',
    'Set-Cookie: a=1',
  ]);
  expect(named(head, 'set-cookie')).toEqual(['Set-Cookie: a=1', 'Set-Cookie: b=2']);
});

test("the route's own header of the same name, in any case, wins over an answer header", async () => {
  const head = await headOf((res) => {
    res.answerHeader('Vary', 'Origin');
    res.answerHeader('X-Request-Id', 'req_2');
    res.writeHead(200, { vary: 'Accept' });
    res.end();
  });
  expect(named(head, 'vary')).toEqual(['vary: Accept']);
  expect(named(head, 'x-request-id')).toEqual(['X-Request-Id: req_2']);
});

test('a head written with a status message, as a flat list, or implicitly by a write carries them too', async () => {
  const flat = await headOf((res) => {
    res.answerHeader('X-Request-Id', 'req_3');
    const flatList = ['Content-Type', 'text/plain'] as unknown as Record<string, string>;
    res.writeHead(418, 'Short and stout', flatList);
    res.end('tea');
  });
  expect(flat[0]).toBe('HTTP/1.1 418 Short and stout');
  expect(named(flat, 'x-request-id')).toEqual(['X-Request-Id: req_3']);
  expect(named(flat, 'content-type')).toEqual(['Content-Type: text/plain']);

  const implicit = await headOf((res) => {
    res.answerHeader('X-Request-Id', 'req_4');
    res.statusCode = 202;
    res.write('streamed');
    res.end();
  });
  expect(implicit[0]).toBe('HTTP/1.1 202 Accepted');
  expect(named(implicit, 'x-request-id')).toEqual(['X-Request-Id: req_4']);
});

test('once the head is out an answer header is refused, so the caller can put it elsewhere', async () => {
  let late: boolean | undefined;
  const head = await headOf((res) => {
    res.writeHead(200);
    res.write('x');
    late = res.answerHeader('X-Request-Id', 'req_5');
    res.end();
  });
  expect(late).toBe(false);
  expect(named(head, 'x-request-id')).toEqual([]);
});
