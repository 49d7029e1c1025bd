import pg from 'pg';
import { DurableMark, StoreUnavailable } from '../durable-mark';
import type { Durability } from '../persistence';
import { NOTHING_DUE, type ScopeSource } from '../residency';
import {
  type DataFileContents,
  DROP,
  GLOBAL,
  type LoadedScope,
  type Op,
  type Scope,
} from '../types';
import { Cluster } from './cluster';
import { type Versions, writeGroup } from './commit';
import {
  type Catchup,
  readAll,
  readDues,
  readGlobal,
  readScopeAt,
  readSince,
  readVersion,
} from './read';
import { checkSchemaName, hold, migrate } from './schema';

/** What a start reads: the global scope, and when each workspace's next work is due (null: not known). */
export interface Opened {
  persistence: PgPersistence;
  data: DataFileContents;
  dues: Map<Scope, number | null>;
}

// The PostgreSQL store's durability (architecture.md, The store on PostgreSQL): what the JSON
// file's journal does, on PostgreSQL. Transactions apply in memory at once and queue their ops
// here; one loop writes everything queued in one PostgreSQL transaction (a group commit) and
// then releases every answer it covered, so an answer that wrote is sent only once PostgreSQL
// committed it.

/** A statement that runs longer than this is cut (decisions.md, The store on PostgreSQL). */
export const STATEMENT_TIMEOUT_MS = 30_000;
/** Connections a node keeps: one commits at a time; the others load workspaces meanwhile. */
export const POOL_SIZE = 4;

export class PgPersistence implements Durability, ScopeSource {
  readonly #pool: pg.Pool;
  /** A connection of its own holding the schema's serving lock (schema.ts, servingLock). */
  #holder: pg.Client;
  readonly #url: string;
  readonly #schema: string;
  readonly #s: string;
  #queue: { seq: number; ops: Op[] }[] = [];
  /** Each workspace written since the last group, and its next work due then. */
  #dues = new Map<Scope, number>();
  readonly #mark: DurableMark;
  #loop: Promise<void> | undefined;
  /**
   * A commit failed and what memory held beyond PostgreSQL was let go: nothing is written until
   * the store is read back (`resume`). Set, it is what every write waiting meanwhile is told.
   */
  #down: Error | undefined;
  #onLost: (err: Error) => void = () => {};
  #closed = false;
  /** The version of each scope memory holds, as PostgreSQL numbered it (0: never written). */
  readonly known = new Map<Scope, number>();
  /** Set when several nodes may serve the schema (svc serve): leases, and versions checked. */
  cluster: Cluster | undefined;

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

