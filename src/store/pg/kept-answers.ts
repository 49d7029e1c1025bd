import type pg from 'pg';

// Idempotency keys' answers where several nodes serve the schema (architecture.md, Several nodes):
// a table of their own, read and written by whichever node a keyed request reaches. Kept in the
// global scope, every keyed write would write the global scope, which each node would then read
// again; here a key is one row, found by its id. A second request with the key waits for the
// first's lease on its workspace (store/pg/cluster.ts), so it finds the first's answer here.

/** A key's row: the record as the idempotency layer keeps it, as JSON text. */
export class KeptAnswers {
  readonly #pool: pg.Pool;
  readonly #s: string;

  constructor(pool: pg.Pool, s: string) {
    this.#pool = pool;
    this.#s = s;
  }

  async get(id: string): Promise<string | undefined> {
    const { rows } = await this.#pool.query<{ record: string }>(
      `SELECT record::text AS record FROM ${this.#s}.kept_answers WHERE id = $1`,
      [id],
    );
    return rows[0]?.record;
  }

  async put(id: string, workspaceId: string | null, record: string): Promise<void> {
    await this.#pool.query(
      `INSERT INTO ${this.#s}.kept_answers (id, workspace_id, record, kept_at)
       VALUES ($1, $2, $3::json, clock_timestamp())
       ON CONFLICT (id) DO UPDATE SET
         workspace_id = excluded.workspace_id, record = excluded.record, kept_at = excluded.kept_at`,
      [id, workspaceId, record],
    );
  }

  /** A workspace deleted: its keys' answers go with it. */
  async forget(workspaceId: string): Promise<void> {
    await this.#pool.query(`DELETE FROM ${this.#s}.kept_answers WHERE workspace_id = $1`, [
      workspaceId,
    ]);
  }

  /**
   * Rows kept longer than `ms` of real time ago. A key past its 24 hours on its workspace's clock
   * (a clock moved on) is refused as it is read; this only keeps the table small.
   */
  async purge(ms: number): Promise<void> {
    await this.#pool.query(
      `DELETE FROM ${this.#s}.kept_answers
       WHERE kept_at < clock_timestamp() - $1 * interval '1 millisecond'`,
      [ms],
    );
  }
}
