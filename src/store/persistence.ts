import { mkdir, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { compactFiles } from './compactor';
import { DataFile, parseIdentity } from './data-file';
import { DurableMark } from './durable-mark';
import { encodeGroup, Journal, type JournalTx, type ReplayTx } from './journal';
import { acquireLock, noteInLock } from './lock';
import { FoldStopped } from './pace';
import type { Cluster } from './pg/cluster';
import type { DataFileContents, Op, Scope } from './types';

const MIN_COMPACT_BYTES = 8 * 1024 * 1024;
/**
 * The journal is folded in once it outgrows this share of the data file: a fold holds the journal's
 * changed records in memory, and a restart after a crash replays the journal, so both stay a
 * fraction of the data; a fold copies the file, so each costs at most 4 bytes a journal byte.
 */
const COMPACT_SHARE = 4;

/** How long after a workspace is dropped the data file is folded without it (see foldSoon). */
const FOLD_AFTER_DROP_MS = 1000;

/** How long after a fold failed the next is tried, unless a compaction is asked for. */
const FOLD_RETRY_MS = 5000;

/** Where commits are made durable: the JSON file's journal (below), or PostgreSQL (pg/). */
export interface Durability {
  readonly journalBytes: number;
  /** False while writes cannot be made durable (PostgreSQL being read back). */
  readonly available?: boolean;
  enqueue(seq: number, ops: Op[]): void;
  /** A workspace's next work due after the commit just queued (PostgreSQL keeps it, residency.ts). */
  noteDue?(scope: Scope, due: number | null): void;
  /** PostgreSQL served by several nodes: what a node coordinates with the others by. */
  readonly cluster?: Cluster | undefined;
  waitFor(seq: number): Promise<void>;
  foldSoon(): void;
  compact(): Promise<void>;
  close(): Promise<void>;
}

// Group commit: transactions apply in memory at once and queue their ops here; one loop writes
// everything queued as one journal line and fdatasyncs, then releases every waiter it covered.
//
// Compaction: when the journal outgrows a share of the data file (tying the threshold to the
// file's size keeps the amortised cost of a write O(1)), the loop sets the journal aside as
// `<journal>.prev` and goes on appending to a fresh one, while a worker thread folds `.prev` into
// the data file (fold.ts): it reads the files, not the server's records, so nothing of it runs on
// the requests' event loop. `.prev` is deleted once the new data file is on disk; a start that
// finds it replays it before the journal and folds it in the background.
export class Persistence implements Durability {
  readonly dataPath: string;
  readonly #file: DataFile;
  readonly #journal: Journal;
  readonly #release: () => void;
  #queue: JournalTx[] = [];
  #compactions: { resolve: () => void; reject: (err: Error) => void }[] = [];
  #folding: Promise<void> | undefined;
  readonly #mark: DurableMark;
  #loop: Promise<void> | undefined;
  #failure: Error | undefined;
  /**
   * A fold failed: `.prev` still holds writes the data file lacks. It is folded again (not before
   * #retryAt, unless asked) and the journal is not set aside meanwhile, which would take its place.
   */
  #asideLeft = false;
  #retryAt = 0;
  /**
   * Shutting down: a fold runs flat out, nothing waits for answers any more, and one under way is
   * stopped, to be done again with the journal written since: one pass, not two.
   */
  #closing = false;
  #stopFold: () => void = () => {};
  /** A fold asked for by foldSoon, not yet started. */
  #foldTimer: NodeJS.Timeout | undefined;

  private constructor(
    dataPath: string,
    file: DataFile,
    journal: Journal,
    release: () => void,
    durableSeq: number,
  ) {
    this.dataPath = dataPath;
    this.#file = file;
    this.#journal = journal;
    this.#release = release;
    this.#mark = new DurableMark(durableSeq);
  }

  /**
   * Locks and reads the data file and its journals. A journal left set aside (a compaction was
   * cut short) is folded in again in the background, the requests meanwhile served from memory.
   */
  static async open(dataPath: string): Promise<{
    persistence: Persistence;
    data: DataFileContents | null;
    txs: ReplayTx[];
  }> {
    await mkdir(dirname(dataPath), { recursive: true });
    const { release, left } = acquireLock(dataPath);
    const file = new DataFile(dataPath);
    try {
      // All three at once, creating nothing: the journals' reads wait on the disk while the
      // data file is parsed, and a file found unreadable leaves the directory as it was. A file
      // still as a svc that was killed last knew it is not read through for its checksum.
      const [data, aside, current] = await Promise.all([
        file.read(parseIdentity(left)),
        Journal.read(asidePath(dataPath)),
        Journal.read(journalPath(dataPath)),
      ]);
      const journal = await Journal.open(journalPath(dataPath), current);
      const txs = [...(aside?.txs ?? []), ...(current?.txs ?? [])];
      const seq = data?.seq ?? 0;
      const pending = txs.filter((tx) => tx.seq > seq);
      const lastSeq = pending.at(-1)?.seq ?? seq;
      const persistence = new Persistence(dataPath, file, journal, release, lastSeq);
      if (file.trusted) {
        persistence.#remember();
      }
      if (aside !== null) {
        persistence.#fold();
      }
      return { persistence, data, txs: pending };
    } catch (err) {
      file.close();
      release();
      throw err;
    }
  }

  get journalBytes(): number {
    return this.#journal.bytes;
  }

  enqueue(seq: number, ops: Op[]): void {
    this.#queue.push({ seq, ops });
    this.#kick();
  }

  /** Resolves once everything up to `seq` is on disk. */
  waitFor(seq: number): Promise<void> {
    if (this.#failure) {
      return Promise.reject(this.#failure);
    }
    return this.#mark.wait(seq);
  }

  /** Resolves once a data file holding everything applied before this call is on disk. */
  compact(): Promise<void> {
    if (this.#failure) {
      return Promise.reject(this.#failure);
    }
    return new Promise((resolve, reject) => {
      this.#compactions.push({ resolve, reject });
      this.#kick();
    });
  }

  /**
   * A fold a moment from now, unless one is already asked for: a dropped workspace's records
   * leave the data file then, and a CI server deleting a workspace a second folds once for
   * several, not once each. A fold that fails is tried again by the loop; nothing waits on this.
   */
  foldSoon(): void {
    if (this.#foldTimer !== undefined || this.#closing) {
      return;
    }
    this.#foldTimer = setTimeout(() => {
      this.#foldTimer = undefined;
      if (!this.#closing) {
        this.compact().catch(() => undefined);
      }
    }, FOLD_AFTER_DROP_MS);
    this.#foldTimer.unref();
  }

  /**
   * Flushes and, unless the data file already holds everything, folds the journal into it a last time. Rejects when
   * anything failed to reach the disk, now or before: a shutdown must not say all was flushed.
   */
  async close(): Promise<void> {
    this.#closing = true;
    clearTimeout(this.#foldTimer);
    this.#stopFold();
    try {
      await this.#loop;
      await this.#folding;
      if (
        !this.#failure &&
        (this.#journal.bytes > 0 || this.#queue.length > 0 || this.#asideLeft)
      ) {
        await this.compact();
      }
    } finally {
      await this.#journal.close();
      this.#file.close();
      this.#release();
    }
    if (this.#failure) {
      throw this.#failure;
    }
  }

  #kick(): void {
    if (this.#loop === undefined) {
      // setImmediate, not a microtask: lets every transaction of this turn join the group.
      this.#loop = new Promise<void>((resolve) => setImmediate(resolve))
        .then(() => this.#drain())
        .finally(() => {
          this.#loop = undefined;
          // Work may have arrived after the loop's last check and before this.
          if ((this.#queue.length > 0 || this.#wantsFold()) && !this.#failure) {
            this.#kick();
          }
        });
    }
  }

  async #drain(): Promise<void> {
    try {
      while (this.#queue.length > 0 || this.#wantsFold()) {
        if (this.#queue.length > 0) {
          const group = this.#queue;
          this.#queue = [];
          await this.#journal.append(encodeGroup(group));
          this.#mark.reach(group.at(-1)?.seq ?? this.#mark.seq);
        }
        if (this.#wantsFold()) {
          await this.#startFold();
        }
      }
    } catch (err) {
      this.#fail(err as Error);
    }
  }

  #wantsFold(): boolean {
    if (this.#failure !== undefined || this.#folding !== undefined) {
      return false;
    }
    const asked = this.#compactions.length > 0;
    const outgrown =
      this.#journal.bytes > Math.max(MIN_COMPACT_BYTES, this.#file.bytes / COMPACT_SHARE);
    return asked || (outgrown && (!this.#asideLeft || Date.now() >= this.#retryAt));
  }

  /**
   * Inside the loop: set the journal aside; the folding goes on beside. When a fold failed, the
   * journal it left is folded again first, the journal kept where it is: those who asked wait for
   * the fold after it, which takes the journal too.
   */
  async #startFold(): Promise<void> {
    if (this.#asideLeft) {
      if (this.#closing) {
        // Both journals in one pass: no write comes any more to need the journal set aside.
        const asked = this.#compactions;
        this.#compactions = [];
        this.#fold(asked, true);
      } else {
        this.#fold([]);
      }
      return;
    }
    const asked = this.#compactions;
    this.#compactions = [];
    await this.#journal.rotate(asidePath(this.dataPath));
    this.#fold(asked);
  }

  /**
   * Folds the journal set aside into the data file, off this thread, then deletes it. `withJournal`
   * (shutting down): the journal is folded in too, then emptied.
   */
  #fold(
    asked: { resolve: () => void; reject: (err: Error) => void }[] = [],
    withJournal = false,
  ): void {
    const aside = asidePath(this.dataPath);
    const compaction = compactFiles({
      dataPath: this.dataPath,
      journals: withJournal ? [aside, this.#journal.path] : [aside],
      paced: !this.#closing,
      trusted: this.#file.trusted,
    });
    this.#stopFold = compaction.stop;
    this.#folding = compaction.done
      .then(async ({ bytes }) => {
        this.#file.bytes = bytes;
        this.#file.trusted = true; // written by the fold, layout and checksum with it
        this.#remember();
        await rm(aside, { force: true });
        this.#asideLeft = false;
        if (withJournal) {
          await this.#journal.empty(); // a start would skip its lines all the same: the file has them
        }
        for (const waiter of asked) {
          waiter.resolve();
        }
      })
      .catch((err: Error) => {
        if (err instanceof FoldStopped) {
          // Shutting down: close() folds `.prev` again with the journal, for these too.
          this.#asideLeft = true;
          this.#compactions.push(...asked);
          return;
        }
        // The writes stay safe in `.prev` and the journal, and writes go on being acknowledged:
        // a fold only saves a start the replay. Whoever asked for a compaction hears of it (a
        // shutdown then says it failed, the journals left for the next start).
        this.#asideLeft = true;
        this.#retryAt = Date.now() + FOLD_RETRY_MS;
        const failed = new Error(`writing ${this.dataPath} failed: ${err.message}`);
        for (const waiter of [...asked, ...this.#compactions]) {
          waiter.reject(failed);
        }
        this.#compactions = [];
      });
    void this.#folding.finally(() => {
      this.#folding = undefined;
      // Shutting down, close() asks for what is left itself.
      if (!this.#closing && (this.#compactions.length > 0 || this.#wantsFold()) && !this.#failure) {
        this.#kick();
      }
    });
  }

  /**
   * Notes in the lock what the data file is now, known to be as svc wrote it: a start after a
   * crash that finds it so reads only its head and layout, not all of it for the checksum.
   * Best effort: without the note a start reads the file through, as it always could.
   */
  #remember(): void {
    const identity = this.#file.identity();
    if (identity !== undefined) {
      try {
        noteInLock(this.dataPath, JSON.stringify(identity));
      } catch {
        // the next start checks the file through
      }
    }
  }

  #fail(err: Error): void {
    this.#failure ??= new Error(`writing ${this.dataPath} failed: ${err.message}`);
    this.#mark.rejectAll(this.#failure);
    for (const waiter of this.#compactions) {
      waiter.reject(this.#failure);
    }
    this.#compactions = [];
  }
}

export const journalPath = (dataPath: string) => `${dataPath}.journal`;
const asidePath = (dataPath: string) => `${dataPath}.journal.prev`;

/** Every file that holds a store's data: a store exists when any of them does. */
export const storeFiles = (dataPath: string): string[] => [
  dataPath,
  journalPath(dataPath),
  asidePath(dataPath),
];
