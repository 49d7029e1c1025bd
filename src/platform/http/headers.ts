import { type IncomingMessage, type OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Context } from 'hono';

const ANSWER_HEADERS = Symbol('svc.answerHeaders');

/**
 * Node's response, holding the headers every answer carries (X-Request-Id, X-RateLimit-*) until
 * the adapter writes the head, and then writing them with the route's in one list. Set on Node's
 * response one by one, they made Node take its slow path for the whole head (each of the route's
 * headers set and looked up again): about 7% of what a read by id cost.
 */
export class AnswerResponse<
  Request extends IncomingMessage = IncomingMessage,
> extends ServerResponse<Request> {
  /** Names and values, in turns. */
  [ANSWER_HEADERS]: string[] | undefined;

  /** Sets `name` (replacing what it had) for the head, unless the head is written already. */
  answerHeader(name: string, value: string): boolean {
    if (this.headersSent) {
      return false;
    }
    this[ANSWER_HEADERS] ??= [];
    const list = this[ANSWER_HEADERS];
    for (let i = 0; i < list.length; i += 2) {
      if (list[i] === name) {
        list[i + 1] = value;
        return true;
      }
    }
    list.push(name, value);
    return true;
  }

  override writeHead(
    statusCode: number,
    reason?: string | OutgoingHttpHeaders | OutgoingHttpHeaders[string][],
    headers?: OutgoingHttpHeaders | OutgoingHttpHeaders[string][],
  ): this {
    const extra = this[ANSWER_HEADERS];
    if (extra === undefined) {
      return super.writeHead(statusCode, reason as string, headers as OutgoingHttpHeaders);
    }
    this[ANSWER_HEADERS] = undefined;
    const [message, given] = typeof reason === 'string' ? [reason, headers] : [undefined, reason];
    const route = flatHead(given);
    // The route's own header of a name wins, as Node's setHeader had it.
    const list: (string | number)[] = [];
    for (let i = 0; i < extra.length; i += 2) {
      const name = extra[i] as string;
      if (!names(route, name)) {
        list.push(name, extra[i + 1] as string);
      }
    }
    list.push(...route);
    // Node takes a flat list of names and values; its types know only the object.
    const head = list as unknown as OutgoingHttpHeaders;
    return message === undefined
      ? super.writeHead(statusCode, head)
      : super.writeHead(statusCode, message, head);
  }
}

/** Headers as writeHead takes them (an object, pairs or a flat list), as one flat list. */
function flatHead(
  given: OutgoingHttpHeaders | OutgoingHttpHeaders[string][] | undefined,
): (string | number)[] {
  if (Array.isArray(given)) {
    return given.flat() as (string | number)[];
  }
  const list: (string | number)[] = [];
  for (const name in given) {
    const value = given[name];
    if (Array.isArray(value)) {
      for (const one of value) {
        list.push(name, one);
      }
    } else if (value !== undefined) {
      list.push(name, value);
    }
  }
  return list;
}

/** Whether a flat list of headers has one named `name`, in any case. */
function names(list: (string | number)[], name: string): boolean {
  for (let i = 0; i < list.length; i += 2) {
    const other = String(list[i]);
    if (other.length === name.length && other.toLowerCase() === name.toLowerCase()) {
      return true;
    }
  }
  return false;
}

/**
 * Sets a header every answer carries (X-Request-Id, X-RateLimit-*), whatever the route answers
 * with. Served over HTTP (svc's server makes every response an AnswerResponse), it waits on
 * Node's response and goes out with the head: a header set on the context makes Hono build every
 * answer's headers as a Headers object, which the Node adapter then copies back out. In process
 * (app.request, the tests) there is no Node response, and it goes on the context.
 */
export function setAnswerHeader(c: Context, name: string, value: string): void {
  const outgoing = (c.env as { outgoing?: unknown } | undefined)?.outgoing;
  if (outgoing instanceof AnswerResponse && outgoing.answerHeader(name, value)) {
    return;
  }
  if (c.finalized) {
    c.res.headers.set(name, value);
  } else {
    c.header(name, value);
  }
}
