import type pg from 'pg';

// A key's rate window where several nodes serve the schema (architecture.md, Several nodes): one
// row a bucket, counted in one statement by whichever node a request reaches, so the limit is
// the key's over every node. A fixed one-minute window from its first request, on the clock the
// caller gives, as rate-limit/limiter.ts keeps it in memory; a request refused still counts in
// the row, which changes nothing a caller sees (remaining stays 0, the window ends as it would).

const WINDOW_MS = 60_000;

export interface SharedWindow {
  /** When the window began, on the caller's clock (ms). */
  start: number;
  /** Requests counted in it, this one included. */
  count: number;
}

export class SharedRates {
  readonly #pool: pg.Pool;
  readonly #s: string;

  constructor(pool: pg.Pool, s: string) {
    this.#pool = pool;
    this.#s = s;
  }

  /** Counts a request at `now` in `bucket`'s window (a new one once a minute has gone by). */
  async hit(bucket: string, now: number): Promise<SharedWindow> {
    const { rows } = await this.#pool.query<{ start_ms: string; count: number }>(
      `INSERT INTO ${this.#s}.rate_windows AS w (bucket, start_ms, count) VALUES ($1, $2, 1)
       ON CONFLICT (bucket) DO UPDATE SET
         start_ms = CASE WHEN $2 - w.start_ms >= ${WINDOW_MS} THEN $2 ELSE w.start_ms END,
         count = CASE WHEN $2 - w.start_ms >= ${WINDOW_MS} THEN 1 ELSE w.count + 1 END
       RETURNING start_ms, count`,
      [bucket, now],
    );
    return windowOf(rows[0], now);
  }

  /** Takes back a request counted in `bucket` (refused further on, by a tighter limit). */
  async unhit(bucket: string): Promise<void> {
    await this.#pool.query(
      `UPDATE ${this.#s}.rate_windows SET count = count - 1 WHERE bucket = $1 AND count > 0`,
      [bucket],
    );
  }

  /** `bucket`'s window at `now`, nothing counted. */
  async peek(bucket: string, now: number): Promise<SharedWindow> {
    const { rows } = await this.#pool.query<{ start_ms: string; count: number }>(
      `SELECT start_ms, count FROM ${this.#s}.rate_windows WHERE bucket = $1`,
      [bucket],
    );
    const row = rows[0];
    return row === undefined || now - Number(row.start_ms) >= WINDOW_MS
      ? { start: now, count: 0 }
      : windowOf(row, now);
  }
}

function windowOf(row: { start_ms: string; count: number } | undefined, now: number): SharedWindow {
  return row === undefined
    ? { start: now, count: 0 }
    : { start: Number(row.start_ms), count: Number(row.count) };
}
