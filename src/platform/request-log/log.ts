import type { Clock, Scheduler } from '../clock';
import { ApiError } from '../errors';
import { Entries, type Found, IN_MEMORY, idOf, type Loaded } from './entries';
import { LogFiles, MAX_LINES, type Place } from './files';
import { matches, type RequestFilter } from './filter';
import { entryOf, filtersOf, type LoggedRequest, lineOf, type NewEntry } from './lines';

export type { RequestFilter } from './filter';
export { cap, type LoggedRequest, type LoggedResponse, type NewEntry } from './lines';

/** Told of each call as it is logged, under the id the log gave it (the inspector's live log). */
export type LogWatcher = (id: string, entry: NewEntry) => void;

const RETAIN_MS = 14 * 24 * 60 * 60 * 1000; // spec, Limits: 14 days
export const MAX_ENTRIES = MAX_LINES;
/** The default byte budget of the log (`svc serve --request-log-max-bytes`): 64 MiB. */
export const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;
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

// spec, Limits: calls made with a credential are kept 14 days. The filter fields live in memory,
// the entries in JSON-lines files beside the data file (LogFiles). Past MAX_ENTRIES, or once the
// lines take more than the byte budget, the oldest go first (docs/decisions.md).
export class RequestLog {
  readonly #clock: Clock;
  readonly #scheduler: Scheduler;
  readonly #files: LogFiles | undefined;
  readonly #maxBytes: number | null;
  readonly #entries = new Entries(MAX_ENTRIES);
  /** The files are read: lines may be placed (LogFiles places each as it is added). */
  #ready = false;
  /** Calls taken and not yet written down (see append). */
  #queue: NewEntry[] = [];
  #flushTimer: NodeJS.Timeout | undefined;
  #loaded: Promise<void> | undefined;
  #warned = false;
  readonly #watchers = new Map<LogWatcher, RequestFilter>();
  /** Whether a workspace still is: a start leaves out (and blanks) the lines of one deleted. */
  #exists: (wsId: string) => boolean = () => true;
  /** How far a workspace's clock is ahead of the server's now. */
  #leadOf: (wsId: string) => number = () => 0;

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

  /**
   * Takes a call, to be written down once the answers of this turn of the event loop are on their
   * way. Logging a read on its answer's path cost a fifth of the reads a busy server could
   * answer; done after, it fills the moments the server waits for requests.
   */
  append(entry: NewEntry): void {
    if (!this.#loaded) {
      void this.load();
    }
    this.#queue.push(entry);
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
    for (const entry of queue) {
      this.#write(entry);
    }
  };

  #write(entry: NewEntry): void {
    const id = idOf(this.#entries.nextSeq);
    const [text, raw] = lineOf(id, entry);
    const atMs = entry.atMs ?? Date.parse(entry.at);
    const files = this.#files;
    if (files?.add(text, raw)) {
      this.#entries.push(entry, atMs, files.placed, undefined, 0, entry.leadMs);
      if (files.pendingBytes >= FLUSH_BYTES) {
        this.#flush();
      } else {
        this.#flushTimer ??= setTimeout(() => this.#flush(), FLUSH_MS);
      }
    } else {
      const line = raw === undefined ? text : text + raw.toString();
      this.#entries.push(entry, atMs, undefined, line, Buffer.byteLength(line), entry.leadMs);
    }
    if (this.#watchers.size > 0) {
      this.#tell(id, atMs, entry);
    }
    this.#trim();
    if (!this.#scheduler.has(PURGE_TASK)) {
      this.#schedulePurge();
    }
  }

  /**
   * Drops the oldest entries whose lines a rotation took away (so the list and the export never
   * name an entry they cannot answer), and those whose lines in memory take more than the byte
   * budget; past MAX_ENTRIES, Entries drops them itself. The newest entry always stays.
   */
  #trim(): void {
    const entries = this.#entries;
    const oldest = this.#files?.oldest ?? 0;
    let drop = 0;
    let memory = entries.memoryBytes;
    while (drop < entries.size - 1) {
      const segment = entries.segmentAt(drop);
      const over =
        (segment !== IN_MEMORY && segment < oldest) ||
        (this.#maxBytes !== null && memory > this.#maxBytes);
      if (!over) {
        break;
      }
      if (segment === IN_MEMORY) {
        memory -= entries.lengthAt(drop);
      }
      drop += 1;
    }
    if (drop > 0) {
      entries.dropOldest(drop);
    }
  }

  /** Tells the log where each workspace's clock stands: an entry's 14 days run on it. */
  followClocks(leadOf: (wsId: string) => number): void {
    this.#leadOf = leadOf;
  }

