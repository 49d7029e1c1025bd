import { type FileHandle, open, readFile, rename, writeFile } from 'node:fs/promises';
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

// Marks an entry whose response body is whole JSON; JSON.stringify leaves symbol keys out.
const WHOLE_JSON = Symbol('wholeJson');
type Entry = LoggedRequest & { [WHOLE_JSON]?: true };

const BODY_CAP = 16 * 1024;

/**
 * A body capped at 16 KB. A cut one is copied: a slice would keep the whole body (up to 25 MB)
 * alive for as long as the log keeps the entry.
 */
export function cap(text: string): { text: string; truncated: boolean } {
  return text.length > BODY_CAP
    ? { text: Buffer.from(text.slice(0, BODY_CAP)).toString(), truncated: true }
    : { text, truncated: false };
}

/**
 * A log file line. A response body that is whole JSON goes in as JSON (`response_json`), not as a
 * string escaped once more: that escaping was most of what logging a request cost.
 */
function lineOf(entry: Entry): string {
  const body = entry.response_body;
  if (!entry[WHOLE_JSON] || body === null) {
    return JSON.stringify(entry);
  }
  // Left out of this one serialisation (an undefined field is skipped), then put back.
  (entry as { response_body: string | null | undefined }).response_body = undefined;
  const rest = JSON.stringify(entry);
  entry.response_body = body;
  return `${rest.slice(0, -1)},"response_json":${body}}`;
}

/** A log file line read back. */
function entryOf(line: string): Entry {
  const parsed = JSON.parse(line) as LoggedRequest & { response_json?: unknown };
  if (!('response_json' in parsed)) {
    return parsed;
  }
  const { response_json, ...rest } = parsed;
  return { ...rest, response_body: JSON.stringify(response_json), [WHOLE_JSON]: true };
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
// Expired lines are dropped in batches, not one by one: each purge rewrites the file.
const PURGE_BATCH_MS = 60 * 60 * 1000;

// spec, Limits: calls made with a credential are kept 14 days. They live in memory and in a
// JSON-lines file beside the data file, appended without fsync: a log line lost to a power cut
// costs nothing, while an fsync per read request would halve read throughput. Past MAX_ENTRIES
// the oldest go first (docs/decisions.md).
export class RequestLog {
  readonly #clock: Clock;
  readonly #scheduler: Scheduler;
  readonly #file: string | undefined;
  #entries: Entry[] = [];
  /** Entries not yet appended to the file (serialised when written, off the request). */
  #pending: Entry[] = [];
  #writing: Promise<void> = Promise.resolve();
  /** Kept open between appends; reopened after the file is rewritten. */
  #handle: FileHandle | undefined;
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
    if (!this.#warned) {
      this.#warned = true;
      this.#log(`svc: cannot write the request log ${this.#file}: ${(err as Error).message}`);
    }
  };

  /** Reads the file in the background; queries wait for it, requests never do. */
  load(): Promise<void> {
    this.#loaded ??= this.#read();
    return this.#loaded;
  }

  append({ response, ...entry }: NewEntry): void {
    const whole = 'json' in response;
    const body = cap(whole ? response.json : response.text);
    const logged: Entry = {
      id: `rq_${String(++this.#seq).padStart(10, '0')}`,
      ...entry,
      response_body: body.text || null,
      response_body_truncated: body.truncated,
    };
    if (whole && !body.truncated) {
      logged[WHOLE_JSON] = true;
    }
    this.#entries.push(logged);
    // Trimmed in batches: a splice a request would copy the whole array each time.
    if (this.#entries.length > MAX_ENTRIES + TRIM_BATCH) {
      this.#entries.splice(0, this.#entries.length - MAX_ENTRIES);
    }
    if (this.#file) {
      this.#pending.push(logged);
      if (this.#pending.length === 1) {
        setImmediate(() => this.#flush());
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
    const data: LoggedRequest[] = [];
    const oldest = Math.max(this.#entries.length - MAX_ENTRIES, 0);
    // The purge runs in batches, so the 14 days are also enforced here, on every read.
    const cutoff = this.#clock.nowMs() - RETAIN_MS;
    for (let i = this.#entries.length - 1; i >= oldest; i--) {
      const entry = this.#entries[i] as Entry;
      if (Date.parse(entry.at) <= cutoff) {
        break; // entries are in time order: every older one is past the 14 days too
      }
      if (before !== undefined && entry.id >= before) {
        continue;
      }
      if (matches(entry, filter)) {
        if (data.length === limit) {
          return { data, hasMore: true };
        }
        data.push(entry);
      }
    }
    return { data, hasMore: false };
  }

  /** Waits for lines handed to the file so far. */
  async close(): Promise<void> {
    await this.#loaded;
    this.#flush();
    await this.#writing;
    await this.#handle?.close();
    this.#handle = undefined;
  }

  async #read(): Promise<void> {
    if (!this.#file) {
      return;
    }
    let text = '';
    try {
      text = await readFile(this.#file, 'utf8');
    } catch {
      return; // no log yet
    }
    const cutoff = this.#clock.nowMs() - RETAIN_MS;
    const thisRun = new Set(this.#entries.map((e) => e.request_id));
    const earlier: Entry[] = [];
    for (const line of text.split('\n')) {
      try {
        const entry = entryOf(line);
        if (Date.parse(entry.at) > cutoff && !thisRun.has(entry.request_id)) {
          earlier.push(entry);
        }
      } catch {
        // a line cut short by a crash
      }
    }
    // Lines of this run may already be in the file; ids of this run restart after the earlier.
    const current = this.#entries;
    this.#entries = [...earlier, ...current].slice(-MAX_ENTRIES);
    this.#seq = 0;
    for (const entry of this.#entries) {
      entry.id = `rq_${String(++this.#seq).padStart(10, '0')}`;
    }
    await this.#rewrite();
    this.#schedulePurge();
  }

  #flush(): void {
    const file = this.#file;
    if (!file || this.#pending.length === 0) {
      return;
    }
    const text = `${this.#pending.map(lineOf).join('\n')}\n`;
    this.#pending = [];
    this.#writing = this.#writing
      .then(async () => {
        this.#handle ??= await open(file, 'a');
        await this.#handle.write(text);
      })
      .catch(this.#failed);
  }

  /** Replaces the file with what is kept, dropping expired lines and this run's duplicates. */
  async #rewrite(): Promise<void> {
    const file = this.#file;
    if (!file) {
      return;
    }
    this.#pending = [];
    const text = this.#entries.map((e) => `${lineOf(e)}\n`).join('');
    this.#writing = this.#writing
      .then(async () => {
        await writeFile(`${file}.tmp`, text);
        await rename(`${file}.tmp`, file);
        await this.#handle?.close(); // it held the file just replaced
        this.#handle = undefined;
      })
      .catch(this.#failed);
    await this.#writing;
  }

  #schedulePurge(): void {
    const oldest = this.#entries[0];
    if (oldest) {
      this.#scheduler.schedule(PURGE_TASK, Date.parse(oldest.at) + RETAIN_MS + PURGE_BATCH_MS, () =>
        this.#purge(),
      );
    }
  }

  async #purge(): Promise<void> {
    const cutoff = this.#clock.nowMs() - RETAIN_MS;
    const keep = this.#entries.findIndex((e) => Date.parse(e.at) > cutoff);
    this.#entries = keep === -1 ? [] : this.#entries.slice(keep);
    await this.#rewrite();
    this.#schedulePurge();
  }
}

function matches(
  entry: Omit<LoggedRequest, 'response_body' | 'response_body_truncated'>,
  filter: RequestFilter,
): boolean {
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
