import { appendFile, readFile, rename, writeFile } from 'node:fs/promises';
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
  #entries: LoggedRequest[] = [];
  #pendingLines: string[] = [];
  #writing: Promise<void> = Promise.resolve();
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

  append(entry: Omit<LoggedRequest, 'id'>): void {
    const logged = { id: `rq_${String(++this.#seq).padStart(10, '0')}`, ...entry };
    this.#entries.push(logged);
    if (this.#entries.length > MAX_ENTRIES) {
      this.#entries.splice(0, this.#entries.length - MAX_ENTRIES);
    }
    if (this.#file) {
      this.#pendingLines.push(JSON.stringify(logged));
      if (this.#pendingLines.length === 1) {
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
    for (let i = this.#entries.length - 1; i >= 0; i--) {
      const entry = this.#entries[i] as LoggedRequest;
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
    const earlier: LoggedRequest[] = [];
    for (const line of text.split('\n')) {
      try {
        const entry = JSON.parse(line) as LoggedRequest;
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
    if (!file || this.#pendingLines.length === 0) {
      return;
    }
    const text = `${this.#pendingLines.join('\n')}\n`;
    this.#pendingLines = [];
    this.#writing = this.#writing.then(() => appendFile(file, text)).catch(this.#failed);
  }

  /** Replaces the file with what is kept, dropping expired lines and this run's duplicates. */
  async #rewrite(): Promise<void> {
    const file = this.#file;
    if (!file) {
      return;
    }
    this.#pendingLines = [];
    const text = this.#entries.map((e) => `${JSON.stringify(e)}\n`).join('');
    this.#writing = this.#writing
      .then(async () => {
        await writeFile(`${file}.tmp`, text);
        await rename(`${file}.tmp`, file);
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

function matches(entry: LoggedRequest, filter: RequestFilter): boolean {
  if (filter.workspace_id !== undefined && entry.workspace_id !== filter.workspace_id) {
    return false;
  }
  if (filter.key_id !== undefined && entry.key_id !== filter.key_id) {
    return false;
  }
  if (filter.method !== undefined && entry.method !== filter.method.toUpperCase()) {
    return false;
  }
  if (filter.path !== undefined && !entry.path.startsWith(filter.path)) {
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