  /**
   * Whether entry `i` is past its 14 days on its workspace's clock, which may have run ahead of
   * the server's since the call (`cutoff`: the server's now less 14 days).
   */
  #aged(i: number, cutoff: number): boolean {
    const entries = this.#entries;
    const grown = this.#leadOf(entries.workspaceAt(i)) - entries.leadMsAt(i);
    return entries.atMsAt(i) - grown <= cutoff;
  }

  /** Tells the log which workspaces exist, for its start (see forget). */
  knowWorkspaces(exists: (wsId: string) => boolean): void {
    this.#exists = exists;
  }

  /**
   * A workspace deleted: its calls leave the log at once (queries, exports, the live page), and
   * their lines in the files are blanked. A start leaves out the lines of a workspace that no
   * longer exists, should it have stopped before they were blanked on disk.
   */
  forget(wsId: string): void {
    this.#queue = this.#queue.filter((entry) => entry.workspace_id !== wsId);
    const places = this.#entries.forget(wsId);
    void this.#files?.blank(places);
  }

  /**
   * Runs before every read of the log: with several nodes, the other nodes' calls taken in
   * (platform/request-log/shared.ts).
   */
  beforeRead: (() => Promise<void>) | undefined;
  /** With several nodes, asks for the shared table's new calls (a call was just written there). */
  pulled: (() => void) | undefined;

  /** Whether a live page watches the log now. */
  get watched(): boolean {
    return this.#watchers.size > 0;
  }

  /** Calls `watcher` with every call logged from now on that `filter` matches; returns the stop. */
  watch(filter: RequestFilter, watcher: LogWatcher): () => void {
    this.#watchers.set(watcher, filter);
    return () => {
      this.#watchers.delete(watcher);
    };
  }

  #tell(id: string, atMs: number, entry: NewEntry): void {
    for (const [watcher, filter] of this.#watchers) {
      if (matches(entry, atMs, filter)) {
        try {
          watcher(id, entry);
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
    await this.beforeRead?.();
    this.#drain();
    if (before !== undefined && !/^rq_\d{10}$/.test(before)) {
      throw new ApiError('invalid_request', 'cursor was not issued by this request log', 'cursor');
    }
    const entries = this.#entries;
    const found: Found[] = [];
    let hasMore = false;
    // The purge runs in batches, so the 14 days are also enforced here, on every read.
    const cutoff = this.#clock.nowMs() - RETAIN_MS;
    const beforeSeq = before === undefined ? Number.POSITIVE_INFINITY : Number(before.slice(3));
    for (let i = entries.size - 1; i >= 0; i--) {
      if (entries.atMsAt(i) <= cutoff) {
        break; // entries are in time order: every older one is past the 14 days too
      }
      if (entries.seqAt(i) >= beforeSeq) {
        continue;
      }
      if (matches(entries.filtersAt(i), entries.atMsAt(i), filter) && !this.#aged(i, cutoff)) {
        if (found.length === limit) {
          hasMore = true;
          break;
        }
        found.push(entries.foundAt(i));
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
    await this.beforeRead?.();
    this.#drain();
    const entries = this.#entries;
    const cutoff = this.#clock.nowMs() - RETAIN_MS;
    const found: Found[] = [];
    for (let i = 0; i < entries.size; i++) {
      const atMs = entries.atMsAt(i);
      if (atMs > cutoff && matches(entries.filtersAt(i), atMs, filter) && !this.#aged(i, cutoff)) {
        found.push(entries.foundAt(i));
      }
    }
    for (let i = 0; i < found.length; i += EXPORT_BATCH) {
      yield await this.#whole(found.slice(i, i + EXPORT_BATCH));
    }
  }

  /** Waits for lines handed to the file so far. */
  async close(): Promise<void> {
    await this.#loaded;
    // With several nodes, the calls written to the shared table last (this node's own among them).
    await this.beforeRead?.();
    this.#drain();
    this.#flush();
    await this.#files?.close();
  }

  /** The whole entries, from memory or from the files, each under the id the log gives it now. */
  async #whole(found: Found[]): Promise<LoggedRequest[]> {
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
    const earlier: Loaded[] = [];
    const gone: Place[] = [];
    await this.#files?.load((bytes, start, end, place) => {
      const head = filtersOf(bytes, start, end);
      const atMs = head ? Date.parse(head.at) : Number.NaN;
      if (head && !this.#exists(head.workspace_id)) {
        gone.push(place);
      } else if (head && atMs > cutoff) {
        earlier.push(Object.assign(head, { atMs, place })); // not spread: see store Template
      }
    });
    void this.#files?.blank(gone);
    // This run's calls wait in the queue until now (see #drain): ids follow the earlier ones.
    this.#entries.reset();
    for (const entry of earlier.slice(-MAX_ENTRIES)) {
      const lead = this.#leadOf(entry.workspace_id);
      this.#entries.push(entry, entry.atMs, entry.place, undefined, 0, lead);
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
    if (this.#entries.size > 0) {
      this.#scheduler.schedule(
        PURGE_TASK,
        this.#entries.atMsAt(0) + RETAIN_MS + PURGE_BATCH_MS,
        () => this.#purge(),
      );
    }
  }

  /** Drops expired entries; a file none of the kept entries is in is deleted. */
  async #purge(): Promise<void> {
    const entries = this.#entries;
    const cutoff = this.#clock.nowMs() - RETAIN_MS;
    let expired = 0;
    while (expired < entries.size && entries.atMsAt(expired) <= cutoff) {
      expired += 1;
    }
    entries.dropOldest(expired);
    const kept = new Set<number>();
    for (let i = 0; i < entries.size; i++) {
      kept.add(entries.segmentAt(i));
    }
    await this.#files?.purge(kept);
    this.#schedulePurge();
  }
}
