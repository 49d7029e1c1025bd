import pg from 'pg';
import { GLOBAL, type Scope } from '../types';
import { SharedBlobs } from './blobs';
import { SharedClaims } from './claims';
import { SharedFaults } from './faults';
import { SharedFlashes } from './flashes';
import { KeptAnswers } from './kept-answers';
import { SharedRates } from './rates';
import { SharedLog } from './shared-log';
import { Versions } from './versions';

// Several svc nodes on one PostgreSQL schema (architecture.md, Several nodes). Each node answers
// from its own memory, so before a request reads a scope its node asks PostgreSQL for the
// scope's version and, where another node wrote it since, reads it again; and a node writes a
// scope only under its lease: a PostgreSQL advisory lock, taken on a connection of its own, held
// while that node's writes to the scope are made and committed, and let go once they are. Every
// write is thus made on the scope as the last node left it, whichever node wrote last.

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
  /** Lets the lock go once all written under it is committed (set once it is held). */
  unlock?: () => Promise<void>;
  locked: boolean;
}

export interface ClusterLinks {
  /** Reads `scopes` again from PostgreSQL into memory (another node wrote them). */
  refresh(scopes: readonly Scope[]): Promise<void>;
  /** Resolves once everything this node wrote so far is committed. */
  settle(): Promise<void>;
}

/** Connections for leases (one a scope written at once), and for the log's rows and rates. */
const LEASE_POOL_SIZE = 16;
const COUNTS_POOL_SIZE = 2;
/** How long a node waits for another's lease of a scope before the request is refused. */
const LOCK_TIMEOUT_MS = 30_000;
/** As the persistence's pool's (persistence.ts). */
const STATEMENT_TIMEOUT_MS = 30_000;

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
  /** Claims on pieces of work (a delivery's attempt), so that one node alone does each. */
  readonly claims: SharedClaims;
  /** Idempotency keys' answers, kept for every node. */
  readonly kept: KeptAnswers;
  /** The request log every node writes its calls to and reads the others' from. */
  readonly requests: SharedLog;
  /** Uploaded files' bytes, which every node serves. */
  readonly blobs: SharedBlobs;
  #links: ClusterLinks = { refresh: async () => {}, settle: async () => {} };
  /** The versions of scopes, and of what the nodes share outside them, that a node checks. */
  readonly versions: Versions;
  /** The faults injected through the control API, which every node fires. */
  readonly faults: SharedFaults;
  /** What the web app's page after a form shows once, which any node may serve. */
  readonly flashes: SharedFlashes;
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
    this.claims = new SharedClaims(pool, s, node);
    this.requests = new SharedLog(counts, s, node);
    this.blobs = new SharedBlobs(pool, s);
    this.versions = new Versions(pool, s);
    this.faults = new SharedFaults(pool, s, this.versions);
    this.flashes = new SharedFlashes(pool, s);
    this.node = node;
    this.#pool = pool;
    this.#locks = locks;
    this.#s = s;
    this.#schema = schema;
  }

  /** This node's coordination over `pool` (the persistence's) and pools of its own. */
  static connect(
    url: string,
    node: string,
    pool: pg.Pool,
    s: string,
    schema: string,
    known: Map<Scope, number>,
  ): Cluster {
    // A lease waited for past LOCK_TIMEOUT_MS fails its request (500, Retry-After) rather than
    // keep it waiting on a node that does not let go.
    const locks = new pg.Pool({
      connectionString: url,
      max: LEASE_POOL_SIZE,
      connectionTimeoutMillis: 10_000,
      options: `-c lock_timeout=${LOCK_TIMEOUT_MS}`,
    });
    // What is counted, not kept: the request log's rows and the rate windows are committed
    // without waiting for the disk (seen by every node at once all the same); a crash of the
    // database may lose the last of them, never a record.
    const counts = new pg.Pool({
      connectionString: url,
      max: COUNTS_POOL_SIZE,
      connectionTimeoutMillis: 10_000,
      statement_timeout: STATEMENT_TIMEOUT_MS,
      options: '-c synchronous_commit=off',
    });
    locks.on('error', () => {}); // an idle connection lost is the pool's to replace
    counts.on('error', () => {});
    return new Cluster(node, { pool, locks, counts }, s, schema, known);
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
   * memory read it, read again, and what the nodes share by name too. Resolves with what lets the
   * leases go.
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
        const versions = await this.versions.of(unleased);
        const stale = unleased.filter(
          (scope) => !this.leased(scope) && (versions.get(scope) ?? 0) !== this.#knownOf(scope),
        );
        if (stale.length > 0) {
          await this.#links.refresh(stale);
        }
      }
      // What the nodes share outside the scopes (the faults), as the checks above found it.
      await this.versions.catchUp();
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
      const versions = await this.versions.query(client, [scope]);
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
    lease.unlock = async () => {
      await this.#links.settle().catch(() => {});
      lease.locked = false;
      if (scope === GLOBAL) {
        this.#made.clear();
      }
      const unlocked = await client.query('SELECT pg_advisory_unlock(hashtext($1))', [key]).then(
        () => true,
        () => false,
      );
      client.off('error', lost);
      client.release(!unlocked); // a connection that could not let go is closed: so is its lock
    };
  }

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
    void (lease.unlock ? lease.unlock() : Promise.resolve()).finally(() => {
      if (this.#leases.get(scope) === lease) {
        this.#leases.delete(scope);
      }
      lease.letGo();
    });
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
