import type pg from 'pg';

// What the web app's page after a form shows once (a new key's or a secret's value), where
// several nodes serve the schema: the form's node writes it here before it redirects, and the
// node the browser's next request reaches takes it, once (decisions.md, Several nodes).

/** How often expired notices nobody followed are cleared. */
const SWEEP_MS = 60_000;

export class SharedFlashes {
  readonly #pool: pg.Pool;
  readonly #s: string;
  #swept = 0;

  constructor(pool: pg.Pool, s: string) {
    this.#pool = pool;
    this.#s = s;
  }

  /** Keeps `flash` under `id` for `ms` of real time. */
  async put(id: string, flash: unknown, ms: number): Promise<void> {
    if (Date.now() - this.#swept > SWEEP_MS) {
      this.#swept = Date.now();
      await this.#pool.query(`DELETE FROM ${this.#s}.flashes WHERE expires < clock_timestamp()`);
    }
    await this.#pool.query(
      `INSERT INTO ${this.#s}.flashes (id, flash, expires)
       VALUES ($1, $2, clock_timestamp() + $3 * interval '1 millisecond')`,
      [id, JSON.stringify(flash), ms],
    );
  }

  /** The notice under `id`, taken: no other node (nor this one) finds it again. */
  async take(id: string): Promise<{ flash: unknown; leftMs: number } | undefined> {
    const { rows } = await this.#pool.query<{ flash: unknown; left_ms: string }>(
      `DELETE FROM ${this.#s}.flashes WHERE id = $1
       RETURNING flash, extract(epoch FROM expires - clock_timestamp()) * 1000 AS left_ms`,
      [id],
    );
    const row = rows[0];
    return row && { flash: row.flash, leftMs: Number(row.left_ms) };
  }
}
