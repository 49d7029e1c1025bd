// The request log's line format: one JSON object a call, its filter fields first.

export interface LoggedRequest {
  id: string;
  at: string;
  method: string;
  path: string;
  query: Record<string, string>;
  status: number;
  duration_ms: number;
  key_id: string;
  credential_kind: string;
  workspace_id: string;
  request_id: string;
  request_headers: Record<string, string>;
  request_body: string | null;
  request_body_truncated: boolean;
  response_body: string | null;
  response_body_truncated: boolean;
  /** The injected fault this call got (decisions.md, Faults); absent when none, as in older lines. */
  fault?: string;
  /** The node that answered it, where several serve one store (X-Svc-Node); absent on one. */
  node?: string;
}

/**
 * A response as the middleware hands it over: the JSON text `c.json` sent, JSON sent as UTF-8
 * bytes (kept presentations), or other text.
 */
export type LoggedResponse = { json: string } | { jsonBytes: Uint8Array } | { text: string };

/** What the middleware hands over: the entry but its id, with the response as it was sent. */
export type NewEntry = Omit<LoggedRequest, 'id' | 'response_body' | 'response_body_truncated'> & {
  response: LoggedResponse;
  /** `at` in milliseconds, when the middleware has it: parsing `at` back cost every call. */
  atMs?: number;
  /**
   * How far the workspace's clock was ahead of the server's when the call was made: its 14 days
   * run on that clock (decisions.md, Clock). Kept in memory only; a line read back at start
   * counts from the lead its workspace has then.
   */
  leadMs?: number;
};

/** What the filters of /__admin/requests read. */
export type Filters = Pick<
  LoggedRequest,
  'id' | 'at' | 'method' | 'path' | 'status' | 'key_id' | 'workspace_id' | 'fault'
>;

/** What a line keeps of a request body, and of an answer but a GET's list page (decisions.md). */
export const BODY_CAP = 16 * 1024;
/**
 * What a line keeps of a GET's list page (decisions.md, Request log). Replay learns nothing from a
 * page's body it cannot do without (a cut page's next_cursor is taken from the replayed page), and
 * a page of 200 jobs kept at 16 KB made the log 640 MB at its 40,000 lines.
 */
export const LIST_CAP = 4 * 1024;
const LIST_START = '{"object":"list"';

/**
 * A body capped at `most` bytes of UTF-8, cut before the character that would take it past them:
 * never inside one (a cut surrogate pair made a line that strict JSON readers refuse), and what is
 * kept is always the start of what was sent. The line is built from it at once.
 */
export function cap(text: string, most = BODY_CAP): { text: string; truncated: boolean } {
  // A UTF-16 unit is at most 3 bytes (a pair of them 4): short text needs no counting.
  if (text.length * 3 <= most || Buffer.byteLength(text) <= most) {
    return { text, truncated: false };
  }
  const bytes = Buffer.from(text);
  let end = most;
  while (end > 0 && ((bytes[end] as number) & 0xc0) === 0x80) {
    end -= 1; // a continuation byte: the character started before
  }
  return { text: bytes.toString('utf8', 0, end), truncated: true };
}

/**
 * `cap` of UTF-8 `bytes`, as bytes: the start of them, cut before the character that would take
 * them past `most`. Nothing is decoded: a page of 50 jobs is 100 KB, of which a line keeps 4.
 */
export function capBytes(
  bytes: Uint8Array,
  most = BODY_CAP,
): { bytes: Buffer; truncated: boolean } {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.length <= most) {
    return { bytes: buffer, truncated: false };
  }
  let end = most;
  while (end > 0 && ((buffer[end] as number) & 0xc0) === 0x80) {
    end -= 1; // a continuation byte: the character started before
  }
  return { bytes: buffer.subarray(0, end), truncated: true };
}

/**
 * What of a response a line keeps, its answer cap applied: as text, or as the bytes sent when the
 * answer was made of them (kept presentations), which the files take as they are.
 */
function keptBody(
  method: string,
  status: number,
  response: LoggedResponse,
): { body: string | Buffer; truncated: boolean } {
  if ('jsonBytes' in response) {
    const kept = capBytes(response.jsonBytes, answerCap(method, status, response.jsonBytes));
    return { body: kept.bytes, truncated: kept.truncated };
  }
  const sent = 'json' in response ? response.json : response.text;
  const kept = cap(sent, answerCap(method, status, sent));
  return { body: kept.text, truncated: kept.truncated };
}

const NEWLINE = 0x0a;

/**
 * How much of an answer a line keeps. Only a GET's successful list page is cut to LIST_CAP: error
 * answers stay whole (coverage reads their code, an envelope is far under 16 KB), and so does any
 * write's answer, a list included (POST /webhooks with `events`), whose ids replay and coverage read.
 */
