import type pg from 'pg';
import type { Scope } from '../types';

// Where several nodes serve the schema (architecture.md, Several nodes): the versions PostgreSQL
// holds of scopes, and of what else the nodes share outside the scopes (the injected faults),
// which a node follows by name. Every version check asks the followed names too, in the same
// query: a node learns of another's change by the check its next request makes anyway.

/** What a node follows outside the scopes: a name ('~' first, which no scope is) and a reader. */
interface Followed {
  /** The version memory holds (-1: never read). */
  known: number;
  /** The highest version a check has seen. */
  seen: number;
  /** Reads it again; resolves with the version read. */
  read(): Promise<number>;
  /** The read under way: one at a time, so that an older one never lands after a newer. */
  reading: Promise<void> | undefined;
}

export class Versions {
  readonly #pool: pg.Pool;
  readonly #s: string;
  readonly #followed = new Map<string, Followed>();
  /** The next check, which callers join until it is sent. */
  #next: { scopes: Set<Scope>; result: Promise<Map<Scope, number>> } | undefined;
  #checking: Promise<unknown> = Promise.resolve();

  constructor(pool: pg.Pool, s: string) {
    this.#pool = pool;
    this.#s = s;
  }

  /** `name` is followed: `read` takes it in whenever a check finds a version memory does not hold. */
  follow(name: string, read: () => Promise<number>): void {
    this.#followed.set(name, { known: -1, seen: 0, read, reading: undefined });
  }

  /** This node changed `name` to `version`: read again at the next catch-up. */
  saw(name: string, version: number): void {
    const followed = this.#followed.get(name);
    if (followed !== undefined) {
      followed.seen = Math.max(followed.seen, version);
    }
  }

  /** Each followed name a check found changed, read again until memory holds what it saw. */
  async catchUp(): Promise<void> {
    for (const followed of this.#followed.values()) {
      while (followed.seen > followed.known) {
        followed.reading ??= followed
          .read()
          .then((version) => {
            // Read after the check that saw `seen`: at least as new, unless a write of this node
            // raised it meanwhile, which the next turn reads.
            followed.known = Math.max(followed.known, version);
          })
          .finally(() => {
            followed.reading = undefined;
          });
        await followed.reading;
      }
    }
  }

  /**
   * The versions PostgreSQL holds of `scopes`, by a query sent after this call: callers that come
   * while one is out join the next, so a busy node sends one at a time.
   */
  of(scopes: readonly Scope[]): Promise<Map<Scope, number>> {
    let next = this.#next;
    if (next === undefined) {
      const wanted = new Set<Scope>();
      const result = this.#checking.then(() => {
        this.#next = undefined;
        return this.query(this.#pool, [...wanted]);
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

  /** The versions of `scopes` and of every followed name, asked on `client` now. */
  async query(client: pg.Pool | pg.PoolClient, scopes: Scope[]): Promise<Map<Scope, number>> {
    const names = [...this.#followed.keys()];
    const { rows } = await client.query<{ scope: string; version: string }>(
      names.length === 0
        ? `SELECT scope, version FROM ${this.#s}.scopes WHERE scope = ANY($1)`
        : `SELECT scope, version FROM ${this.#s}.scopes WHERE scope = ANY($1)
           UNION ALL SELECT name, version FROM ${this.#s}.shared_versions WHERE name = ANY($2)`,
      names.length === 0 ? [scopes] : [scopes, names],
    );
    const versions = new Map(rows.map((r) => [r.scope, Number(r.version)]));
    for (const [name, followed] of this.#followed) {
      followed.seen = Math.max(followed.seen, versions.get(name) ?? 0);
    }
    return versions;
  }
}
