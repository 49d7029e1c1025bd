import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Low } from 'lowdb';
import { encodeGroup, Journal, type JournalTx } from './journal';
import { acquireLock } from './lock';
import { DurableJsonFile } from './snapshot';
import type { DataFile, Op } from './types';

const MIN_COMPACT_BYTES = 8 * 1024 * 1024;

interface Waiter {
  seq: number;
  resolve: () => void;
  reject: (err: Error) => void;
}

// Group commit: transactions apply in memory at once and queue their ops here; one loop writes
// everything queued as one journal line and fdatasyncs, then releases every waiter it covered.
// When the journal outgrows the last snapshot, the loop writes a fresh snapshot and empties the
// journal; tying the threshold to the snapshot's size keeps the amortised cost of a write O(1).
export class Persistence {
  readonly dataPath: string;
  readonly #db: Low<DataFile>;
  readonly #file: DurableJsonFile;
  readonly #journal: Journal;
  readonly #release: () => void;
  readonly #view: () => DataFile;
  #queue: JournalTx[] = [];
  #waiters: Waiter[] = [];
  #compactions: { resolve: () => void; reject: (err: Error) => void }[] = [];
  #durableSeq: number;
  #loop: Promise<void> | undefined;
  #failure: Error | undefined;

  private constructor(
    dataPath: string,
    file: DurableJsonFile,
    journal: Journal,
    release: () => void,
    view: () => DataFile,
    durableSeq: number,
  ) {
    this.dataPath = dataPath;
    this.#file = file;
    this.#db = new Low<DataFile>(file, emptyData());
    this.#journal = journal;
    this.#release = release;
    this.#view = view;
    this.#durableSeq = durableSeq;
  }

  /** Locks and reads the data file and its journal; `view` later yields the data to snapshot. */
  static async open(
    dataPath: string,
    view: () => DataFile,
  ): Promise<{ persistence: Persistence; data: DataFile | null; txs: JournalTx[] }> {
    await mkdir(dirname(dataPath), { recursive: true });
    const release = acquireLock(dataPath);
    try {
      const file = new DurableJsonFile(dataPath);
      const data = await file.read();
      const { journal, txs } = await Journal.open(`${dataPath}.journal`);
      const seq = data?.seq ?? 0;
      const pending = txs.filter((tx) => tx.seq > seq);
      const lastSeq = pending.at(-1)?.seq ?? seq;
      const persistence = new Persistence(dataPath, file, journal, release, view, lastSeq);
      return { persistence, data, txs: pending };
    } catch (err) {
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
    if (seq <= this.#durableSeq) {
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => this.#waiters.push({ seq, resolve, reject }));
  }

  /**
   * Writes a snapshot of everything applied so far and empties the journal. It runs inside the
   * commit loop, never beside it: a group appended while the snapshot is written would be
   * acknowledged and then cut away with the journal.
   */
  compact(): Promise<void> {
    if (this.#failure) {
      return Promise.reject(this.#failure);
    }
    return new Promise((resolve, reject) => {
      this.#compactions.push({ resolve, reject });
      this.#kick();
    });
  }

  async close(): Promise<void> {
    await this.compact();
    await this.#journal.close();
    this.#release();
  }

  #kick(): void {
    if (this.#loop === undefined) {
      // setImmediate, not a microtask: lets every transaction of this turn join the group.
      this.#loop = new Promise<void>((resolve) => setImmediate(resolve))
        .then(() => this.#drain())
        .finally(() => {
          this.#loop = undefined;
          if ((this.#queue.length > 0 || this.#compactions.length > 0) && !this.#failure) {
            this.#kick();
          }
        });
    }
  }

  async #drain(): Promise<void> {
    try {
      while (this.#queue.length > 0 || this.#compactions.length > 0) {
        if (this.#queue.length > 0) {
          const group = this.#queue;
          this.#queue = [];
          await this.#journal.append(encodeGroup(group));
          this.#markDurable(group.at(-1)?.seq ?? this.#durableSeq);
        }
        const asked = this.#compactions;
        if (
          asked.length > 0 ||
          this.#journal.bytes > Math.max(MIN_COMPACT_BYTES, this.#file.bytes)
        ) {
          this.#compactions = [];
          await this.#compactNow();
          for (const waiter of asked) {
            waiter.resolve();
          }
        }
      }
    } catch (err) {
      this.#fail(err as Error);
    }
  }

  async #compactNow(): Promise<void> {
    const view = this.#view();
    this.#db.data = view;
    await this.#db.write();
    await this.#journal.truncate();
    this.#queue = this.#queue.filter((tx) => tx.seq > view.seq);
    this.#markDurable(view.seq);
  }

  #markDurable(seq: number): void {
    this.#durableSeq = Math.max(this.#durableSeq, seq);
    const still: Waiter[] = [];
    for (const waiter of this.#waiters) {
      if (waiter.seq <= this.#durableSeq) {
        waiter.resolve();
      } else {
        still.push(waiter);
      }
    }
    this.#waiters = still;
  }

  #fail(err: Error): void {
    this.#failure = new Error(`writing ${this.dataPath} failed: ${err.message}`);
    for (const waiter of [...this.#waiters, ...this.#compactions]) {
      waiter.reject(this.#failure);
    }
    this.#waiters = [];
    this.#compactions = [];
  }
}

export function emptyData(): DataFile {
  return { format: 'svc-data', version: 1, seq: 0, global: {}, workspaces: {} };
}