export const answerCap = (method: string, status: number, body: string | Uint8Array): number =>
  method === 'GET' && status >= 200 && status < 300 && startsList(body) ? LIST_CAP : BODY_CAP;

const LIST_START_BYTES = Buffer.from(LIST_START);
const startsList = (body: string | Uint8Array): boolean =>
  typeof body === 'string'
    ? body.startsWith(LIST_START)
    : body.length >= LIST_START_BYTES.length &&
      LIST_START_BYTES.equals(body.subarray(0, LIST_START_BYTES.length));

// A line starts with the filter fields, up to `query`, so that a start reads only those.
const FILTER_END = ',"query":';
// Between a line's JSON and the response body it carries as it was sent (see lineParts). JSON
// text holds no raw tab, so the first one in a line is this.
const TAIL = '\t';

/**
 * A line: `text`, then `raw`, the response body (as much as answerCap keeps) as it was sent, after
 * a tab. Escaping the body into a JSON string was most of what logging a request cost, and a cut
 * page of jobs is no JSON value to embed. A body holding a newline (the line's end) is escaped
 * into `response_body` instead, in `text`. The JSON is written out by hand: what svc made (ids,
 * times, the method Node accepted) needs no escaping, and serialising the entry as an object was a
 * tenth of what a small read cost.
 */
export function lineOf(
  id: string,
  entry: NewEntry,
): [text: string, raw: string | Buffer | undefined] {
  const head =
    `{"id":"${id}","at":"${entry.at}","method":"${entry.method}","path":${JSON.stringify(entry.path)}` +
    `,"status":${entry.status},"key_id":${JSON.stringify(entry.key_id)}` +
    `,"workspace_id":${JSON.stringify(entry.workspace_id)}` +
    // decisions.md, Faults: a filter field, so in the head (lines of before carry it further on).
    (entry.fault === undefined ? '' : `,"fault":${JSON.stringify(entry.fault)}`) +
    `,"query":${JSON.stringify(entry.query)},"duration_ms":${entry.duration_ms}` +
    `,"credential_kind":"${entry.credential_kind}","request_id":"${entry.request_id}"` +
    `,"request_headers":${JSON.stringify(entry.request_headers)}` +
    `,"request_body":${JSON.stringify(entry.request_body)}` +
    `,"request_body_truncated":${entry.request_body_truncated}` +
    (entry.node === undefined ? '' : `,"node":${JSON.stringify(entry.node)}`);
  const { body, truncated } = keptBody(entry.method, entry.status, entry.response);
  if (body.length === 0) {
    return [`${head},"response_body_truncated":false,"response_body":null}`, undefined];
  }
  // JSON.stringify writes no raw newline: a kept presentation's bytes go as they are.
  if (typeof body === 'string' ? !body.includes('\n') : !body.includes(NEWLINE)) {
    return [`${head},"response_body_truncated":${truncated}}${TAIL}`, body];
  }
  const text = typeof body === 'string' ? body : body.toString('utf8');
  return [
    `${head},"response_body_truncated":${truncated},"response_body":${JSON.stringify(text)}}`,
    undefined,
  ];
}

/** A line read back; undefined when it is not one (a file edited by hand). */
export function entryOf(line: string): LoggedRequest | undefined {
  try {
    const tail = line.indexOf(TAIL);
    if (tail !== -1) {
      const entry = JSON.parse(line.slice(0, tail)) as Omit<LoggedRequest, 'response_body'>;
      return Object.assign(entry, { response_body: line.slice(tail + 1) }); // see store Template
    }
    // Lines of earlier versions carried a whole JSON body as JSON.
    const parsed = JSON.parse(line) as LoggedRequest & { response_json?: unknown };
    if (!('response_json' in parsed)) {
      return parsed;
    }
    const { response_json, ...rest } = parsed;
    return {
      ...rest,
      response_body: response_json === null ? null : JSON.stringify(response_json),
    };
  } catch {
    return undefined;
  }
}

/** What the filters read of the line at `start..end`: from its head when it leads with them. */
export function filtersOf(bytes: Buffer, start: number, end: number): Filters | undefined {
  const at = bytes.indexOf(FILTER_END, start);
  try {
    if (at > start && at < end) {
      const head = JSON.parse(`${bytes.toString('utf8', start, at)}}`) as Partial<Filters>;
      if (typeof head.status === 'number' && typeof head.workspace_id === 'string') {
        return head as Filters;
      }
    }
    return JSON.parse(bytes.toString('utf8', start, end)) as Filters; // an older line's order
  } catch {
    return undefined; // a line cut short by a crash
  }
}
