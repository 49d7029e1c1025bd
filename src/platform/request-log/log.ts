import { type FileHandle, open, readFile, rename, unlink } from 'node:fs/promises';
import type { Clock, Scheduler } from '../clock';
import { ApiError } from '../errors';

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
}

/** A response as the middleware hands it over: the JSON text `c.json` sent, or other text. */
export type LoggedResponse = { json: string } | { text: string };

/** What the middleware hands over: the entry but its id, with the response as it was sent. */
export type NewEntry = Omit<LoggedRequest, 'id' | 'response_body' | 'response_body_truncated'> & {
  response: LoggedResponse;
};

/**
 * What the log keeps of a call in memory: what the filters read, and where its line is. The line
 * itself is kept only until it is in the file (always, when there is no file): holding 20,000
 * bodies of up to 16 KB each in memory cost a third of a read's throughput in garbage collection.
 */
interface Indexed {
  id: string;
  atMs: number;
  method: string;
  path: string;
  status: number;
  key_id: string;
  workspace_id: string;
  line: string | undefined;
  /** The file generation the line went to (see #rotate), its byte offset and length there. */
  segment: number;
  offset: number;
  length: number;
}

const BODY_CAP = 16 * 1024;

/** A body capped at 16 KB (the line is built from it at once; nothing keeps the slice). */
export function cap(text: string): { text: string; truncated: boolean } {
  return text.length > BODY_CAP
    ? { text: text.slice(0, BODY_CAP), truncated: true }
    : { text, truncated: false };
}

// A log line starts with what the filters read, up to `query`, so that a start reads only that.
const FILTER_END = ',"query":';

/**
 * A log file line. A response body that is whole JSON goes in as JSON (`response_json`), not as a
 * string escaped once more: that escaping was most of what logging a request cost.
 */
function lineOf(id: string, { response, ...entry }: NewEntry): string {
  const head = JSON.stringify({
    id,
    at: entry.at,
    method: entry.method,
    path: entry.path,
    status: entry.status,
    key_id: entry.key_id,
    workspace_id: entry.workspace_id,
    query: entry.query,
    duration_ms: entry.duration_ms,
    credential_kind: entry.credential_kind,
    request_id: entry.request_id,
    request_headers: entry.request_headers,
    request_body: entry.request_body,
    request_body_truncated: entry.request_body_truncated,
  }).slice(0, -1);
  if ('json' in response && response.json.length <= BODY_CAP) {
    return `${head},"response_body_truncated":false,"response_json":${response.json || 'null'}}`;
  }
  const body = cap('json' in response ? response.json : response.text);
  return `${head},"response_body_truncated":${body.truncated},"response_body":${JSON.stringify(body.text || null)}}`;
}

/** A log file line read back. */
function entryOf(line: string): LoggedRequest {
  const parsed = JSON.parse(line) as LoggedRequest & { response_json?: unknown };
  if (!('response_json' in parsed)) {
    return parsed;
  }
  const { response_json, ...rest } = parsed;
  return { ...rest, response_body: response_json === null ? null : JSON.stringify(response_json) };
}

/** A line read back from a file, or undefined when it is not one (the file was edited). */
function readable(line: string): LoggedRequest | undefined {
  try {
    return entryOf(line);
  } catch {
    return undefined;
  }
}

type Filters = Pick<
  LoggedRequest,
  'id' | 'at' | 'method' | 'path' | 'status' | 'key_id' | 'workspace_id'
>;

/** What the filters read of a line: from its head when it starts with them, else the whole. */
function filtersOf(line: Buffer, start: number, end: number): Filters | undefined {
  const at = line.indexOf(FILTER_END, start);
  try {
    if (at > start && at < end) {
      const head = JSON.parse(`${line.toString('utf8', start, at)}}`) as Partial<Filters>;
      if (typeof head.status === 'number' && typeof head.workspace_id === 'string') {
        return head as Filters;
      }
    }
    return JSON.parse(line.toString('utf8', start, end)) as Filters;
  } catch {
    return undefined; // a line cut short by a crash
  }
}

export interface RequestFilter {
  workspace_id?: string | undefined;
  key_id?: string | undefined;
  method?: string | undefined;
  /** A prefix of the path: `/v1/jobs` matches `/v1/jobs/<id>` too. */
  path?: string | undefined;
  /** An exact status (`404`) or a class (`4xx`). */
  status?: string | undefined;
}

