import pg from 'pg';
import { DurableMark, StoreUnavailable } from '../durable-mark';
import type { Durability } from '../persistence';
import {
  type DataFileContents,
  FORMAT,
  FORMAT_VERSION,
  GLOBAL,
  type Op,
  type RawRecord,
  type ScopeData,
} from '../types';
import { writeGroup } from './commit';
import { checkSchemaName, migrate, servingLock } from './schema';

// The PostgreSQL store's durability (architecture.md, The store on PostgreSQL): what the JSON
// file's journal does, on PostgreSQL. Transactions apply in memory at once and queue their ops
// here; one loop writes everything queued in one PostgreSQL transaction (a group commit) and
// then releases every answer it covered, so an answer that wrote is sent only once PostgreSQL
// committed it.

/** A statement that runs longer than this is cut (decisions.md, The store on PostgreSQL). */
export const STATEMENT_TIMEOUT_MS = 30_000;
/** Connections a node keeps: one commits at a time; the others load workspaces meanwhile. */
export const POOL_SIZE = 4;

export class PgPersistence implements Durability {
  readonly #pool: pg.Pool;
  /** A connection of its own holding the schema's serving lock (schema.ts, servingLock). */
  #holder: pg.Client;
  readonly #url: string;
  readonly #schema: string;
  readonly #s: string;
  #queue: { seq: number; ops: Op[] }[] = [];
  readonly #mark: DurableMark;
  #loop: Promise<void> | undefined;
  /**
   * A commit failed and what memory held beyond PostgreSQL was let go: nothing is written until
   * the store is read back (`resume`). Set, it is what every write waiting meanwhile is told.
   */
  #down: Error | undefined;
  #onLost: () => void = () => {};
  #closed = false;

  private constructor(
    url: string,
    schema: string,
    pool: pg.Pool,
    holder: pg.Client,
    durableSeq: number,
  ) {
    this.#url = url;
    this.#schema = schema;
    this.#pool = pool;
    this.#holder = holder;
    this.#s = checkSchemaName(schema);
    this.#mark = new DurableMark(durableSeq);
    this.#watch(holder);
  }

