import type pg from 'pg';
import { GLOBAL, type Scope } from '../types';
import { SharedBlobs } from './blobs';
import { KeptAnswers } from './kept-answers';
import { SharedRates } from './rates';
import { SharedLog } from './shared-log';

// Several svc nodes on one PostgreSQL schema (architecture.md, Several nodes). Each node answers
// from its own memory, so before a request reads a scope its node asks PostgreSQL for the
// scope's version and, where another node wrote it since, reads it again; and a node writes a
// scope only under its lease: a PostgreSQL advisory lock, taken on a connection of its own, held
// while that node's writes to the scope are made and committed, and let go once they are. Every
// write is thus made on the scope as the last node left it, whichever node wrote last.

/** How often a node clears claims lapsed long ago. */
const SWEEP_CLAIMS_MS = 60_000;

/** How long a node keeps a lease while its own writes keep coming, before it lets others in. */
const TURN_MS = 50;

interface Lease {
  /** Requests and tasks of this node writing under it now. */
  users: number;
  /** Resolves once the lock is held and the scope is as PostgreSQL holds it. */
  ready: Promise<void>;
  /** Resolves once the lock is let go (a new lease is then taken anew). */
  done: Promise<void>;
  letGo: () => void;
  since: number;
  /** Its last user left: it is being let go, and no one joins it. */
  closing: boolean;
  /** Past its turn: no new request joins it (work its users wait on still does). */
  turnOver: boolean;
  locked: boolean;
}

export interface ClusterLinks {
  /** Reads `scopes` again from PostgreSQL into memory (another node wrote them). */
  refresh(scopes: readonly Scope[]): Promise<void>;
  /** Resolves once everything this node wrote so far is committed. */
  settle(): Promise<void>;
}

export class Cluster {
  /** The name this node answers by (X-Svc-Node). */
  readonly node: string;
  /** The version of each scope as memory holds it (0: never written): the persistence's. */
  readonly known: Map<Scope, number>;
  readonly #pool: pg.Pool;
  readonly #locks: pg.Pool;
  readonly #counts: pg.Pool;
  readonly #s: string;
  readonly #schema: string;
  readonly #leases = new Map<Scope, Lease>();
  /** Each key's rate window, counted over every node. */
  readonly rates: SharedRates;
  /** Idempotency keys' answers, kept for every node. */
  readonly kept: KeptAnswers;
  /** The request log every node writes its calls to and reads the others' from. */
  readonly requests: SharedLog;
  /** Uploaded files' bytes, which every node serves. */
  readonly blobs: SharedBlobs;
  #links: ClusterLinks = { refresh: async () => {}, settle: async () => {} };
  /** The next version check, which callers join until it is sent. */
  #next: { scopes: Set<Scope>; result: Promise<Map<Scope, number>> } | undefined;
  #checking: Promise<unknown> = Promise.resolve();
  #swept = 0;
  /** Workspaces made under the global scope's lease held now (mayWrite). */
  readonly #made = new Set<Scope>();

  /**
   * `pools`: the node's own (versions, claims, kept answers), the leases' (a connection a lease),
   * and one that commits without waiting for the disk (the request log, the rate windows).
   */
  constructor(
    node: string,
    pools: { pool: pg.Pool; locks: pg.Pool; counts: pg.Pool },
    s: string,
    schema: string,
    known: Map<Scope, number>,
  ) {
    const { pool, locks, counts } = pools;
    this.known = known;
    this.#counts = counts;
    this.rates = new SharedRates(counts, s);
    this.kept = new KeptAnswers(pool, s);
    this.requests = new SharedLog(counts, s, node);
    this.blobs = new SharedBlobs(pool, s);
    this.node = node;
    this.#pool = pool;
    this.#locks = locks;
    this.#s = s;
    this.#schema = schema;
  }

  link(links: ClusterLinks): void {
    this.#links = links;
  }

