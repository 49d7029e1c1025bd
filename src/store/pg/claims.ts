import type pg from 'pg';
import { transaction } from './transaction';

// Claims on pieces of work where several nodes serve the schema (architecture.md, Several nodes):
// a node claims a delivery's attempt before it sends it, so it goes once whichever node reads it
// open; a claim lapses, so a node lost mid-way is taken over once it does. A claim may count
// against a group's limit while its work runs (a subscription's sends at once, over every node).

/** How often a node clears claims lapsed long ago. */
const SWEEP_CLAIMS_MS = 60_000;

/** The group a claim counts against while its work runs, and how many the group may run at once. */
export interface ClaimGroup {
  name: string;
  max: number;
}

export interface Claimed {
  /** This node holds the claim. */
  won: boolean;
  /** Not won: how long another node's claim still runs. */
  leftMs: number;
  /** Not won: the group runs its most already (claims of other work, on any node). */
  full: boolean;
}

export class SharedClaims {
  readonly #pool: pg.Pool;
  readonly #s: string;
  readonly #node: string;
  #swept = 0;

  constructor(pool: pg.Pool, s: string, node: string) {
    this.#pool = pool;
    this.#s = s;
    this.#node = node;
  }

  /**
   * Claims a piece of work (a delivery's attempt) for this node for `ms`, counted in `group`
   * until `done`. Claimers of one group take turns (a transaction-scoped advisory lock), so the
   * group never runs more than its most.
   */
  async claim(key: string, ms: number, group: ClaimGroup): Promise<Claimed> {
    if (Date.now() - this.#swept > SWEEP_CLAIMS_MS) {
      this.#swept = Date.now();
      // Lapsed claims of work long done: a claim is kept past its work (see the worker).
      await this.#pool.query(
        `DELETE FROM ${this.#s}.claims WHERE until < clock_timestamp() - interval '1 hour'`,
      );
    }
    return transaction(this.#pool, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [
        `svc claims ${this.#s} ${group.name}`,
      ]);
      // Another node's claim on this very work, live: not won, whether or not the group is full.
      const theirs = await client.query<{ left_ms: string }>(
        `SELECT extract(epoch FROM until - clock_timestamp()) * 1000 AS left_ms
         FROM ${this.#s}.claims WHERE key = $1 AND node <> $2 AND until > clock_timestamp()`,
        [key, this.#node],
      );
      const held = theirs.rows[0];
      if (held !== undefined) {
        return { won: false, leftMs: Math.max(0, Number(held.left_ms)), full: false };
      }
      const running = await client.query<{ n: string }>(
        `SELECT count(*) AS n FROM ${this.#s}.claims
         WHERE grp = $1 AND NOT done AND until > clock_timestamp() AND key <> $2`,
        [group.name, key],
      );
      if (Number(running.rows[0]?.n ?? 0) >= group.max) {
        return { won: false, leftMs: 0, full: true };
      }
      const { rows } = await client.query<{ won: string | null; left_ms: string | null }>(
        `WITH up AS (
           INSERT INTO ${this.#s}.claims AS c (key, node, until, grp, done)
           VALUES ($1, $2, clock_timestamp() + $3 * interval '1 millisecond', $4, false)
           ON CONFLICT (key) DO UPDATE
             SET node = excluded.node, until = excluded.until, grp = excluded.grp, done = false
           WHERE c.until < clock_timestamp() OR c.node = excluded.node
           RETURNING node)
         SELECT (SELECT node FROM up) AS won,
                (SELECT extract(epoch FROM until - clock_timestamp()) * 1000
                 FROM ${this.#s}.claims WHERE key = $1) AS left_ms`,
        [key, this.#node, ms, group.name],
      );
      const row = rows[0];
      return {
        won: row?.won != null,
        leftMs: Math.max(0, Number(row?.left_ms ?? 0)),
        full: false,
      };
    });
  }

  /** The claimed work goes on: this node's claim runs `ms` from now (while it is this node's). */
  async renew(key: string, ms: number): Promise<void> {
    await this.#pool.query(
      `UPDATE ${this.#s}.claims SET until = clock_timestamp() + $3 * interval '1 millisecond'
       WHERE key = $1 AND node = $2 AND NOT done`,
      [key, this.#node, ms],
    );
  }

  /** The claimed work is over: it no longer counts in its group; the claim itself runs on. */
  async done(key: string): Promise<void> {
    await this.#pool.query(
      `UPDATE ${this.#s}.claims SET done = true WHERE key = $1 AND node = $2`,
      [key, this.#node],
    );
  }
}