  /**
   * The serving lock lives as long as its connection: one lost (the database stopped or
   * restarted, the connection cut) is a commit lost, even with no write under way, so the lock
   * is taken again before the store is read back and served (decisions.md).
   */
  #watch(holder: pg.Client): void {
    holder.once('end', () => {
      if (!this.#closed && holder === this.#holder) {
        this.#lose(new Error('the connection holding the schema was lost'));
      }
    });
  }

  /** Connects, brings the schema to this svc's version, and reads every record. */
  static async open(
    url: string,
    schema: string,
  ): Promise<{ persistence: PgPersistence; data: DataFileContents }> {
    const s = checkSchemaName(schema);
    const pool = new pg.Pool({
      connectionString: url,
      max: POOL_SIZE,
      statement_timeout: STATEMENT_TIMEOUT_MS,
      connectionTimeoutMillis: 10_000,
    });
    // A connection that drops while idle is the pool's to replace, not an uncaught error.
    pool.on('error', () => {});
    let holder: pg.Client | undefined;
    try {
      holder = await hold(url, schema);
      const client = await pool.connect();
      try {
        await migrate(client, schema);
        const data = await readAll(client, s);
        return { persistence: new PgPersistence(url, schema, pool, holder, data.seq), data };
      } finally {
        client.release();
      }
    } catch (err) {
      await pool.end();
      await holder?.end().catch(() => {});
      throw err;
    }
  }

  get journalBytes(): number {
    return 0;
  }

  get available(): boolean {
    return this.#down === undefined;
  }

  /** Closed: a read back after a lost commit stops trying. */
  get closed(): boolean {
    return this.#closed;
  }

  enqueue(seq: number, ops: Op[]): void {
    if (this.#down) {
      return; // let go with the rest: the store is read back before anything is written again
    }
    this.#queue.push({ seq, ops });
    this.#kick();
  }

  /** Called when a commit failed: the store then refuses answers and reads itself back. */
  onLost(listener: () => void): void {
    this.#onLost = listener;
  }

  /** Every record as PostgreSQL holds it now (the store read back after a failed commit). */
  async readAll(): Promise<DataFileContents> {
    const client = await this.#pool.connect();
    try {
      return await readAll(client, this.#s);
    } finally {
      client.release();
    }
  }

  /**
   * Before the store is read back: the serving lock again, on a new connection (a database that
   * restarted let it go with the old one). Refused while another svc took the schema
   * meanwhile, so the read back waits until it stops.
   */
  async rehold(): Promise<void> {
    await this.#holder.end().catch(() => {}); // alive or not: its lock goes with it
    this.#holder = await hold(this.#url, this.#schema);
    this.#watch(this.#holder);
  }

  /** The store was read back: commits are written again. */
  resume(): void {
    this.#down = undefined;
  }

  #kick(): void {
    // What is queued between the loop's last look and its end starts the next loop.
    this.#loop ??= this.#drain().finally(() => {
      this.#loop = undefined;
      if (this.#queue.length > 0 && this.#down === undefined) {
        this.#kick();
      }
    });
  }

  /** Resolves once everything up to `seq` is committed in PostgreSQL. */
  waitFor(seq: number): Promise<void> {
    if (this.#down && seq > this.#mark.seq) {
      return Promise.reject(this.#down);
    }
    return this.#mark.wait(seq);
  }

  /** PostgreSQL keeps its own files: nothing to fold. */
  foldSoon(): void {}

  compact(): Promise<void> {
    return Promise.resolve();
  }

  /** Commits what is queued, then lets the pool go. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#loop;
    await this.#pool.end();
    await this.#holder.end().catch(() => {});
  }

  async #drain(): Promise<void> {
    while (this.#queue.length > 0 && this.#down === undefined) {
      const batch = this.#queue.splice(0);
      try {
        await this.#commit(batch);
      } catch (err) {
        this.#lose(err as Error);
        return;
      }
      this.#mark.reach(batch.at(-1)?.seq ?? this.#mark.seq);
    }
  }

  /** One group, whole or not at all (pg/commit.ts). */
  async #commit(batch: { seq: number; ops: Op[] }[]): Promise<void> {
    const client = await this.#pool.connect();
    try {
      await writeGroup(client, this.#s, batch);
    } finally {
      client.release();
    }
  }

  /**
   * A commit failed: every write not committed yet (this group, and any queued after it, which
   * memory built on it) is refused, and the store reads itself back (decisions.md, The store on
   * PostgreSQL): memory never keeps a write PostgreSQL does not hold.
   */
  #lose(err: Error): void {
    if (this.#down) {
      return; // being read back already
    }
    this.#down = new StoreUnavailable(`PostgreSQL did not commit: ${err.message}`);
    this.#queue = [];
    this.#mark.rejectAll(this.#down);
    this.#onLost();
  }
}

/**
 * A connection holding `schema`'s serving lock. Alone until several nodes are built: two svc over
 * one schema would each answer from their own memory, and each overwrite the other's writes
 * (decisions.md).
 */
async function hold(url: string, schema: string): Promise<pg.Client> {
  const holder = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  holder.on('error', () => {});
  try {
    await holder.connect();
    const held = await holder.query<{ got: boolean }>(
      'SELECT pg_try_advisory_lock(hashtext($1)) AS got',
      [servingLock(schema)],
    );
    if (!held.rows[0]?.got) {
      throw new Error(
        `a svc already serves schema ${schema} of that database: one svc a schema (give another --store-schema)`,
      );
    }
    return holder;
  } catch (err) {
    await holder.end().catch(() => {});
    throw err;
  }
}

/** Every record of schema `s` and the last commit's seq, as the data file's contents. */
async function readAll(client: pg.ClientBase, s: string): Promise<DataFileContents> {
  const seq = await client.query<{ value: number }>(
    `SELECT value FROM ${s}.meta WHERE key = 'seq'`,
  );
  const rows = await client.query<{ scope: string; coll: string; id: string; data: RawRecord }>(
    `SELECT scope, coll, id, data FROM ${s}.records ORDER BY ord`,
  );
  return contentsOf(Number(seq.rows[0]?.value ?? 0), rows.rows);
}

/** The rows read back as the data file's contents: every scope parsed, the global one apart. */
function contentsOf(
  seq: number,
  rows: { scope: string; coll: string; id: string; data: RawRecord }[],
): DataFileContents {
  const global: ScopeData = {};
  const workspaces: Record<string, ScopeData> = {};
  for (const { scope, coll, id, data } of rows) {
    if (scope !== GLOBAL && workspaces[scope] === undefined) {
      workspaces[scope] = {};
    }
    const into = scope === GLOBAL ? global : (workspaces[scope] as ScopeData);
    const records = into[coll] ?? {};
    into[coll] = records;
    records[id] = data;
  }
  return { format: FORMAT, version: FORMAT_VERSION, seq, global, workspaces };
}