const RETAIN_MS = 14 * 24 * 60 * 60 * 1000; // spec, Limits: 14 days
export const MAX_ENTRIES = 20_000;
const TRIM_BATCH = 1_000;
const PURGE_TASK = 'request-log:purge';
// Expired entries are dropped in batches, not one by one.
const PURGE_BATCH_MS = 60 * 60 * 1000;
// Lines go to the file in batches: a write a request was a thread-pool round trip each.
const FLUSH_MS = 10;
const FLUSH_CHARS = 1 << 20;

/** The files of the request log kept beside a data file, the current one first. */
export const requestLogFiles = (data: string): string[] => [
  `${data}.requests.jsonl`,
  `${data}.requests.jsonl.1`,
];

const idOf = (n: number) => `rq_${String(n).padStart(10, '0')}`;

// spec, Limits: calls made with a credential are kept 14 days. The filter fields live in memory,
// the entries in JSON-lines files beside the data file, appended without fsync: a log line lost
// to a power cut costs nothing, while an fsync per read request would halve read throughput. The
// file is `<file>` and, before it, `<file>.1`: once `<file>` holds MAX_ENTRIES lines it becomes
// `<file>.1` and a new `<file>` starts, so the files stay bounded and nothing is ever copied.
// Past MAX_ENTRIES the oldest go first (docs/decisions.md).
export class RequestLog {
  readonly #clock: Clock;
  readonly #scheduler: Scheduler;
  readonly #file: string | undefined;
  #entries: Indexed[] = [];
  /** Entries whose line is not yet handed to the file. */
  #pending: Indexed[] = [];
  #pendingChars = 0;
  #flushTimer: NodeJS.Timeout | undefined;
  /** File work, one step at a time: appends, rotations, purges and reads never interleave. */
  #writing: Promise<void> = Promise.resolve();
  /** Kept open between appends; reopened after a rotation. */
  #handle: FileHandle | undefined;
  /** The generation of `<file>`; `<file>.1` holds the one before. */
  #segment = 0;
  #size = 0;
  #lines = 0;
  /** The file ends in a line cut short by a crash: the next line starts on a line of its own. */
  #cut = false;
  /** A write failed: lines stay in memory from then on, and the file is not read. */
  #broken = false;
  #loaded: Promise<void> | undefined;
  #seq = 0;
  #warned = false;
  readonly #log: (line: string) => void;

  constructor(
    clock: Clock,
    scheduler: Scheduler,
    file?: string,
    log: (line: string) => void = () => {},
  ) {
    this.#clock = clock;
    this.#scheduler = scheduler;
    this.#file = file;
    this.#log = log;
  }