  /**
   * Whether this node may write `scope` now: under its lease; or, a workspace it makes (`fresh`,
   * or made so since), under the global scope's, which no other node finds it by before that is
   * let go.
   */
  mayWrite(scope: Scope, fresh: boolean): boolean {
    if (this.leased(scope)) {
      return true;
    }
    if ((fresh || this.#made.has(scope)) && this.leased(GLOBAL)) {
      this.#made.add(scope);
      return true;
    }
    return false;
  }

  /** Whether this node holds `scope`'s lease now: its memory of it is the latest there is. */
  leased(scope: Scope): boolean {
    return this.#leases.get(scope)?.locked === true;
  }

  /**
   * Before a request or task: the leases of `writes` (the global scope first, then by name, so
   * two nodes never wait on each other), then every scope of `reads` another node wrote since
   * memory read it, read again. Resolves with what lets the leases go.
   */
  async begin(
    reads: readonly Scope[],
    writes: readonly Scope[],
    turn = false,
  ): Promise<() => void> {
    const taken: Scope[] = [];
    const release = () => {
      for (const scope of taken.splice(0)) {
        this.#leave(scope);
      }
    };
    try {
      for (const scope of ordered(writes)) {
        await this.#take(scope, turn);
        taken.push(scope);
      }
      const unleased = reads.filter((scope) => !this.leased(scope));
      if (unleased.length > 0) {
        const versions = await this.versions(unleased);
        const stale = unleased.filter(
          (scope) => !this.leased(scope) && (versions.get(scope) ?? 0) !== this.#knownOf(scope),
        );
        if (stale.length > 0) {
          await this.#links.refresh(stale);
        }
      }
    } catch (err) {
      release();
      throw err;
    }
    return release;
  }

  #knownOf(scope: Scope): number {
    return this.known.get(scope) ?? 0;
  }

