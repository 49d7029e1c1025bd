import type pg from 'pg';

// Claims on pieces of work where several nodes serve the schema (architecture.md, Several nodes):
// a node claims a delivery's attempt before it sends it, so it goes once whichever node reads it
// open; a claim lapses, so a node lost mid-way is taken over once it does.

/** How often a node clears claims lapsed long ago. */
const SWEEP_CLAIMS_MS = 60_000;

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
      [key, this.#node, ms],
    );
    const row = rows[0];
    return { won: row?.won != null, leftMs: Math.max(0, Number(row?.left_ms ?? 0)) };
  }
}
