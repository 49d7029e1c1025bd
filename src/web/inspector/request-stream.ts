import type { Handler } from 'hono';
import { type SSEStreamingApi, streamSSE } from 'hono/streaming';
import type { AppEnv } from '../../platform/app-env';
import type { RequestFilter } from '../../platform/request-log';
import type { NewEntry } from '../../platform/request-log/log';
import type { Runtime } from '../../platform/runtime';
import type { Inspector } from './forms';
import { filterOf, rowOf, type Summary } from './request-rows';

// GET /inspector/requests/stream: the calls logged from now on under the list's filters, as
// server-sent events the list page's script prepends as rows.

/** How many calls a reconnecting stream sends that it missed. */
const MISSED_AT_MOST = 200;
/** A silent connection is cut by some proxies and never noticed gone by the server. */
const HEARTBEAT_MS = 15_000;

export const requestStream =
  (ins: Inspector): Handler<AppEnv> =>
  async (c) => {
    const { filter, problem } = filterOf(c);
    if (problem !== undefined) {
      return c.text(problem, 400);
    }
    // Ids are settled once the log has read its files: only then is a row's link for good.
    await ins.rt.requestLog.load();
    const lastSeen = c.req.header('Last-Event-ID');
    return streamSSE(c, (stream) => streamRows(ins.rt, stream, filter, lastSeen));
  };

/** Sends each call `filter` matches as it is logged, until the browser goes away. */
async function streamRows(
  rt: Runtime,
  stream: SSEStreamingApi,
  filter: RequestFilter,
  last: string | undefined,
): Promise<void> {
  let writing: Promise<unknown> = stream.write('retry: 2000\n\n');
  const send = (text: string) => {
    writing = writing
      .then(() => stream.write(text))
      .then(
        () => undefined,
        () => undefined,
      );
  };
  const sent = new Set<string>();
  const event = (id: string, entry: Summary) => {
    sent.add(id);
    send(`event: request\nid: ${id}\ndata: ${JSON.stringify(rowOf(rt, id, entry))}\n\n`);
  };
  // A browser reconnecting says the last row it got: the calls made meanwhile come first
  // (at most a page of them; older ones are a reload away). With several nodes, the calls this
  // node takes in from the others as it reads are told as they come: those up to it are not.
  const after = last !== undefined && /^rq_\d{10}$/.test(last) ? last : undefined;
  const stop = rt.requestLog.watch(filter, (id: string, entry: NewEntry) => {
    if (after === undefined || id > after) {
      event(id, entry);
    }
  });
  if (after !== undefined) {
    const { data } = await rt.requestLog.query(filter, MISSED_AT_MOST);
    for (const entry of data.filter((e) => e.id > after && !sent.has(e.id)).reverse()) {
      event(entry.id, entry);
    }
  }
  const beat = setInterval(() => send(': beat\n\n'), HEARTBEAT_MS);
  beat.unref();
  await new Promise<void>((resolve) => stream.onAbort(resolve));
  clearInterval(beat);
  stop();
}
