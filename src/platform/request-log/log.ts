import type { Clock, Scheduler } from '../clock';
import { ApiError } from '../errors';
import { LogFiles, MAX_LINES, type Place } from './files';
import {
  entryOf,
  type Filters,
  filtersOf,
  type LoggedRequest,
  lineParts,
  type NewEntry,
} from './lines';

export { cap, type LoggedRequest, type LoggedResponse, type NewEntry } from './lines';

/** Told of each call as it is logged, under the id the log gave it (the inspector's live log). */
export type LogWatcher = (id: string, entry: NewEntry) => void;

/**
 * What the log keeps of a call in memory: what the filters read, and where its line is. The whole
 * entry is in memory only when there is no file (or it has failed): holding 20,000 bodies of up to
 * 16 KB each cost a third of a read's throughput in garbage collection.
 */
interface Indexed extends Omit<Filters, 'at'> {
  atMs: number;
  place: Place | undefined;
  line: string | undefined;
  /** The line's bytes when it is kept in memory (see #memoryBytes), else 0. */
  bytes: number;
}

export interface RequestFilter {
  workspace_id?: string | undefined;
  key_id?: string | undefined;
  method?: string | undefined;
  /** A prefix of the path: `/v1/jobs` matches `/v1/jobs/<id>` too. */
  path?: string | undefined;
  /** An exact status (`404`) or a class (`4xx`). */
  status?: string | undefined;
  /** Calls made at or after this ISO instant. */
  since?: string | undefined;
  /** Calls made before this ISO instant. */
  until?: string | undefined;
  /** A fault's id: the calls it hit; `true`: every faulted call; `false`: every other. */
  fault?: string | undefined;
}

const RETAIN_MS = 14 * 24 * 60 * 60 * 1000; // spec, Limits: 14 days
export const MAX_ENTRIES = MAX_LINES;
/** The default byte budget of the log (`svc serve --request-log-max-bytes`): 64 MiB. */
export const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;
const TRIM_BATCH = 1_000;
const PURGE_TASK = 'request-log:purge';
// Expired entries are dropped in batches, not one by one.
const PURGE_BATCH_MS = 60 * 60 * 1000;
// Lines go to the file in batches: a write a request was a thread-pool round trip each.
const FLUSH_MS = 10;
const FLUSH_BYTES = 512 * 1024;
// An export reads its entries back from the files this many at a time: memory stays that of one
// batch, whatever the log holds.
const EXPORT_BATCH = 200;

/** The files of the request log kept beside a data file, the current one first. */
export const requestLogFiles = (data: string): string[] => [
  `${data}.requests.jsonl`,
  `${data}.requests.jsonl.1`,
];

const idOf = (n: number) => `rq_${String(n).padStart(10, '0')}`;

// spec, Limits: calls made with a credential are kept 14 days. The filter fields live in memory,
// the entries in JSON-lines files beside the data file (LogFiles). Past MAX_ENTRIES, or once the
// lines take more than the byte budget, the oldest go first (docs/decisions.md).
export class RequestLog {
  readonly #clock: Clock;
  readonly #scheduler: Scheduler;
  readonly #files: LogFiles | undefined;
  readonly #maxBytes: number | null;
  /** In time order; those before #first are dropped already, spliced off in batches. */
  #entries: Indexed[] = [];
  #first = 0;
  /** The bytes of the lines kept in memory (no file, or a failed one), held within #maxBytes. */
  #memoryBytes = 0;
  /** The files are read: lines may be placed (LogFiles places each as it is added). */
  #ready = false;
  /** Calls taken and not yet written down (see appendLater). */
  #queue: (() => NewEntry)[] = [];
  #flushTimer: NodeJS.Timeout | undefined;
  #loaded: Promise<void> | undefined;
  #seq = 0;
  #warned = false;
  readonly #watchers = new Map<LogWatcher, RequestFilter>();

  constructor(
    clock: Clock,
    scheduler: Scheduler,
    file?: string,
    log: (line: string) => void = () => {},
    maxBytes: number | null = DEFAULT_MAX_BYTES,
  ) {
    this.#clock = clock;
    this.#scheduler = scheduler;
    this.#maxBytes = maxBytes;
    // A log that cannot be written must not fail requests; it says so once.
    this.#files =
      file === undefined
        ? undefined
        : new LogFiles(
            file,
            (err) => {
              if (!this.#warned) {
                this.#warned = true;
                log(`svc: cannot write the request log ${file}: ${(err as Error).message}`);
              }
            },
            maxBytes,
          );
  }