  /**
   * The versions PostgreSQL holds of `scopes`, by a query sent after this call: callers that come
   * while one is out join the next, so a busy node sends one at a time.
   */
  versions(scopes: readonly Scope[]): Promise<Map<Scope, number>> {
    let next = this.#next;
    if (next === undefined) {
      const wanted = new Set<Scope>();
      const result = this.#checking.then(() => {
        this.#next = undefined;
        return this.#query(this.#pool, [...wanted]);
      });
      next = { scopes: wanted, result };
      this.#next = next;
      this.#checking = result.catch(() => {});
    }
    for (const scope of scopes) {
      next.scopes.add(scope);
    }
    return next.result;
  }

  async #query(client: pg.Pool | pg.PoolClient, scopes: Scope[]): Promise<Map<Scope, number>> {
    const { rows } = await client.query<{ scope: string; version: string }>(
      `SELECT scope, version FROM ${this.#s}.scopes WHERE scope = ANY($1)`,
      [scopes],
    );
    return new Map(rows.map((r) => [r.scope, Number(r.version)]));
  }

  /**
   * Joins this node's lease of `scope`, or takes it. With `turn` (a request come in, not work a
   * holder of the lease waits on: a task a clock move runs, a delivery's write-back), a lease used
   * past its turn is let go before it is joined, so that another node waiting gets it.
   */
  async #take(scope: Scope, turn = false): Promise<void> {
    for (;;) {
      const lease = this.#leases.get(scope);
      if (lease === undefined) {
        this.#open(scope);
        continue;
      }
      if (turn && !lease.closing && lease.locked && Date.now() - lease.since > TURN_MS) {
        // Its turn is over: those writing under it finish, then another node may write.
        lease.turnOver = true;
      }
      if (lease.closing || (turn && lease.turnOver)) {
        await lease.done;
        continue;
      }
      lease.users += 1;
      try {
        await lease.ready;
      } catch (err) {
        lease.users -= 1;
        throw err;
      }
      return;
    }
  }

  #open(scope: Scope): void {
    let letGo = () => {};
    const done = new Promise<void>((resolve) => {
      letGo = resolve;
    });
    const lease: Lease = {
      users: 0,
      ready: Promise.resolve(),
      done,
      letGo,
      since: Date.now(),
      closing: false,
      turnOver: false,
      locked: false,
    };
    this.#leases.set(scope, lease);
    lease.ready = this.#lock(scope, lease);
    lease.ready.catch(() => {
      this.#leases.delete(scope);
      letGo();
    });
  }

  /** Takes the lock on a connection of its own, then reads the scope again if another wrote it. */
  async #lock(scope: Scope, lease: Lease): Promise<void> {
    const client = await this.#locks.connect();
    // Lost (the database stopped or restarted), the lock went with it: no one joins the lease
    // any more, and what its users write is refused by the version check if another node wrote.
    const lost = () => {
      lease.closing = true;
    };
    client.on('error', lost);
    const key = this.#key(scope);
    try {
      await client.query('SELECT pg_advisory_lock(hashtext($1))', [key]);
      const versions = await this.#query(client, [scope]);
      if ((versions.get(scope) ?? 0) !== this.#knownOf(scope)) {
        await this.#links.refresh([scope]);
      }
      // Leased from here: memory holds the scope as the last node left it, and reads need not ask.
      lease.locked = true;
      lease.since = Date.now();
    } catch (err) {
      lease.locked = false;
      client.off('error', lost);
      client.release(true); // the lock, if taken, goes with the connection
      throw err;
    }
    // Let go once its last user is done and everything written under it is committed.
    this.#unlockers.set(lease, async () => {
      await this.#links.settle().catch(() => {});
      lease.locked = false;
      if (scope === GLOBAL) {
        this.#made.clear();
      }
      try {
        await client.query('SELECT pg_advisory_unlock(hashtext($1))', [key]);
        client.off('error', lost);
        client.release();
      } catch {
        client.off('error', lost);
        client.release(true);
      }
    });
  }

  readonly #unlockers = new WeakMap<Lease, () => Promise<void>>();

  #leave(scope: Scope): void {
    const lease = this.#leases.get(scope);
    if (lease === undefined || lease.users <= 0) {
      return;
    }
    lease.users -= 1;
    if (lease.users > 0) {
      return;
    }
    lease.closing = true;
    const unlock = this.#unlockers.get(lease);
    void (unlock ? unlock() : Promise.resolve()).finally(() => {
      if (this.#leases.get(scope) === lease) {
        this.#leases.delete(scope);
      }
      lease.letGo();
    });
  }

  /** Runs `fn` (a write) under the lease of `scope`, memory of it as the last node left it. */
  async within<T>(scope: Scope, fn: () => T): Promise<T> {
    const release = await this.begin([scope], [scope]);
    try {
      return fn();
    } finally {
      release();
    }
  }

  /**
   * Runs `fn` (a delivery's send) with this caller's share of `scope`'s lease let go, so that
   * other nodes may write it meanwhile; taken again (and the scope read again where written)
   * before it returns.
   */
  async without<T>(scope: Scope, fn: () => Promise<T>): Promise<T> {
    if (!this.leased(scope)) {
      return fn();
    }
    this.#leave(scope);
    try {
      return await fn();
    } finally {
      await this.#take(scope);
    }
  }

  /**
   * Claims a piece of work (a delivery's attempt) for this node for `ms`: whether it won, and
   * else how long another's claim still runs. A claim lapses, so a node lost mid-way is taken
   * over once it does.
   */
  async claim(key: string, ms: number): Promise<{ won: boolean; leftMs: number }> {
    if (Date.now() - this.#swept > SWEEP_CLAIMS_MS) {
      this.#swept = Date.now();
      // Lapsed claims of work long done: a claim is kept past its work (see the worker).
      await this.#pool.query(
        `DELETE FROM ${this.#s}.claims WHERE until < clock_timestamp() - interval '1 hour'`,
      );
    }
    const { rows } = await this.#pool.query<{ won: string | null; left_ms: string | null }>(
      `WITH up AS (
         INSERT INTO ${this.#s}.claims AS c (key, node, until)
         VALUES ($1, $2, clock_timestamp() + $3 * interval '1 millisecond')
         ON CONFLICT (key) DO UPDATE SET node = excluded.node, until = excluded.until
         WHERE c.until < clock_timestamp() OR c.node = excluded.node
         RETURNING node)
       SELECT (SELECT node FROM up) AS won,
              (SELECT extract(epoch FROM until - clock_timestamp()) * 1000
               FROM ${this.#s}.claims WHERE key = $1) AS left_ms`,
      [key, this.node, ms],
    );
    const row = rows[0];
    return { won: row?.won != null, leftMs: Math.max(0, Number(row?.left_ms ?? 0)) };
  }

  /** When each workspace's next work falls due on its own clock, as the last commit to it said. */
  async dues(): Promise<Map<Scope, number>> {
    const { rows } = await this.#pool.query<{ scope: string; due: string }>(
      `SELECT scope, due FROM ${this.#s}.scopes
       WHERE scope <> $1 AND due IS NOT NULL AND due < $2`,
      [GLOBAL, Number.MAX_SAFE_INTEGER],
    );
    return new Map(rows.map((r) => [r.scope, Number(r.due)]));
  }

  #key(scope: Scope): string {
    return `svc lease ${this.#schema} ${scope}`;
  }

  /** Lets every connection go (the store closes). */
  async close(): Promise<void> {
    await this.#locks.end();
    await this.#counts.end();
  }
}

/** The global scope first, then workspaces by name: the one order every node takes leases in. */
function ordered(scopes: readonly Scope[]): Scope[] {
  const unique = [...new Set(scopes)].filter((scope) => scope !== GLOBAL).sort();
  return scopes.includes(GLOBAL) ? [GLOBAL, ...unique] : unique;
}