  // A log that cannot be written must not fail requests; it says so once.
  readonly #failed = (err: unknown): void => {
    this.#broken = true;
    if (!this.#warned) {
      this.#warned = true;
      this.#log(`svc: cannot write the request log ${this.#file}: ${(err as Error).message}`);
    }
  };

  /** Reads the files in the background; queries and file writes wait for it, requests never do. */
  load(): Promise<void> {
    this.#loaded ??= this.#read().catch(this.#failed);
    return this.#loaded;
  }

  append(entry: NewEntry): void {
    const id = idOf(++this.#seq);
    const line = lineOf(id, entry);
    const indexed: Indexed = {
      id,
      atMs: Date.parse(entry.at),
      method: entry.method,
      path: entry.path,
      status: entry.status,
      key_id: entry.key_id,
      workspace_id: entry.workspace_id,
      line,
      segment: -1,
      offset: 0,
      length: 0,
    };
    this.#entries.push(indexed);
    // Trimmed in batches: a splice a request would copy the whole array each time.
    if (this.#entries.length > MAX_ENTRIES + TRIM_BATCH) {
      this.#entries.splice(0, this.#entries.length - MAX_ENTRIES);
    }
    if (this.#file) {
      this.#pending.push(indexed);
      this.#pendingChars += line.length;
      if (this.#pendingChars >= FLUSH_CHARS) {
        this.#flush();
      } else {
        this.#flushTimer ??= setTimeout(() => this.#flush(), FLUSH_MS);
      }
    }
    if (!this.#scheduler.has(PURGE_TASK)) {
      this.#schedulePurge();
    }
  }

  async query(
    filter: RequestFilter,
    limit: number,
    before?: string,
  ): Promise<{ data: LoggedRequest[]; hasMore: boolean }> {
    await this.load();
    if (before !== undefined && !/^rq_\d{10}$/.test(before)) {
      throw new ApiError('invalid_request', 'cursor was not issued by this request log', 'cursor');
    }
    const found: Indexed[] = [];
    let hasMore = false;
    const oldest = Math.max(this.#entries.length - MAX_ENTRIES, 0);
    // The purge runs in batches, so the 14 days are also enforced here, on every read.
    const cutoff = this.#clock.nowMs() - RETAIN_MS;
    for (let i = this.#entries.length - 1; i >= oldest; i--) {
      const entry = this.#entries[i] as Indexed;
      if (entry.atMs <= cutoff) {
        break; // entries are in time order: every older one is past the 14 days too
      }
      if (before !== undefined && entry.id >= before) {
        continue;
      }
      if (matches(entry, filter)) {
        if (found.length === limit) {
          hasMore = true;
          break;
        }
        found.push(entry);
      }
    }
    return { data: await this.#whole(found), hasMore };
  }

  /** Waits for lines handed to the file so far. */
  async close(): Promise<void> {
    await this.#loaded;
    this.#flush();
    await this.#writing;
    await this.#handle?.close();
    this.#handle = undefined;
  }

  /** The whole entries, from memory or from the files, each under the id the log gives it now. */
  async #whole(found: Indexed[]): Promise<LoggedRequest[]> {
    if (found.every((e) => e.line !== undefined)) {
      return found.map((e) => ({ ...entryOf(e.line as string), id: e.id }));
    }
    this.#flush();
    let out: LoggedRequest[] = [];
    const read = this.#writing.then(async () => {
      const handles = new Map<number, FileHandle>();
      try {
        out = [];
        for (const e of found) {
          const line = e.line ?? (await this.#readLine(e, handles));
          const entry = line === undefined ? undefined : readable(line);
          if (entry) {
            out.push({ ...entry, id: e.id });
          }
        }
      } finally {
        await Promise.all([...handles.values()].map((h) => h.close()));
      }
    });
    this.#writing = read.catch(() => {});
    await read;
    return out;
  }

  /** A line from its file; undefined when the file is gone (deleted by hand, or rotated away). */
  async #readLine(e: Indexed, handles: Map<number, FileHandle>): Promise<string | undefined> {
    try {
      let handle = handles.get(e.segment);
      if (!handle) {
        handle = await open(this.#segmentFile(e.segment), 'r');
        handles.set(e.segment, handle);
      }
      const buffer = Buffer.alloc(e.length);
      const { bytesRead } = await handle.read(buffer, 0, e.length, e.offset);
      return bytesRead === e.length ? buffer.toString('utf8') : undefined;
    } catch {
      return undefined;
    }
  }

  #segmentFile(segment: number): string {
    return segment === this.#segment ? (this.#file as string) : `${this.#file}.1`;
  }

  async #read(): Promise<void> {
    const file = this.#file;
    if (!file) {
      return;
    }
    const cutoff = this.#clock.nowMs() - RETAIN_MS;
    const earlier: Indexed[] = [];
    for (const [path, segment] of [
      [`${file}.1`, -1],
      [file, 0],
    ] as const) {
      const bytes = await readFile(path).catch(() => Buffer.alloc(0));
      let start = 0;
      for (let end = bytes.indexOf(10); end !== -1; end = bytes.indexOf(10, start)) {
        const head = filtersOf(bytes, start, end);
        if (head && Date.parse(head.at) > cutoff) {
          earlier.push({
            ...pick(head),
            atMs: Date.parse(head.at),
            line: undefined,
            segment,
            offset: start,
            length: end - start,
          });
        }
        start = end + 1;
      }
      if (segment === 0) {
        this.#size = bytes.length;
        this.#lines = bytes.reduce((n, b) => (b === 10 ? n + 1 : n), 0);
        this.#cut = start < bytes.length;
      }
    }
    // This run's entries (none in the file yet: writes wait for this) follow the earlier ones,
    // and every id is given again in order.
    this.#entries = [...earlier, ...this.#entries].slice(-MAX_ENTRIES);
    this.#seq = 0;
    for (const entry of this.#entries) {
      entry.id = idOf(++this.#seq);
    }
    this.#schedulePurge();
  }

  #flush(): void {
    clearTimeout(this.#flushTimer);
    this.#flushTimer = undefined;
    if (!this.#file || this.#pending.length === 0) {
      return;
    }
    const batch = this.#pending;
    this.#pending = [];
    this.#pendingChars = 0;
    this.#writing = this.#writing
      .then(() => this.load())
      .then(() => this.#write(batch))
      .catch(this.#failed);
  }

  async #write(batch: Indexed[]): Promise<void> {
    if (this.#broken) {
      return;
    }
    if (this.#lines >= MAX_ENTRIES) {
      await this.#rotate();
    }
    const parts: string[] = this.#cut ? [''] : [];
    let offset = this.#size + (this.#cut ? 1 : 0);
    for (const e of batch) {
      const line = e.line as string;
      e.segment = this.#segment;
      e.offset = offset;
      e.length = Buffer.byteLength(line);
      offset += e.length + 1;
      parts.push(line);
    }
    this.#handle ??= await open(this.#file as string, 'a');
    await this.#handle.write(`${parts.join('\n')}\n`);
    this.#size = offset;
    this.#lines += batch.length;
    this.#cut = false;
    for (const e of batch) {
      e.line = undefined;
    }
  }

  /** `<file>` becomes `<file>.1`; what was in `<file>.1` is older than every entry kept. */
  async #rotate(): Promise<void> {
    const file = this.#file as string;
    await this.#handle?.close();
    this.#handle = undefined;
    await rename(file, `${file}.1`);
    this.#segment += 1;
    this.#size = 0;
    this.#lines = 0;
    this.#cut = false;
    const first = this.#entries.findIndex(
      (e) => e.line !== undefined || e.segment >= this.#segment - 1,
    );
    this.#entries = first === -1 ? [] : this.#entries.slice(first);
  }

  #schedulePurge(): void {
    const oldest = this.#entries[0];
    if (oldest) {
      this.#scheduler.schedule(PURGE_TASK, oldest.atMs + RETAIN_MS + PURGE_BATCH_MS, () =>
        this.#purge(),
      );
    }
  }

  /** Drops expired entries; a file none of the kept entries is in is deleted. */
  async #purge(): Promise<void> {
    const cutoff = this.#clock.nowMs() - RETAIN_MS;
    const keep = this.#entries.findIndex((e) => e.atMs > cutoff);
    this.#entries = keep === -1 ? [] : this.#entries.slice(keep);
    const file = this.#file;
    if (file && !this.#broken) {
      const step = this.#writing.then(async () => {
        const inFile = this.#entries.filter((e) => e.line === undefined);
        if (!inFile.some((e) => e.segment < this.#segment)) {
          await unlink(`${file}.1`).catch(() => {});
        }
        if (inFile.length === 0) {
          await this.#handle?.close();
          this.#handle = undefined;
          await unlink(file).catch(() => {});
          this.#size = 0;
          this.#lines = 0;
          this.#cut = false;
        }
      });
      this.#writing = step.catch(this.#failed);
      await this.#writing;
    }
    this.#schedulePurge();
  }
}

const pick = ({ id, method, path, status, key_id, workspace_id }: Filters) => ({
  id,
  method,
  path,
  status,
  key_id,
  workspace_id,
});

function matches(entry: Indexed, filter: RequestFilter): boolean {
  if (filter.workspace_id !== undefined && entry.workspace_id !== filter.workspace_id) {
    return false;
  }
  if (filter.key_id !== undefined && entry.key_id !== filter.key_id) {
    return false;
  }
  if (filter.method !== undefined && entry.method !== filter.method.toUpperCase()) {
    return false;
  }
  if (filter.path !== undefined && !pathMatches(entry.path, filter.path)) {
    return false;
  }
  if (filter.status !== undefined) {
    const cls = /^([1-5])xx$/i.exec(filter.status);
    const status = String(entry.status);
    if (cls ? status[0] !== cls[1] : status !== filter.status) {
      return false;
    }
  }
  return true;
}

// decisions.md: a path prefix, absolute (`/v1/jobs`) or relative to `{base_url}` (`/jobs`).
const pathMatches = (path: string, prefix: string): boolean =>
  path.startsWith(prefix) || (!prefix.startsWith('/v1') && path.startsWith(`/v1${prefix}`));