  /** Reads the files in the background; queries and file writes wait for it, requests never do. */
  load(): Promise<void> {
    this.#loaded ??= this.#read();
    return this.#loaded;
  }

  append(entry: NewEntry): void {
    this.appendLater(() => entry);
  }

  /**
   * Takes a call, to be made into an entry and written down once the answers of this turn of the
   * event loop are on their way. Logging a read on its answer's path cost a fifth of the reads a
   * busy server could answer; done after, it fills the moments the server waits for requests.
   */
  appendLater(make: () => NewEntry): void {
    if (!this.#loaded) {
      void this.load();
    }
    this.#queue.push(make);
    if (this.#queue.length === 1) {
      setImmediate(this.#drain);
    }
  }

  readonly #drain = (): void => {
    if (!this.#ready) {
      return; // #read drains once the files are read
    }
    const queue = this.#queue;
    this.#queue = [];
    for (const make of queue) {
      this.#write(make());
    }
  };

  #write(entry: NewEntry): void {
    const id = idOf(++this.#seq);
    const parts = lineParts(id, entry);
    const place = this.#files?.add(parts);
    const line = place ? undefined : parts.join('');
    const bytes = line === undefined ? 0 : Buffer.byteLength(line);
    this.#memoryBytes += bytes;
    this.#entries.push({
      id,
      atMs: Date.parse(entry.at),
      method: entry.method,
      path: entry.path,
      status: entry.status,
      key_id: entry.key_id,
      workspace_id: entry.workspace_id,
      fault: entry.fault,
      place,
      line,
      bytes,
    });
    if (this.#watchers.size > 0) {
      this.#tell(this.#entries[this.#entries.length - 1] as Indexed, entry);
    }
    this.#trim();
    if (place && this.#files) {
      if (this.#files.pendingBytes >= FLUSH_BYTES) {
        this.#flush();
      } else {
        this.#flushTimer ??= setTimeout(() => this.#flush(), FLUSH_MS);
      }
    }
    if (!this.#scheduler.has(PURGE_TASK)) {
      this.#schedulePurge();
    }
  }

  /**
   * Drops the oldest entries past MAX_ENTRIES, those whose lines a rotation took away (so the list
   * and the export never name an entry they cannot answer), and those whose lines in memory take
   * more than the byte budget. The newest entry always stays.
   */
  #trim(): void {
    const oldest = this.#files?.oldest ?? 0;
    const last = this.#entries.length - 1;
    while (this.#first < last) {
      const e = this.#entries[this.#first] as Indexed;
      const over =
        last - this.#first >= MAX_ENTRIES ||
        (e.place !== undefined && e.place.segment < oldest) ||
        (this.#maxBytes !== null && this.#memoryBytes > this.#maxBytes);
      if (!over) {
        break;
      }
      this.#memoryBytes -= e.bytes;
      this.#first += 1;
    }
    // Spliced in batches: a splice a request would copy the whole array each time.
    if (this.#first >= TRIM_BATCH) {
      this.#entries.splice(0, this.#first);
      this.#first = 0;
    }
  }

  /** Calls `watcher` with every call logged from now on that `filter` matches; returns the stop. */
  watch(filter: RequestFilter, watcher: LogWatcher): () => void {
    this.#watchers.set(watcher, filter);
    return () => {
      this.#watchers.delete(watcher);
    };
  }

  #tell(indexed: Indexed, entry: NewEntry): void {
    for (const [watcher, filter] of this.#watchers) {
      if (matches(indexed, filter)) {
        try {
          watcher(indexed.id, entry);
        } catch {
          // A watcher's failure (a page gone) is its own: the log is written all the same.
        }
      }
    }
  }

  async query(
    filter: RequestFilter,
    limit: number,
    before?: string,
  ): Promise<{ data: LoggedRequest[]; hasMore: boolean }> {
    await this.load();
    this.#drain();
    if (before !== undefined && !/^rq_\d{10}$/.test(before)) {
      throw new ApiError('invalid_request', 'cursor was not issued by this request log', 'cursor');
    }
    const found: Indexed[] = [];
    let hasMore = false;
    const oldest = this.#first;
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

  /**
   * Every entry matching `filter`, oldest first, in batches read back from the files one at a
   * time (see EXPORT_BATCH). Which entries is settled when it starts; one the files lost by then
   * (rotated away) is left out.
   */
  async *export(filter: RequestFilter): AsyncGenerator<LoggedRequest[]> {
    await this.load();
    this.#drain();
    const cutoff = this.#clock.nowMs() - RETAIN_MS;
    const found: Indexed[] = [];
    for (let i = this.#first; i < this.#entries.length; i++) {
      const entry = this.#entries[i] as Indexed;
      if (entry.atMs > cutoff && matches(entry, filter)) {
        found.push(entry);
      }
    }
    for (let i = 0; i < found.length; i += EXPORT_BATCH) {
      yield await this.#whole(found.slice(i, i + EXPORT_BATCH));
    }
  }

  /** Waits for lines handed to the file so far. */
  async close(): Promise<void> {
    await this.#loaded;
    this.#drain();
    this.#flush();
    await this.#files?.close();
  }

  /** The whole entries, from memory or from the files, each under the id the log gives it now. */
  async #whole(found: Indexed[]): Promise<LoggedRequest[]> {
    const inFiles = found.flatMap((e) => (e.place ? [e.place] : []));
    const read = inFiles.length > 0 && this.#files ? await this.#files.read(inFiles) : [];
    const out: LoggedRequest[] = [];
    let next = 0;
    for (const e of found) {
      const line = e.place ? read[next++] : e.line;
      const entry = line === undefined ? undefined : entryOf(line);
      if (entry) {
        out.push({ ...entry, id: e.id });
      }
    }
    return out;
  }

  async #read(): Promise<void> {
    const cutoff = this.#clock.nowMs() - RETAIN_MS;
    const earlier: Indexed[] = [];
    await this.#files?.load((bytes, start, end, place) => {
      const head = filtersOf(bytes, start, end);
      const atMs = head ? Date.parse(head.at) : Number.NaN;
      if (head && atMs > cutoff) {
        const { id, method, path, status, key_id, workspace_id, fault } = head;
        earlier.push({
          id,
          method,
          path,
          status,
          key_id,
          workspace_id,
          fault,
          atMs,
          place,
          line: undefined,
          bytes: 0,
        });
      }
    });
    // This run's calls wait in the queue until now (see #drain): ids follow the earlier ones.
    this.#entries = earlier.slice(-MAX_ENTRIES);
    this.#first = 0;
    this.#memoryBytes = 0;
    this.#seq = 0;
    for (const entry of this.#entries) {
      entry.id = idOf(++this.#seq);
    }
    this.#ready = true;
    this.#drain();
    this.#schedulePurge();
  }

  #flush(): void {
    clearTimeout(this.#flushTimer);
    this.#flushTimer = undefined;
    this.#files?.flush();
  }

  #schedulePurge(): void {
    const oldest = this.#entries[this.#first];
    if (oldest) {
      this.#scheduler.schedule(PURGE_TASK, oldest.atMs + RETAIN_MS + PURGE_BATCH_MS, () =>
        this.#purge(),
      );
    }
  }

  /** Drops expired entries; a file none of the kept entries is in is deleted. */
  async #purge(): Promise<void> {
    const cutoff = this.#clock.nowMs() - RETAIN_MS;
    let keep = this.#first;
    while (keep < this.#entries.length && (this.#entries[keep] as Indexed).atMs <= cutoff) {
      this.#memoryBytes -= (this.#entries[keep] as Indexed).bytes;
      keep += 1;
    }
    this.#entries = this.#entries.slice(keep);
    this.#first = 0;
    await this.#files?.purge(this.#entries.flatMap((e) => (e.place ? [e.place] : [])));
    this.#schedulePurge();
  }
}

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
  if (filter.since !== undefined && entry.atMs < Date.parse(filter.since)) {
    return false;
  }
  if (filter.until !== undefined && entry.atMs >= Date.parse(filter.until)) {
    return false;
  }
  if (filter.fault !== undefined && !faultMatches(entry.fault, filter.fault)) {
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

const faultMatches = (fault: string | undefined, wanted: string): boolean =>
  wanted === 'true'
    ? fault !== undefined
    : wanted === 'false'
      ? fault === undefined
      : fault === wanted;