  /**
   * Connects, brings the schema to this svc's version, and reads every record, or (`away`) the
   * global scope alone and when each workspace's work falls due.
   */
  static async open(url: string, schema: string, away = false, node?: string): Promise<Opened> {
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
      const held = await hold(url, schema, node !== undefined);
      holder = held.holder;
      const client = await pool.connect();
      try {
        await migrate(client, schema);
        if (held.alone) {
          // No other node serves: what nodes share outside the records (faults, notices) is the
          // last run's, cleared as one server's memory is by a restart (decisions.md).
          await client.query(`DELETE FROM ${s}.faults; DELETE FROM ${s}.flashes`);
        }
        // Read before the records: what memory then holds is at least as new as it says.
        const version = await readVersion(client, s, GLOBAL);
        const data = away ? await readGlobal(client, s) : await readAll(client, s);
        const dues = away ? await readDues(client, s, data) : new Map();
        const persistence = new PgPersistence(url, schema, pool, holder, data.seq);
        persistence.known.set(GLOBAL, version);
        if (node !== undefined) {
          persistence.cluster = Cluster.connect(url, node, pool, s, schema, persistence.known);
          await persistence.cluster.requests.start(client);
        }
        return { persistence, data, dues };
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

  /** The workspace's next work due (null: none) goes with its next group. */
  noteDue(scope: Scope, due: number | null): void {
    if (!this.#down) {
      // Whole milliseconds, as the column keeps them: a due later by under one is no earlier.
      this.#dues.set(scope, due === null ? NOTHING_DUE : Math.ceil(due));
    }
  }

  get durableSeq(): number {
    return this.#mark.seq;
  }

  /** One workspace's records, in the order memory keeps them. */
  async readScope(scope: Scope): Promise<LoadedScope> {
    const { colls, version } = await this.readFresh(scope);
    this.known.set(scope, version);
    return colls;
  }

  /** One scope's records and its version, read in one statement (so as of one instant). */
  readFresh(scope: Scope): Promise<{ colls: LoadedScope; version: number }> {
    return readScopeAt(this.#pool, this.#s, scope);
  }

  /** What another node wrote to `scope` since version `since` (read.ts, readSince). */
  readSince(scope: Scope, since: number): Promise<Catchup> {
    return readSince(this.#pool, this.#s, scope, since);
  }

  /** The workspaces holding a record by any of `names`, as its id or its second name. */
  async holdersOf(names: readonly string[]): Promise<Scope[]> {
    const { rows } = await this.#pool.query<{ scope: string }>(
      `SELECT DISTINCT scope FROM ${this.#s}.records
       WHERE (id = ANY($1) OR name = ANY($1)) AND scope <> $2`,
      [names, GLOBAL],
    );
    return rows.map((r) => r.scope);
  }

  async counts(scopes: readonly Scope[], colls: readonly string[]): Promise<Map<string, number>> {
    const { rows } = await this.#pool.query<{ scope: string; coll: string; n: number }>(
      `SELECT scope, coll, count(*)::int AS n FROM ${this.#s}.records
       WHERE scope = ANY($1) AND coll = ANY($2) GROUP BY scope, coll`,
      [scopes, colls],
    );
    return new Map(rows.map((r) => [`${r.scope} ${r.coll}`, r.n]));
  }

  /** A workspace's next work due, found by loading it: only where none was known. */
  async learnDue(scope: Scope, due: number | null): Promise<void> {
    await this.#pool.query(
      // An update only: a workspace deleted meanwhile (its row gone) must not come back.
      `UPDATE ${this.#s}.scopes SET due = $2 WHERE scope = $1 AND due IS NULL`,
      [scope, due ?? NOTHING_DUE],
    );
  }

  enqueue(seq: number, ops: Op[]): void {
    if (this.#down) {
      return; // let go with the rest: the store is read back before anything is written again
    }
    this.#queue.push({ seq, ops });
    this.#kick();
  }

  /** Called when a commit failed: the store then refuses answers and reads itself back. */
  onLost(listener: (err: Error) => void): void {
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

  /** The global scope as PostgreSQL holds it now, each workspace's next work due, its version. */
  async readGlobal(): Promise<{
    data: DataFileContents;
    dues: Map<Scope, number | null>;
    version: number;
  }> {
    const client = await this.#pool.connect();
    try {
      const version = await readVersion(client, this.#s, GLOBAL);
      const data = await readGlobal(client, this.#s);
      return { data, dues: await readDues(client, this.#s, data), version };
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
    this.#holder = (await hold(this.#url, this.#schema, this.cluster !== undefined)).holder;
    this.#watch(this.#holder);
  }

  /** The store was read back: commits are written again. */
  resume(): void {
    this.#down = undefined;
  }

  #kick(): void {
    // What is queued between the loop's last look and its end starts the next loop. It starts
    // once the commit that queued it has noted its workspaces' dues (Store.transaction).
    this.#loop ??= Promise.resolve()
      .then(() => this.#drain())
      .finally(() => {
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
    await this.cluster?.close();
    await this.#pool.end();
    await this.#holder.end().catch(() => {});
  }

  async #drain(): Promise<void> {
    while (this.#queue.length > 0 && this.#down === undefined) {
      const batch = this.#queue.splice(0);
      const dues = this.#dues;
      this.#dues = new Map();
      try {
        await this.#commit(batch, dues);
      } catch (err) {
        this.#lose(err as Error);
        return;
      }
      this.#mark.reach(batch.at(-1)?.seq ?? this.#mark.seq);
    }
  }

  /**
   * One group, whole or not at all (pg/commit.ts); with several nodes, only where each scope is
   * still at the version memory holds. Memory then holds each at the version written.
   */
  async #commit(batch: { seq: number; ops: Op[] }[], dues: Map<Scope, number>): Promise<void> {
    const client = await this.#pool.connect();
    let versions: Versions;
    try {
      const expected = this.cluster ? (scope: Scope) => this.known.get(scope) ?? 0 : undefined;
      versions = await writeGroup(client, this.#s, batch, dues, expected);
    } finally {
      client.release();
    }
    for (const { ops } of batch) {
      for (const [scope, coll] of ops) {
        if (coll === DROP) {
          this.known.delete(scope);
        }
      }
    }
    for (const [scope, version] of versions) {
      this.known.set(scope, version);
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
    this.#dues = new Map();
    this.#mark.rejectAll(this.#down);
    this.#onLost(this.#down);
  }
}
