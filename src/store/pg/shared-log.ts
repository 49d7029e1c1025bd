import type pg from 'pg';

// The request log every node shares (architecture.md, Several nodes): each node writes each call
// it answers to one table, before it answers, and fills its own log from the table, every node's
// calls in the table's order, before it answers a read of the log (the control API, the
// inspector), after each call it logged, and while a live page watches, a few times a second.
// Rows are numbered as they are written, and a number may commit after a higher one: a read
// asks for every row past the last number below which all are taken, and skips those it took.

/** How long a number missing below those taken is waited for (a row committing late) before it
 * is taken for one that never will (a write that failed used it up). */
const GAP_MS = 2000;
/** Calls kept past the log's 14 days, on any clock: cleared from the table, not the nodes' logs. */
const KEEP_MS = 15 * 24 * 60 * 60 * 1000;
const PURGE_EVERY_MS = 60 * 60 * 1000;

export class SharedLog {
  readonly #pool: pg.Pool;
  readonly #s: string;
  readonly #node: string;
  #queue: { entry: string; resolve: () => void; reject: (err: Error) => void }[] = [];
  #writing = false;
  /**
   * Every number up to this one is taken (or was given up on); -1 before the first read. Rows
   * written before this node's first read are never taken: its own log holds what it saw.
   */
  #done = -1;
  /** Numbers above #done taken already, and when each number missing below one was first seen so. */
  readonly #taken = new Set<number>();
  readonly #missing = new Map<number, number>();
  #purged = 0;

  constructor(pool: pg.Pool, s: string, node: string) {
    this.#pool = pool;
    this.#s = s;
    this.#node = node;
  }

  /** Writes one call (a log entry as JSON); calls of one turn go in one statement. */
  publish(entry: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ entry, resolve, reject });
      if (!this.#writing) {
        this.#writing = true;
        queueMicrotask(() => void this.#write());
      }
    });
  }

  async #write(): Promise<void> {
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0);
      try {
        await this.#pool.query(
          `INSERT INTO ${this.#s}.requests (node, entry)
           SELECT $1, e FROM unnest($2::json[]) AS e`,
          [this.#node, batch.map((b) => b.entry)],
        );
        for (const b of batch) {
          b.resolve();
        }
      } catch (err) {
        for (const b of batch) {
          b.reject(err as Error);
        }
      }
    }
    this.#writing = false;
  }

  /**
   * The node starts: calls written before now are not taken in (its log holds what it saw), those
   * written from now on are, its own first call's included, whenever its first read comes.
   */
  async start(client: pg.ClientBase): Promise<void> {
    const { rows } = await client.query<{ last: string | null }>(
      `SELECT max(seq) AS last FROM ${this.#s}.requests`,
    );
    this.#done = Number(rows[0]?.last ?? 0);
  }

  /** Every node's calls written since the last read, in order (at the first, none before it). */
  async since(): Promise<string[]> {
    if (this.#done < 0) {
      const { rows } = await this.#pool.query<{ last: string | null }>(
        `SELECT max(seq) AS last FROM ${this.#s}.requests`,
      );
      this.#done = Number(rows[0]?.last ?? 0);
      return [];
    }
    await this.#purge();
    const { rows } = await this.#pool.query<{ seq: string; entry: string }>(
      `SELECT seq, entry::text AS entry FROM ${this.#s}.requests WHERE seq > $1 ORDER BY seq`,
      [this.#done],
    );
    const out: string[] = [];
    for (const row of rows) {
      const seq = Number(row.seq);
      if (!this.#taken.has(seq)) {
        this.#taken.add(seq);
        out.push(row.entry);
      }
    }
    this.#advance();
    return out;
  }

  /** Moves #done past every number taken, and past one missing longer than GAP_MS. */
  #advance(): void {
    const highest = Math.max(this.#done, ...this.#taken);
    const now = Date.now();
    while (this.#done < highest) {
      const next = this.#done + 1;
      if (this.#taken.delete(next)) {
        this.#missing.delete(next);
      } else {
        const since = this.#missing.get(next) ?? now;
        this.#missing.set(next, since);
        if (now - since < GAP_MS) {
          return;
        }
        this.#missing.delete(next);
      }
      this.#done = next;
    }
  }

  async #purge(): Promise<void> {
    if (Date.now() - this.#purged < PURGE_EVERY_MS) {
      return;
    }
    this.#purged = Date.now();
    await this.#pool.query(
      `DELETE FROM ${this.#s}.requests WHERE at < clock_timestamp() - $1 * interval '1 millisecond'`,
      [KEEP_MS],
    );
  }
}
